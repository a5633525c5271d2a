"""More decisions of RULES, played through the HTTP API against the real services (the helpers
and the 4-seat deal of test_rules_decisions.py): §4 what an eliminated seat leaves and what a
revived one gives back, §6 an Investigate whose card is turned face up in its window, §10 the
arrangement's default deadline, and card positions outside 1–3, which can never be valid.

RULES §3.1's Equip from an empty deck is tested on the engine alone (tests/unit/rules/
test_turn.py): no game empties the deck (at most one card in each hand and three in play, of 14
or more)."""

from __future__ import annotations

from typing import Any

import httpx

from tests.e2e.conftest import auth, seated_table
from tests.e2e.test_rules_decisions import (
    FOUR,
    KP,
    SLOW,
    H,
    K,
    deal,
    my_view,
    others_investigate,
    send,
    settle,
    started,
    turn,
    types,
)


def refused(http: httpx.Client, table_id: str, token: str, command: dict[str, Any]) -> dict:
    """The problem a refused command is answered with (its status in ``status``)."""
    r = http.post(f"/tables/{table_id}/commands", headers=auth(token), json=command)
    assert r.status_code in (409, 422), (command, r.status_code, r.text)
    return r.json()


# --- RULES §4 ----------------------------------------------------------------------------------
def test_an_eliminated_seats_disguise_and_camera_go_to_the_deck_over_http(http):
    """RULES §4 (Decision: Disguise and Surveillance Camera in play in front of an eliminated seat
    go to the deck with its equipment; Planted Evidence stays): seat 2 has its Camera in play,
    seat 1's Disguise and seat 3's Planted Evidence in front of it; seat 0 shoots it, then revives
    it with a Defibrillator: it comes back framed still, but neither disguised nor watching."""
    equipment = [["defibrillator"], ["disguise"], ["surveillance_camera"], ["planted_evidence"]]
    table_id, tokens = started(http, deal=deal(equipment))
    send(http, table_id, tokens[2], {"type": "play_equipment", "card": "surveillance_camera"})
    send(http, table_id, tokens[1], {"type": "play_equipment", "card": "disguise", "target": 2})
    framed = {"type": "play_equipment", "card": "planted_evidence", "target": 2}
    send(http, table_id, tokens[3], framed)
    settle(http, table_id, tokens)
    turn(http, table_id, tokens, {"type": "arm", "target": 2, "position": 2})
    for seat, target in ((1, 0), (2, 3), (3, 0)):  # seat 2 is disguised
        assert my_view(http, table_id)["turn"] == seat
        turn(http, table_id, tokens, {"type": "investigate", "target": target, "position": 1})
    v = my_view(http, table_id)
    assert v["seats"][2]["in_play"] == ["surveillance_camera", "disguise", "planted_evidence"]
    assert v["deck_count"] == 19 - 4
    # when seat 0 shoots seat 2 (and passes the shoot window)
    send(http, table_id, tokens[0], {"type": "shoot"})
    send(http, table_id, tokens[0], {"type": "pass"})
    # then seat 2 is eliminated; its Camera and Disguise are in the deck, its Evidence stays
    v = my_view(http, table_id)
    assert v["seats"][2]["eliminated"] and v["window"]["kind"] == "end_of_turn"
    assert v["seats"][2]["in_play"] == ["planted_evidence"]
    assert v["deck_count"] == 19 - 4 + 2
    # when seat 0 revives it
    send(
        http, table_id, tokens[0], {"type": "play_equipment", "card": "defibrillator", "target": 2}
    )
    v = settle(http, table_id, tokens)
    assert v["turn"] == 1 and not v["seats"][2]["eliminated"]
    assert v["seats"][2]["in_play"] == ["planted_evidence"]
    assert v["deck_count"] == 19 - 4 + 2 + 1


