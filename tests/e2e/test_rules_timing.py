"""RULES' Decisions on when cards act and who eliminates, played through the HTTP API against the
real services: §7.1 the Taser only before the action, Coffee and Smoke Grenade in the
start-of-game window, a Coffee whose player is eliminated; §9 who eliminates "by a Bomber" (the
gun that fired, wherever a card sent the shot; the player of a card that shoots by itself)."""

from __future__ import annotations

from typing import Any

import httpx

from tests.e2e.conftest import auth
from tests.e2e.test_rules_decisions import (
    deal,
    my_view,
    others_investigate,
    send,
    settle,
    started,
    turn,
    types,
)

KP, A = "kingpin", "agent"
HB, CB, HK, CK = "honest_bomb", "crooked_bomb", "honest_knife", "crooked_knife"
HBK, CBK = "honest_bomb_knife", "crooked_bomb_knife"
BT = {"bombers_traitors": True}
BT_EXTRA = {"bombers_traitors": True, "extra_equipment": True}


def refused(http: httpx.Client, table_id: str, token: str, command: dict[str, Any]) -> str:
    """The command is refused as "not now": its code."""
    r = http.post(f"/tables/{table_id}/commands", headers=auth(token), json=command)
    assert r.status_code == 409, (command, r.status_code, r.text)
    return r.json()["code"]


def plays(view: dict, card: str) -> list[dict]:
    return [c for c in view["legal_commands"] if c.get("card") == card]


def eliminations(view: dict) -> list[tuple[int, int | None]]:
    """(seat, by) of each elimination in the view's log."""
    return [(e["seat"], e.get("by")) for e in view["log"] if e["type"] == "seat_eliminated"]


def outcome(view: dict) -> tuple[list[int], str, str]:
    assert view["status"] == "finished", view["waiting_for"]
    return view["winners"], view["win_team"], view["win_reason"]


# --- RULES §7.1 Taser ---------------------------------------------------------------------------
def test_the_taser_is_played_only_before_the_action_over_http(http):
    """RULES §7.1 Taser (Decision: "your own turn" is window 1 of §6, before you declare your
    action, not your end-of-turn window): seat 0 may not play it in the start-of-game window; in
    its turn it is listed before its action; once it has declared an Investigate it is refused
    (409 not_playable_now) and not listed, in the investigate window and in the end-of-turn window
    of its own turn."""
    table_id, tokens = started(http, deal=deal([["taser"], [], [], []], first_seat=1))
    taser = {"type": "play_equipment", "card": "taser", "target": 1, "aim": 2}
    assert my_view(http, table_id)["window"]["kind"] == "start_of_game"
    assert plays(my_view(http, table_id, tokens[0]), "taser") == []
    assert refused(http, table_id, tokens[0], taser) == "not_playable_now"
    settle(http, table_id, tokens)
    turn(http, table_id, tokens, {"type": "arm", "target": 2, "position": 2})  # seat 1 armed
    for _ in (2, 3):
        turn(http, table_id, tokens, {"type": "investigate", "target": 0, "position": 1})
    mine = my_view(http, table_id, tokens[0])
    assert mine["turn"] == 0 and mine["phase"] == "action"
    assert taser in plays(mine, "taser")  # window 1: before the action
    send(http, table_id, tokens[0], {"type": "investigate", "target": 1, "position": 1})
    for window in ("investigate", "end_of_turn"):
        mine = my_view(http, table_id, tokens[0])
        assert mine["turn"] == 0 and mine["window"]["kind"] == window
        assert plays(mine, "taser") == []
        assert refused(http, table_id, tokens[0], taser) == "not_playable_now"
        send(http, table_id, tokens[0], {"type": "pass"})
    v = my_view(http, table_id, tokens[0])
    assert v["turn"] == 1 and v["you"]["hand"] == ["taser"]
    assert v["seats"][1]["gun"] is not None


