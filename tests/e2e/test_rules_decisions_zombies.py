"""The decisions of RULES §8 (Zombies) and §8.1 (its equipment, Alarm Clock), played through the
HTTP API against the real services on scenario tables (`deal`): a zombie's optional aim, bites on
zombies and on an unwounded Leader, the cards that may not move a zombie's integrity cards, Zombie
Mask, Chainsaw's shot and the Alarm Clock's guns.

Zombies are made at once in the start-of-game window: a non-Leader that plays Zombie Serum, or a
Chainsaw that finds no Leader, is shot by itself and rises (RULES §8)."""

from __future__ import annotations

import time
from typing import Any

import httpx

from tests.e2e.conftest import auth
from tests.e2e.test_rules_decisions import (
    KP,
    A,
    H,
    K,
    deal,
    look_again,
    my_view,
    send,
    started,
    types,
)

ZOMBIES = {"zombies": True}


def settle(http: httpx.Client, table_id: str, tokens: list[str]) -> dict:
    """Every seat asked in a window passes until the table waits for a turn's action, an aim or
    a prompt (or is over). The public view then."""
    for _ in range(100):
        v = my_view(http, table_id)
        waits = v["waiting_for"]
        if v["status"] != "playing" or not waits:
            return v
        if {w["reason"] for w in waits} & {"turn", "aim", "prompt"}:
            return v
        for w in waits:
            mine = my_view(http, table_id, tokens[w["seat"]])
            if {"type": "pass"} in mine["legal_commands"]:
                look_again(http, table_id, tokens[w["seat"]], {"type": "pass"})
                break
        else:
            time.sleep(0.05)  # the outcome is on its way
    raise AssertionError(f"the table did not settle: {v['waiting_for']}")


def act(http, table_id, tokens, seat: int, command: dict[str, Any]) -> dict:
    """``seat`` sends ``command``; the table settles; the public view."""
    send(http, table_id, tokens[seat], command)
    return settle(http, table_id, tokens)


def refused(http, table_id: str, token: str, command: dict[str, Any]) -> tuple[int, str]:
    r = http.post(f"/tables/{table_id}/commands", headers=auth(token), json=command)
    return r.status_code, r.json().get("code")


def aims(http, table_id: str, token: str) -> list[int]:
    """The seats the viewer may aim at now, from its legal commands."""
    legal = my_view(http, table_id, token)["legal_commands"]
    return [c["target"] for c in legal if c["type"] == "aim"]


def serum(choice: str) -> dict[str, Any]:
    return {"type": "play_equipment", "card": "zombie_serum", "choice": choice}


def investigate(target: int, position: int) -> dict[str, Any]:
    return {"type": "investigate", "target": target, "position": position}


def arms(v: dict, seat: int) -> int | None:
    return v["seats"][seat]["arms"]["aimed_at"] if v["seats"][seat]["zombie"] else None


