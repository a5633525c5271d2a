"""The decisions of RULES about investigations, played through the HTTP API against the real
services: when the classic Surveillance Camera answers one (§7.2: the first time holders are asked
once it has resolved, only there) and the Fingerprint Kit as an investigation in every respect (§9:
Disguise blocks it, a Surveillance Camera answers it). Each checks what the views' legal_commands
offer as well as what the table accepts."""

from __future__ import annotations

from typing import Any

import httpx

from tests.e2e.conftest import auth
from tests.e2e.test_rules_decisions import (
    A,
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

CLASSIC = {"edition": "classic"}
CAMERA = "surveillance_camera"


def camera_plays(http: httpx.Client, table_id: str, token: str) -> list[tuple[int, int]]:
    """The classic camera plays the seat's view lists: (seat, position) of each card offered."""
    legal = my_view(http, table_id, token)["legal_commands"]
    return [(c["target"], c["position"]) for c in legal if c.get("card") == CAMERA]


def refused(http: httpx.Client, table_id: str, token: str, command: dict[str, Any]) -> tuple:
    """The status and code a command is refused with."""
    r = http.post(f"/tables/{table_id}/commands", headers=auth(token), json=command)
    assert r.status_code >= 400, (command, r.status_code, r.text)
    return r.status_code, r.json()["code"]


def camera(target: int, position: int) -> dict[str, Any]:
    return {"type": "play_equipment", "card": CAMERA, "target": target, "position": position}


def face_up(view: dict, seat: int, position: int) -> tuple[bool, str | None]:
    card = view["seats"][seat]["cards"][position - 1]
    return card["face_up"], card["card"]


def armed_and_shooting(http: httpx.Client, equipment: list[list[str]]) -> tuple[str, list[str]]:
    """A classic table: seat 0 arms (aiming at seat 1, turning its card 2 face up), seats 1 to 3
    investigate, and seat 0 shoots: the shoot window is open."""
    table_id, tokens = started(http, options=CLASSIC, deal=deal(equipment))
    settle(http, table_id, tokens)
    turn(http, table_id, tokens, {"type": "arm", "target": 1, "position": 2})
    others_investigate(http, table_id, tokens)
    send(http, table_id, tokens[0], {"type": "shoot"})
    v = my_view(http, table_id)
    assert v["window"]["kind"] == "shoot", v["window"]
    return table_id, tokens


# --- RULES §7.2: the classic Surveillance Camera ------------------------------------------------
def test_the_classic_camera_answers_a_wiretap_in_the_start_of_game_window_over_http(http):
    """RULES §7.2 Surveillance Camera (Decision: "right after" is the window reopened after a card
    that investigated, the start-of-game window included): seat 0 wiretaps seat 1's card 3 and
    seat 2's card 1 before the first turn; in the reopened window seat 3's view offers both, and
    seat 3 turns seat 2's card face up."""
    equipment = [["wiretap"], [], [], [CAMERA]]
    table_id, tokens = started(http, options=CLASSIC, deal=deal(equipment))
    assert camera_plays(http, table_id, tokens[3]) == []
    wiretap = {"type": "play_equipment", "card": "wiretap", "targets": [1, 2], "positions": [3, 1]}
    send(http, table_id, tokens[0], wiretap)
    assert my_view(http, table_id)["window"]["kind"] == "start_of_game"
    assert camera_plays(http, table_id, tokens[3]) == [(1, 3), (2, 1)]
    send(http, table_id, tokens[3], camera(2, 1))
    public = my_view(http, table_id)
    assert face_up(public, 2, 1) == (True, H)
    assert face_up(public, 1, 3) == (False, None)


def test_the_classic_camera_answers_a_wiretap_in_the_reopened_shoot_window_over_http(http):
    """RULES §7.2 Surveillance Camera (the window reopened after a card that investigated, in
    whatever window it was played), §6: seat 2 wiretaps seat 0's card 1 and seat 1's card 3 in seat
    0's shoot window; the reopened shoot window offers seat 3 both cards (before the turn ends),
    and its camera turns seat 1's card face up."""
    equipment = [[], [], ["wiretap"], [CAMERA]]
    table_id, tokens = armed_and_shooting(http, equipment)
    assert camera_plays(http, table_id, tokens[3]) == []
    wiretap = {"type": "play_equipment", "card": "wiretap", "targets": [0, 1], "positions": [1, 3]}
    send(http, table_id, tokens[2], wiretap)
    v = my_view(http, table_id)
    assert v["window"]["kind"] == "shoot" and v["turn"] == 0
    assert camera_plays(http, table_id, tokens[3]) == [(0, 1), (1, 3)]
    send(http, table_id, tokens[3], camera(1, 3))
    assert face_up(my_view(http, table_id), 1, 3) == (True, K)


def test_the_classic_camera_answers_a_metal_detector_there_and_not_at_the_turns_end_over_http(
    http,
):
    """RULES §7.2 Surveillance Camera (Decision: only the first time holders are asked once the
    investigation resolved): seat 2's Metal Detector in seat 0's shoot window views seat 0's card 1;
    seat 3 passes the reopened shoot window, where its camera was offered; seat 0 reconsiders and
    equips (turning its card 3 face up); in the end-of-turn window the camera is neither offered nor accepted (409)."""
    equipment = [[], [], ["metal_detector"], [CAMERA]]
    table_id, tokens = armed_and_shooting(http, equipment)
    detector = {"type": "play_equipment", "card": "metal_detector", "targets": [0]}
    send(http, table_id, tokens[2], detector | {"positions": [1]})
    assert camera_plays(http, table_id, tokens[3]) == [(0, 1)]
    send(http, table_id, tokens[3], {"type": "pass"})
    v = my_view(http, table_id, tokens[0])
    assert v["phase"] == "action" and types(v["log"])[-1] == "action_cancelled"
    v = send(http, table_id, tokens[0], {"type": "equip", "position": 3})
    if v["phase"] == "aim":
        send(http, table_id, tokens[0], {"type": "aim", "target": 1})
    v = my_view(http, table_id)
    assert v["window"]["kind"] == "end_of_turn" and v["turn"] == 0
    assert 3 in {w["seat"] for w in v["waiting_for"]}
    assert camera_plays(http, table_id, tokens[3]) == []
    assert refused(http, table_id, tokens[3], camera(0, 1)) == (409, "not_playable_now")
    assert face_up(my_view(http, table_id), 0, 1) == (False, None)


def test_the_classic_camera_answers_an_investigate_action_at_the_turns_end_only_over_http(http):
    """RULES §7.2 Surveillance Camera (Decision: the end-of-turn window after an Investigate
    action; only there): seat 0 investigates seat 1's card 2. Not in the investigate window (the
    card is not seen yet); offered and accepted in the end-of-turn window; seat 3 passes there, and
    in seat 1's turn it is neither offered nor accepted."""
    equipment = [[], [], [], [CAMERA]]
    table_id, tokens = started(http, options=CLASSIC, deal=deal(equipment))
    settle(http, table_id, tokens)
    send(http, table_id, tokens[0], {"type": "investigate", "target": 1, "position": 2})
    assert my_view(http, table_id)["window"]["kind"] == "investigate"
    assert camera_plays(http, table_id, tokens[3]) == []
    assert refused(http, table_id, tokens[3], camera(1, 2)) == (409, "not_playable_now")
    send(http, table_id, tokens[3], {"type": "pass"})
    assert my_view(http, table_id)["window"]["kind"] == "end_of_turn"
    assert camera_plays(http, table_id, tokens[3]) == [(1, 2)]
    send(http, table_id, tokens[3], {"type": "pass"})
    send(http, table_id, tokens[1], {"type": "equip", "position": 1})
    v = my_view(http, table_id)
    assert v["window"]["kind"] == "end_of_turn" and v["turn"] == 1
    assert camera_plays(http, table_id, tokens[3]) == []
    assert refused(http, table_id, tokens[3], camera(1, 2)) == (409, "not_playable_now")


def test_the_classic_camera_answers_an_investigate_action_over_http(http):
    """RULES §7.2 Surveillance Camera (the end-of-turn window after an Investigate action): seat 3
    turns the card seat 0 viewed face up for everyone."""
    equipment = [[], [], [], [CAMERA]]
    table_id, tokens = started(http, options=CLASSIC, deal=deal(equipment))
    settle(http, table_id, tokens)
    send(http, table_id, tokens[0], {"type": "investigate", "target": 1, "position": 2})
    send(http, table_id, tokens[3], {"type": "pass"})
    send(http, table_id, tokens[3], camera(1, 2))
    public = my_view(http, table_id)
    assert face_up(public, 1, 2) == (True, K)
    assert types(public["log"])[-4:-2] == ["equipment_played", "card_revealed"]


# --- RULES §9: the Fingerprint Kit is an investigation -----------------------------------------
def test_the_fingerprint_kit_is_blocked_by_disguise_and_answered_by_a_camera_over_http(http):
    """RULES §9 Fingerprint Kit (an investigation in every respect: Disguise blocks it, a
    Surveillance Camera answers it), §7.1 Disguise and Surveillance Camera: before the first turn
    seat 3 disguises seat 1 and seat 2 puts its camera in play. Seat 0's kit is not offered on
    seat 1 and refused there (409); on seat 2 it is accepted, and seat 2's camera looks back: a
    prompt to seat 2 first, which views seat 0's card 1."""
    equipment = [["fingerprint_kit"], [], [CAMERA], ["disguise"]]
    table_id, tokens = started(http, options={"extra_equipment": True}, deal=deal(equipment))
    send(http, table_id, tokens[3], {"type": "play_equipment", "card": "disguise", "target": 1})
    send(http, table_id, tokens[2], {"type": "play_equipment", "card": CAMERA})
    settle(http, table_id, tokens)
    legal = my_view(http, table_id, tokens[0])["legal_commands"]
    kits = [c for c in legal if c.get("card") == "fingerprint_kit"]
    assert kits and {c["target"] for c in kits} == {2, 3}
    kit = {"type": "play_equipment", "card": "fingerprint_kit", "target": 1, "position": 1}
    assert refused(http, table_id, tokens[0], kit) == (409, "target_disguised")
    send(http, table_id, tokens[0], kit | {"target": 2})
    v = my_view(http, table_id)
    assert [(w["seat"], w["reason"]) for w in v["waiting_for"]] == [(2, "prompt")]
    send(http, table_id, tokens[2], {"type": "choose", "position": 1})
    seat2 = my_view(http, table_id, tokens[2])
    assert seat2["seats"][0]["cards"][0]["card"] == A
    looks = [e for e in seat2["log"] if e["type"] == "card_viewed" and e["viewer"] == 2]
    assert [(e["seat"], e["position"], e["means"]) for e in looks] == [(0, 1, CAMERA)]


def test_the_classic_camera_answers_a_fingerprint_kit_over_http(http):
    """RULES §9 Fingerprint Kit (a Surveillance Camera answers it), §7.2 Surveillance Camera (the
    window reopened after a card that investigated): on a classic table with extra equipment seat 0
    fingerprints seat 1's card 2 before the first turn and declines to take the kit back; the
    reopened start-of-game window offers seat 3's camera that card, which it turns face up."""
    equipment = [["fingerprint_kit"], [], [], [CAMERA]]
    options = CLASSIC | {"extra_equipment": True}
    table_id, tokens = started(http, options=options, deal=deal(equipment))
    kit = {"type": "play_equipment", "card": "fingerprint_kit", "target": 1, "position": 2}
    send(http, table_id, tokens[0], kit)
    send(http, table_id, tokens[0], {"type": "choose"})
    assert my_view(http, table_id)["window"]["kind"] == "start_of_game"
    assert camera_plays(http, table_id, tokens[3]) == [(1, 2)]
    send(http, table_id, tokens[3], camera(1, 2))
    assert face_up(my_view(http, table_id), 1, 2) == (True, K)