# --- RULES §7.1 Coffee and Smoke Grenade ---------------------------------------------------------
def test_a_coffee_in_the_start_of_game_window_plays_after_the_first_turn_over_http(http):
    """RULES §7.1 Coffee (Decision: played in the start-of-game window it acts as if played in
    the first turn: your turn comes after the first): seat 2 drinks it before the first turn; seat
    0, the Lead Investigator, takes the first turn, seat 2 the second, then seat 3."""
    table_id, tokens = started(http, deal=deal([[], [], ["coffee"], []]))
    send(http, table_id, tokens[2], {"type": "play_equipment", "card": "coffee"})
    v = settle(http, table_id, tokens)
    assert (v["turn"], v["turn_number"]) == (0, 1)
    v = turn(http, table_id, tokens, {"type": "investigate", "target": 1, "position": 1})
    assert (v["turn"], v["turn_number"]) == (2, 2)
    v = turn(http, table_id, tokens, {"type": "investigate", "target": 1, "position": 1})
    assert (v["turn"], v["turn_number"]) == (3, 3)


def test_a_smoke_grenade_in_the_start_of_game_window_reverses_after_the_first_turn_over_http(
    http,
):
    """RULES §7.1 Smoke Grenade (Decision: played in the start-of-game window, the order reverses
    from the end of the first turn): seat 2 throws it before the first turn; the first turn is seat
    0's, clockwise; the second seat 3's, counter-clockwise, then seat 2's."""
    table_id, tokens = started(http, deal=deal([[], [], ["smoke_grenade"], []]))
    send(http, table_id, tokens[2], {"type": "play_equipment", "card": "smoke_grenade"})
    v = settle(http, table_id, tokens)
    assert (v["turn"], v["direction"]) == (0, "clockwise")
    v = turn(http, table_id, tokens, {"type": "investigate", "target": 1, "position": 1})
    assert (v["turn"], v["direction"]) == (3, "counter_clockwise")
    v = turn(http, table_id, tokens, {"type": "investigate", "target": 1, "position": 1})
    assert v["turn"] == 2


def test_a_coffee_whose_player_is_eliminated_before_the_turn_ends_does_nothing_over_http(http):
    """RULES §7.1 Coffee (Decision: if you are eliminated before the turn ends, nothing happens):
    seat 2 drinks it in the shoot window of seat 0's shot at it; seat 0 shoots again and seat 2
    is eliminated; seat 3 brings it back with a Defibrillator in the end-of-turn window. The turn
    still passes to seat 1, not to seat 2."""
    table_id, tokens = started(http, deal=deal([[], [], ["coffee"], ["defibrillator"]]))
    settle(http, table_id, tokens)
    turn(http, table_id, tokens, {"type": "arm", "target": 2, "position": 2})
    others_investigate(http, table_id, tokens)
    send(http, table_id, tokens[0], {"type": "shoot"})
    send(http, table_id, tokens[2], {"type": "play_equipment", "card": "coffee"})
    send(http, table_id, tokens[3], {"type": "pass"})
    assert types(my_view(http, table_id)["log"])[-1] == "action_cancelled"  # §6: shoot again?
    send(http, table_id, tokens[0], {"type": "shoot"})
    send(http, table_id, tokens[3], {"type": "pass"})
    v = my_view(http, table_id, tokens[3])
    assert v["seats"][2]["eliminated"] and v["window"]["kind"] == "end_of_turn"
    send(
        http, table_id, tokens[3], {"type": "play_equipment", "card": "defibrillator", "target": 2}
    )
    v = settle(http, table_id, tokens)
    assert not v["seats"][2]["eliminated"]
    assert (v["turn"], v["turn_number"]) == (1, 6)


# --- RULES §9: "by a Bomber" --------------------------------------------------------------------
# seat 0 the Agent, seat 1 the Kingpin, seat 2 a Bomber, seat 3 Honest; no Traitor
BOMBER_AT_2 = [[A, CB, HK], [KP, CBK, CK], [HB, CB, HBK], [HB, HK, CK]]
# the same cards, the Bomber at seat 1 (beside the Agent) and the Kingpin at seat 2
BOMBER_AT_1 = [[A, CB, HK], [HB, CB, HBK], [KP, CBK, CK], [HB, HK, CK]]


def bt_deal(integrity: list[list[str]], equipment: list[list[str]], **extra: Any) -> dict:
    return {"integrity": integrity, "equipment": equipment, "first_seat": 0, **extra}