# --- RULES §8 ----------------------------------------------------------------------------------
def test_a_zombies_aim_is_optional_and_a_bitten_zombie_turns_its_arms_on_itself(http):
    """RULES §8 (Decision: the aim after a zombie's action is optional: it may keep its Arms where
    they are, even on itself; a new aim is a living seat other than itself, zombies included.
    Decision: a zombie can be bitten: its Arms turn on itself. The biter must re-aim). Seats 2 and
    3 rise in the start-of-game window. Seat 2 equips and keeps its Arms on itself; seat 3 aims at
    zombie seat 2; seat 2 later aims at seat 0; seat 3 bites seat 2, whose Arms turn on itself;
    seat 3 may then aim neither at itself (409) nor at the seat it bit."""
    equipment = [[], [], ["zombie_serum"], ["chainsaw"]]
    dealt = deal(equipment, equipment_deck=["coffee", "wiretap", "med_kit"], first_seat=2)
    table_id, tokens = started(http, options=ZOMBIES, deal=dealt)
    send(http, table_id, tokens[2], serum("kingpin"))
    chainsaw = {"type": "play_equipment", "card": "chainsaw", "target": 0, "position": 2}
    v = act(http, table_id, tokens, 3, chainsaw)  # an Honest card: seat 3 is shot, and rises
    assert [s["zombie"] for s in v["seats"]] == [False, False, True, True]
    assert (arms(v, 2), arms(v, 3), v["arms_in_centre"]) == (2, 3, 0)
    assert v["turn"] == 2
    # turn 1: Arms on itself cannot bite; it equips, and may keep them there or aim anywhere
    legal = my_view(http, table_id, tokens[2])["legal_commands"]
    assert [c["type"] for c in legal] == ["equip"]
    v = act(http, table_id, tokens, 2, {"type": "equip"})
    assert v["waiting_for"][0]["reason"] == "aim"
    assert aims(http, table_id, tokens[2]) == [0, 1, 2, 3]  # itself: keep; zombie seat 3
    v = act(http, table_id, tokens, 2, {"type": "aim", "target": 2})
    assert arms(v, 2) == 2
    assert [e for e in v["log"] if e["type"] == "arms_aimed" and e["seat"] == 2][-1]["target"] == 2
    # turn 2: seat 3 aims its Arms at zombie seat 2
    assert v["turn"] == 3
    act(http, table_id, tokens, 3, {"type": "equip"})
    assert aims(http, table_id, tokens[3]) == [0, 1, 2, 3]
    v = act(http, table_id, tokens, 3, {"type": "aim", "target": 2})
    assert arms(v, 3) == 2
    act(http, table_id, tokens, 0, investigate(1, 2))
    v = act(http, table_id, tokens, 1, investigate(0, 3))
    # turn 5: seat 2 (Arms still on itself) equips, discards down to 1, aims at seat 0
    assert v["turn"] == 2
    v = act(http, table_id, tokens, 2, {"type": "equip"})
    assert v["prompt"]["kind"] == "discard"
    act(http, table_id, tokens, 2, {"type": "discard", "card": "med_kit"})
    v = act(http, table_id, tokens, 2, {"type": "aim", "target": 0})
    assert arms(v, 2) == 0
    # turn 6: seat 3 bites zombie seat 2: its Arms turn on itself
    assert {"type": "bite"} in my_view(http, table_id, tokens[3])["legal_commands"]
    v = act(http, table_id, tokens, 3, {"type": "bite"})
    assert v["seats"][2]["zombie"] and not v["seats"][2]["eliminated"] and arms(v, 2) == 2
    bitten = types(v["log"]).index("seat_bitten")
    assert [{k: e[k] for k in e if k != "v"} for e in v["log"][bitten : bitten + 2]] == [
        {"type": "seat_bitten", "biter": 3, "target": 2},
        {"type": "arms_aimed", "seat": 2, "target": 2},
    ]
    # the biter must re-aim: not at the seat it bit, not at itself (its Arms aim at seat 2)
    assert v["waiting_for"][0] == v["waiting_for"][0] | {"seat": 3, "reason": "aim"}
    assert aims(http, table_id, tokens[3]) == [0, 1]
    aim = {"type": "aim", "target": 3}
    assert refused(http, table_id, tokens[3], aim) == (409, "invalid_target")
    aim = {"type": "aim", "target": 2}
    assert refused(http, table_id, tokens[3], aim) == (409, "must_reaim")
    v = act(http, table_id, tokens, 3, {"type": "aim", "target": 1})
    assert arms(v, 3) == 1 and v["turn"] == 0


def test_a_bitten_unwounded_leader_is_wounded_and_nobody_wins(http):
    """RULES §8 (Decision: the older zombie rules of seeds 001/002 are not used: no Infector at
    the start, and a bite on an unwounded Leader does not win; it wounds it, and it draws). The
    table starts with N-2 = 2 Arms in the centre and no zombie; seat 2 rises (Zombie Serum), aims
    at the Kingpin's seat and bites it in its next turn."""
    dealt = deal([[], [], ["zombie_serum"], []], equipment_deck=["coffee", "wiretap"], first_seat=2)
    table_id, tokens = started(http, options=ZOMBIES, deal=dealt)
    v = my_view(http, table_id)
    assert v["arms_in_centre"] == 2 and not any(s["zombie"] for s in v["seats"])
    v = act(http, table_id, tokens, 2, serum(A))
    assert v["seats"][2]["zombie"] and v["arms_in_centre"] == 1 and v["turn"] == 2
    act(http, table_id, tokens, 2, {"type": "equip"})
    act(http, table_id, tokens, 2, {"type": "aim", "target": 1})
    for seat, target, position in ((3, 1, 2), (0, 1, 3), (1, 3, 1)):
        act(http, table_id, tokens, seat, investigate(target, position))
    v = act(http, table_id, tokens, 2, {"type": "bite"})
    kingpin = v["seats"][1]
    assert kingpin["wounded"] and not kingpin["eliminated"] and not kingpin["zombie"]
    assert [c["card"] for c in kingpin["cards"]] == [KP, K, K]  # all face up
    assert kingpin["equipment_count"] == 1  # it drew
    assert v["status"] == "playing" and v["winners"] is None and v["win_team"] is None
    assert my_view(http, table_id, tokens[1])["you"]["hand"] == ["wiretap"]