def test_a_seat_revived_by_defibrillator_gives_its_wounded_card_back_over_http(http):
    """RULES §4 (`wounds: "card"`; Decision: a seat revived by Defibrillator gives its Wounded
    card back, it comes back unwounded): the Kingpin's seat 1, shot once, holds the Wounded card;
    seat 2's Blackmail gives its Kingpin to seat 3, so seat 1 falls at once (the card it received
    staying face down); seat 0's Defibrillator revives it, unwounded (wounded still, it would fall
    again at once)."""
    equipment = [["defibrillator"], [], ["blackmail"], []]
    options = {"wounds": "card"}
    table_id, tokens = started(http, options=options, deal=deal(equipment))
    settle(http, table_id, tokens)
    turn(http, table_id, tokens, {"type": "arm", "target": 1, "position": 2})
    others_investigate(http, table_id, tokens)
    v = turn(http, table_id, tokens, {"type": "shoot"})
    assert v["seats"][1]["wounded"] and not v["seats"][1]["eliminated"]
    turn(http, table_id, tokens, {"type": "investigate", "target": 0, "position": 1})
    # seat 2's turn: its Blackmail before its action
    blackmail = {"type": "play_equipment", "card": "blackmail", "targets": [1, 3]}
    send(http, table_id, tokens[2], blackmail | {"positions": [1, 2]})
    v = my_view(http, table_id)
    # the card seat 1 received stays face down: it fell, it was not shot (RULES §4)
    assert [c["card"] for c in v["seats"][1]["cards"]] == [None, K, K]
    assert [c["face_up"] for c in v["seats"][1]["cards"]] == [False, True, True]
    assert [c["card"] for c in v["seats"][3]["cards"]][1] == KP
    assert v["seats"][1]["eliminated"] and v["status"] == "playing"
    # seat 2 investigates; seat 0 revives seat 1 in the investigate window
    send(http, table_id, tokens[2], {"type": "investigate", "target": 0, "position": 3})
    send(
        http, table_id, tokens[0], {"type": "play_equipment", "card": "defibrillator", "target": 1}
    )
    v = settle(http, table_id, tokens)
    assert "seat_revived" in types(v["log"])
    seat1 = v["seats"][1]
    assert not seat1["eliminated"] and not seat1["wounded"]
    assert v["status"] == "playing" and v["turn"] == 3


# --- RULES §6 ----------------------------------------------------------------------------------
def test_an_investigation_whose_card_is_turned_face_up_is_chosen_again_over_http(http):
    """RULES §6 (when the card an Investigate named is turned face up in its investigate window,
    the investigator chooses again): seat 0 investigates seat 1's card 2; seat 2's Truth Serum
    turns it face up in the window; seat 0 is asked for its action again and investigates card 3
    instead."""
    equipment = [[], [], ["truth_serum"], []]
    table_id, tokens = started(http, deal=deal(equipment))
    settle(http, table_id, tokens)
    look = {"type": "investigate", "target": 1, "position": 2}
    send(http, table_id, tokens[0], look)
    serum = {"type": "play_equipment", "card": "truth_serum", "target": 1, "position": 2}
    send(http, table_id, tokens[2], serum)
    v = settle(http, table_id, tokens)
    # then the action is cancelled, seat 0 chooses again, and card 2 is no longer to be looked at
    assert v["turn"] == 0 and v["phase"] == "action" and v["turn_number"] == 1
    assert v["seats"][1]["cards"][1] | {"face_up": True, "card": K} == v["seats"][1]["cards"][1]
    cancelled = [e for e in v["log"] if e["type"] == "action_cancelled"]
    assert [(e["seat"], e["reason"]) for e in cancelled] == [(0, "impossible")]
    mine = my_view(http, table_id, tokens[0])
    assert look not in mine["legal_commands"]
    assert not [e for e in mine["log"] if e["type"] == "card_viewed"]
    # when it investigates card 3
    turn(http, table_id, tokens, {"type": "investigate", "target": 1, "position": 3})
    mine = my_view(http, table_id, tokens[0])
    viewed = [e for e in mine["log"] if e["type"] == "card_viewed"]
    assert [(e["viewer"], e["seat"], e["position"], e["card"]) for e in viewed] == [(0, 1, 3, K)]
    assert mine["turn"] == 1


# --- RULES §10 ---------------------------------------------------------------------------------
def test_the_arrangement_waits_60_seconds_by_default_over_http(http):
    """RULES §10 (defaults: 90 s for a turn, 20 s for a reaction or prompt, 60 s for the
    arrangement): a table opened without deadlines records them, and its arrangement waits 60 s."""
    r = http.post("/tables", json={"seats": 4})
    assert r.status_code == 201, r.text
    defaults = {"turn": 90.0, "reaction": 20.0, "prompt": 20.0, "arrange": 60.0}
    assert r.json()["deadlines"] == defaults
    table_id, tokens = r.json()["table_id"], []
    for i in range(4):
        r = http.post(f"/tables/{table_id}/seats", json={"name": f"p{i}"})
        tokens.append(r.json()["token"])
    r = http.post(f"/tables/{table_id}/start", headers=auth(tokens[0]))
    assert r.status_code == 200, r.text
    v = my_view(http, table_id)
    assert v["phase"] == "arrange"
    waits = v["waiting_for"]
    assert {w["seat"] for w in waits} == {0, 1, 2, 3}
    assert {(w["reason"], w["seconds"]) for w in waits} == {("arrange", 60.0)}
    send(http, table_id, tokens[0], {"type": "arrange", "positions": [1, 2, 3]})
    (wait,) = [w for w in my_view(http, table_id, tokens[0])["waiting_for"] if w["seat"] == 1]
    assert (wait["reason"], wait["seconds"]) == ("arrange", 60.0)