def investigate_until(http, table_id, tokens, seat: int) -> None:
    """The turns up to ``seat``'s: each investigates the next seat's card 3 (seen again or not)."""
    while (now := my_view(http, table_id)["turn"]) != seat:
        turn(
            http, table_id, tokens, {"type": "investigate", "target": (now + 1) % 4, "position": 3}
        )


def wound_the_agent(http, table_id, tokens, shooter: int, other: tuple[int, int]) -> None:
    """From seat 0's first turn: ``shooter`` arms at the Agent (seat 0), and the ``other``
    (seat, target) arms too; the rest investigate; then ``shooter`` shoots the Agent once (wounded,
    it draws) and the table settles at the next turn."""
    for seat in range(4):
        assert my_view(http, table_id)["turn"] == seat
        if seat == shooter:
            command = {"type": "arm", "target": 0, "position": 2}
        elif seat == other[0]:
            command = {"type": "arm", "target": other[1], "position": 2}
        else:
            command = {"type": "investigate", "target": (seat + 1) % 4, "position": 3}
        turn(http, table_id, tokens, command)
    investigate_until(http, table_id, tokens, shooter)
    v = turn(http, table_id, tokens, {"type": "shoot"})
    assert v["seats"][0]["wounded"] and not v["seats"][0]["eliminated"]


def test_a_bombers_shot_sent_elsewhere_by_another_seats_card_is_the_bombers_over_http(http):
    """RULES §9.3a (Decision: the seat that eliminates is the one whose gun fired, wherever a card
    sent the shot): the Bomber (seat 2) shoots seat 3, whose Riot Shield sends the shot to its
    neighbour, the wounded Agent (seat 0): eliminated by the Bomber's gun, the Bombers win."""
    equipment = [[], [], [], ["riot_shield"]]
    table_id, tokens = started(http, options=BT, deal=bt_deal(BOMBER_AT_2, equipment))
    settle(http, table_id, tokens)
    wound_the_agent(http, table_id, tokens, shooter=1, other=(2, 3))
    investigate_until(http, table_id, tokens, 2)
    send(http, table_id, tokens[2], {"type": "shoot"})
    send(http, table_id, tokens[3], {"type": "play_equipment", "card": "riot_shield"})
    send(http, table_id, tokens[3], {"type": "choose", "target": 0})
    v = settle(http, table_id, tokens)
    assert outcome(v) == ([2], "bomber", "agent_eliminated")
    assert eliminations(v) == [(0, 2)]


def test_a_bombers_card_that_moves_another_seats_shot_is_not_the_bombers_over_http(http):
    """RULES §9.3a (Decision: Riot Shield, Restraining Order, Classified Orders and Holster only
    move another seat's shot): the Kingpin (seat 2) shoots the Bomber (seat 1), whose Riot Shield
    sends the shot to its neighbour, the wounded Agent (seat 0): eliminated by the Kingpin's gun,
    not by the Bomber; no Traitor: the Crooked team wins."""
    equipment = [[], ["riot_shield"], [], []]
    table_id, tokens = started(http, options=BT, deal=bt_deal(BOMBER_AT_1, equipment))
    settle(http, table_id, tokens)
    wound_the_agent(http, table_id, tokens, shooter=3, other=(2, 1))
    investigate_until(http, table_id, tokens, 2)
    send(http, table_id, tokens[2], {"type": "shoot"})
    send(http, table_id, tokens[1], {"type": "play_equipment", "card": "riot_shield"})
    send(http, table_id, tokens[1], {"type": "choose", "target": 0})
    v = settle(http, table_id, tokens)
    assert outcome(v) == ([2], "crooked", "agent_eliminated")
    assert eliminations(v) == [(0, 2)]


def test_a_bomber_shot_by_another_seats_crossbow_wins_for_the_bombers_over_http(http):
    """RULES §9.2 with §8.1 Crossbow (Decision: a card that shoots by itself shoots by its player):
    the Bomber (seat 2) aims at seat 3, which shoots it with its Crossbow in the end-of-turn
    window: the Bomber is eliminated by another seat, the Bombers win."""
    equipment = [[], [], [], ["crossbow"]]
    table_id, tokens = started(http, options=BT_EXTRA, deal=bt_deal(BOMBER_AT_2, equipment))
    settle(http, table_id, tokens)
    for _ in (0, 1):
        turn(http, table_id, tokens, {"type": "investigate", "target": 3, "position": 3})
    send(http, table_id, tokens[2], {"type": "arm", "target": 3, "position": 2})
    send(http, table_id, tokens[2], {"type": "aim", "target": 3})
    v = my_view(http, table_id, tokens[3])
    assert (v["turn"], v["window"]["kind"]) == (2, "end_of_turn")
    send(http, table_id, tokens[3], {"type": "play_equipment", "card": "crossbow", "target": 2})
    v = my_view(http, table_id)
    assert outcome(v) == ([2], "bomber", "bomber_shot")
    assert eliminations(v) == [(2, 3)]