def test_no_card_moves_a_zombies_integrity_cards_over_http(http):
    """RULES §8 (Decision: no card moves a zombie's integrity cards — Blackmail, Fake ID,
    Transfusion Tube or any other exchange — except Zombie Mask): seat 2 rises (Zombie Serum names
    the Kingpin); seat 0 equips, turning its Agent face up and drawing a Transfusion Tube. In the
    end-of-turn window Blackmail is offered only between seats 0 and 3 and refused on the zombie
    (409 target_is_zombie), Fake ID likewise; the Transfusion Tube exchanges the two Leaders'
    holders' cards: the zombie's cards stay where they are."""
    equipment = [[], ["blackmail"], ["zombie_serum"], ["fake_id"]]
    dealt = deal(equipment, equipment_deck=["transfusion_tube"])
    options = {"zombies": True, "extra_equipment": True}  # Fake ID without Bombers & Traitors
    table_id, tokens = started(http, options=options, deal=dealt)
    v = act(http, table_id, tokens, 2, serum(KP))
    zombie = v["seats"][2]["cards"]
    assert v["seats"][2]["zombie"] and [c["card"] for c in zombie] == [H, K, H]
    send(http, table_id, tokens[0], {"type": "equip", "position": 1})
    v = my_view(http, table_id)
    assert v["window"]["kind"] == "end_of_turn" and v["seats"][0]["cards"][0]["card"] == A
    legal = my_view(http, table_id, tokens[1])["legal_commands"]
    blackmails = [c for c in legal if c.get("card") == "blackmail"]
    assert blackmails and {tuple(c["targets"]) for c in blackmails} == {(0, 3)}
    for targets in ([0, 2], [2, 3]):
        blackmail = {"type": "play_equipment", "card": "blackmail", "targets": targets}
        command = blackmail | {"positions": [1, 1]}
        assert refused(http, table_id, tokens[1], command) == (409, "target_is_zombie")
    legal = my_view(http, table_id, tokens[3])["legal_commands"]
    assert not [c for c in legal if c.get("card") == "fake_id"]
    fake_id = {"type": "play_equipment", "card": "fake_id", "targets": [1, 2], "positions": [2, 1]}
    assert refused(http, table_id, tokens[3], fake_id) == (409, "target_is_zombie")
    tube = {"type": "play_equipment", "card": "transfusion_tube"}
    assert tube in my_view(http, table_id, tokens[0])["legal_commands"]
    v = act(http, table_id, tokens, 0, tube)
    exchanged = [e for e in v["log"] if e["type"] == "cards_exchanged"]
    assert [(e["seats"], e["positions"]) for e in exchanged] == [([0, 1], [1, 1])]
    assert [c["card"] for c in v["seats"][0]["cards"]][0] == KP
    assert v["seats"][2]["cards"] == zombie and v["seats"][2]["zombie"]


def test_zombie_mask_ends_the_zombie_then_keeps_each_cards_face_and_position_over_http(http):
    """RULES §8.1 Zombie Mask (the zombie stops being one, then exchanges all its integrity cards
    with those of another seat; each card keeps its face and position, as with Blackmail), §8 (the
    one card that moves a zombie's cards, ending the zombie first): seat 2 rises (Zombie Serum
    turns the Kingpin face up); seat 3 masks it with seat 1 (Kingpin face up, two Crooked face
    down)."""
    dealt = deal([[], [], ["zombie_serum"], ["zombie_mask"]])
    table_id, tokens = started(http, options=ZOMBIES, deal=dealt)
    send(http, table_id, tokens[2], serum(KP))
    mask = {"type": "play_equipment", "card": "zombie_mask", "targets": [2, 1]}
    assert mask in my_view(http, table_id, tokens[3])["legal_commands"]
    v = act(http, table_id, tokens, 3, mask)
    log = v["log"]
    played = log.index(next(e for e in log if e.get("card") == "zombie_mask"))
    assert types(log)[played + 1 : played + 5] == ["zombie_cured", *["cards_exchanged"] * 3]
    assert [(e["seats"], e["positions"]) for e in log[played + 2 : played + 5]] == [
        ([1, 2], [p, p]) for p in (1, 2, 3)
    ]
    cured, other = v["seats"][2], v["seats"][1]
    assert not cured["zombie"] and cured["arms"] is None and v["arms_in_centre"] == 2
    faces = [(c["position"], c["face_up"], c["card"]) for c in cured["cards"]]
    assert faces == [(1, True, KP), (2, False, None), (3, False, None)]
    faces = [(c["position"], c["face_up"], c["card"]) for c in other["cards"]]
    assert faces == [(1, True, H), (2, True, K), (3, True, H)]
    mine = my_view(http, table_id, tokens[2])  # the receiver knows what it got
    assert [c["card"] for c in mine["seats"][2]["cards"]] == [KP, K, K]