# --- card positions (RULES §1, §3.1, §7) -------------------------------------------------------
def test_a_position_outside_1_to_3_is_never_valid_over_http(http):
    """RULES §1 (a seat's cards lie in positions 1–3): a position outside them, in any command
    that names one (arrange, investigate, equip, arm, a card's position or positions, a prompt's
    answer), is 422 `invalid_body` naming the field, whatever the table's state; nothing is
    recorded."""
    table_id, tokens = seated_table(http, 4, deal=deal([[], [], [], []]), deadlines=SLOW)
    r = http.post(f"/tables/{table_id}/start", headers=auth(tokens[0]))
    assert r.status_code == 200, r.text
    bad = refused(http, table_id, tokens[0], {"type": "arrange", "positions": [1, 2, 4]})
    assert (bad["status"], bad["code"], bad["field"]) == (422, "invalid_body", "positions[2]")
    for t in tokens:
        send(http, table_id, t, {"type": "arrange", "positions": [1, 2, 3]})
    settle(http, table_id, tokens)
    version = my_view(http, table_id)["version"]
    commands = [
        ({"type": "investigate", "target": 1, "position": 4}, "position"),
        ({"type": "investigate", "target": 1, "position": 0}, "position"),
        ({"type": "equip", "position": 5}, "position"),
        ({"type": "arm", "target": 1, "position": -1}, "position"),
        ({"type": "play_equipment", "card": "truth_serum", "target": 1, "position": 9}, "position"),
        (
            {"type": "play_equipment", "card": "wiretap", "targets": [1, 2], "positions": [1, 7]},
            "positions[1]",
        ),
        ({"type": "choose", "position": 4}, "position"),
        ({"type": "arrange", "positions": [0, 1, 2]}, "positions[0]"),
    ]
    for command, field in commands:
        for token in (tokens[0], tokens[1]):  # the turn's seat, and a seat that may not act now
            bad = refused(http, table_id, token, command)
            assert (bad["status"], bad["code"], bad["field"]) == (422, "invalid_body", field), (
                command,
                bad,
            )
    assert my_view(http, table_id)["version"] == version


def test_a_position_a_seat_no_longer_has_is_not_now_over_http(http):
    """RULES §7.2 classic Defibrillator (the revived seat keeps one card): a position 1–3 that the
    seat no longer fills is 409 `invalid_position` ("not now"), where 4 is 422: seat 2, shot by
    seat 0 and revived by seat 3 with its card 1 alone, may not name its card 2."""
    five = [*FOUR, [H, K, H]]
    equipment = [[], [], [], ["defibrillator"], []]
    body = {"integrity": five, "equipment": equipment, "first_seat": 0}
    table_id, tokens = seated_table(
        http, 5, options={"edition": "classic"}, deal=body, deadlines=SLOW
    )
    r = http.post(f"/tables/{table_id}/start", headers=auth(tokens[0]))
    assert r.status_code == 200, r.text
    for t in tokens:
        send(http, table_id, t, {"type": "arrange", "positions": [1, 2, 3]})
    settle(http, table_id, tokens)
    turn(http, table_id, tokens, {"type": "arm", "target": 2, "position": 2})
    for seat in (1, 2, 3, 4):
        assert my_view(http, table_id)["turn"] == seat
        turn(http, table_id, tokens, {"type": "investigate", "target": 0, "position": 1})
    send(http, table_id, tokens[0], {"type": "shoot"})
    send(http, table_id, tokens[3], {"type": "pass"})  # the shoot window
    assert my_view(http, table_id)["seats"][2]["eliminated"]
    revive = {"type": "play_equipment", "card": "defibrillator", "target": 2, "position": 1}
    send(http, table_id, tokens[3], revive)  # the end-of-turn window
    settle(http, table_id, tokens)
    turn(http, table_id, tokens, {"type": "investigate", "target": 0, "position": 1})  # seat 1
    v = my_view(http, table_id, tokens[2])
    assert v["turn"] == 2 and [c["position"] for c in v["seats"][2]["cards"]] == [1]
    bad = refused(http, table_id, tokens[2], {"type": "equip", "position": 2})
    assert (bad["status"], bad["code"]) == (409, "invalid_position")
    bad = refused(http, table_id, tokens[2], {"type": "equip", "position": 4})
    assert (bad["status"], bad["code"], bad["field"]) == (422, "invalid_body", "position")
    assert {"type": "equip"} in v["legal_commands"]