def test_a_bomber_shot_by_another_seats_chainsaw_wins_for_the_bombers_over_http(http):
    """RULES §9.2 with §8.1 Chainsaw (Decision: a card that shoots by itself shoots by its player):
    before the first turn the Agent (seat 0) saws the Kingpin's face-down card 1; it is a Leader,
    so the Agent chooses a seat to shoot: the Bomber (seat 2), eliminated by another seat: the
    Bombers win."""
    equipment = [["chainsaw"], [], [], []]
    table_id, tokens = started(http, options=BT_EXTRA, deal=bt_deal(BOMBER_AT_2, equipment))
    chainsaw = {"type": "play_equipment", "card": "chainsaw", "target": 1, "position": 1}
    send(http, table_id, tokens[0], chainsaw)
    v = my_view(http, table_id, tokens[0])
    assert v["prompt"]["kind"] == "chainsaw" and 2 in v["prompt"]["options"]
    send(http, table_id, tokens[0], {"type": "choose", "target": 2})
    v = my_view(http, table_id)
    assert outcome(v) == ([2], "bomber", "bomber_shot")
    assert eliminations(v) == [(2, 0)]


def test_a_leader_killed_by_a_bombers_machete_wins_for_the_bombers_over_http(http):
    """RULES §9.3a with §8.1 Machete (Decision: a card that shoots by itself eliminates by its
    player). Machete needs an armed seat with no face-up Leader card, so a wounded Leader is in
    reach only once its cards are face down again: on a classic table the Kingpin (seat 1, armed)
    is shot by seat 3, draws a Flashbang and, in the end-of-turn window, lays its cards face down;
    the Bomber (seat 2) then kills it with its Machete: the Bombers win."""
    options = {"edition": "classic", **BT_EXTRA}
    equipment = [[], [], ["machete"], []]
    scenario = bt_deal(BOMBER_AT_2, equipment, equipment_deck=["flashbang"], first_seat=1)
    table_id, tokens = started(http, options=options, deal=scenario)
    settle(http, table_id, tokens)
    turn(http, table_id, tokens, {"type": "arm", "target": 0, "position": 2})  # seat 1
    turn(http, table_id, tokens, {"type": "investigate", "target": 3, "position": 3})  # seat 2
    turn(http, table_id, tokens, {"type": "arm", "target": 1, "position": 2})  # seat 3
    for _ in (0, 1, 2):
        turn(http, table_id, tokens, {"type": "investigate", "target": 3, "position": 1})
    send(http, table_id, tokens[3], {"type": "shoot"})  # at the Kingpin
    send(http, table_id, tokens[2], {"type": "pass"})
    v = my_view(http, table_id, tokens[2])
    kingpin = v["seats"][1]
    assert v["window"]["kind"] == "end_of_turn"
    assert kingpin["wounded"] and kingpin["gun"] is not None
    assert [c["face_up"] for c in kingpin["cards"]] == [True, True, True]
    machete = {"type": "play_equipment", "card": "machete", "target": 1}
    assert machete not in v["legal_commands"]
    flashbang = {"type": "play_equipment", "card": "flashbang", "positions": [1, 2, 3]}
    send(http, table_id, tokens[1], flashbang)
    v = my_view(http, table_id, tokens[2])
    assert [c["face_up"] for c in v["seats"][1]["cards"]] == [False, False, False]
    assert machete in v["legal_commands"]
    send(http, table_id, tokens[2], machete)
    v = my_view(http, table_id)
    assert outcome(v) == ([2], "bomber", "kingpin_eliminated")
    assert eliminations(v) == [(1, 2)]