# --- RULES §8.1 --------------------------------------------------------------------------------
def test_chainsaws_shot_never_targets_its_player_and_may_target_a_zombie_over_http(http):
    """RULES §8.1 Chainsaw (Decision: the chosen seat is never yourself, §5; a zombie may be
    chosen): seat 2 rises (Zombie Serum names the Agent); seat 3's Chainsaw turns up the Kingpin;
    its prompt offers seats 0, 1 and zombie seat 2, not seat 3 (refused, 409); it names the
    zombie, whose Arms turn on itself."""
    dealt = deal([[], [], ["zombie_serum"], ["chainsaw"]])
    table_id, tokens = started(http, options=ZOMBIES, deal=dealt)
    send(http, table_id, tokens[2], serum(A))
    chainsaw = {"type": "play_equipment", "card": "chainsaw", "target": 1, "position": 1}
    v = act(http, table_id, tokens, 3, chainsaw)
    assert v["prompt"] == {"seat": 3, "kind": "chainsaw", "options": [0, 1, 2], "about": 1}
    legal = my_view(http, table_id, tokens[3])["legal_commands"]
    assert [c["target"] for c in legal if c["type"] == "choose"] == [0, 1, 2]
    assert refused(http, table_id, tokens[3], {"type": "choose", "target": 3}) == (
        409,
        "invalid_choice",
    )
    v = act(http, table_id, tokens, 3, {"type": "choose", "target": 2})
    shot = [e for e in v["log"] if e["type"] == "seat_shot"][-1]
    assert (shot["shooter"], shot["target"]) == (3, 2)
    assert v["seats"][2]["zombie"] and arms(v, 2) == 2 and not v["seats"][3]["zombie"]


def test_the_alarm_clocks_seat_takes_no_gun_the_others_take_free_ones_in_turn_order(http):
    """RULES §8.1 Alarm Clock (Decision: the chosen seat takes no gun and keeps its aim; the other
    unarmed living seats take free guns in turn order from the seat after it, until none is
    free). Fourth edition (4 guns): the alarm on seat 2 rings at the end of its turn; seats 3, 0
    and 1 take guns aimed at it, seat 2 none though one is left. Classic (2 guns): seat 2 took one
    in its turn, aimed at seat 0; the last free gun goes to seat 3 (the seat after it), none to
    seats 0 and 1; seat 2 keeps its aim."""
    alarm = {"type": "play_equipment", "card": "alarm_clock", "target": 2}
    dealt = deal([["alarm_clock"], [], [], []])
    for edition in ("fourth", "classic"):
        options = {"edition": edition, "extra_equipment": True}
        table_id, tokens = started(http, options=options, deal=dealt)
        settle(http, table_id, tokens)
        send(http, table_id, tokens[0], alarm)
        act(http, table_id, tokens, 0, investigate(1, 1))
        act(http, table_id, tokens, 1, investigate(2, 1))
        if edition == "fourth":
            v = act(http, table_id, tokens, 2, investigate(3, 1))
            taken = [0, 1, 3]
        else:
            act(http, table_id, tokens, 2, {"type": "arm", "target": 0, "position": 2})
            v = act(http, table_id, tokens, 2, {"type": "aim", "target": 0})
            taken = [3]
        assert v["turn"] == 3 and v["alarms"] == []
        rang = types(v["log"]).index("alarm_rang")
        took = [e["seat"] for e in v["log"][rang:] if e["type"] == "gun_taken"]
        assert took == sorted(taken, key=lambda seat: (seat - 2) % 4)  # from seat 3 on
        guns = [s["gun"] and s["gun"]["aimed_at"] for s in v["seats"]]
        if edition == "fourth":
            assert guns == [2, 2, None, 2] and v["guns_in_centre"] == 1
        else:
            assert guns == [None, None, 0, 2] and v["guns_in_centre"] == 0
