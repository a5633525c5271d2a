"""The decisions of RULES, played through the HTTP API against the real services, one
scenario table (`deal`) per RULES section touched: §3.1 investigating a card again, §4 the
`wounds` option, §6 the declared shot that stands, §7.1 Polygraph and Disguise, §7.2 the classic
Surveillance Camera, §8.1 extra equipment, §10 absence, §11 a pending Alarm Clock in the view."""

from __future__ import annotations

import time
from typing import Any

import httpx

from tests.e2e.conftest import auth, seated_table

H, K, A, KP = "honest", "crooked", "agent", "kingpin"
FOUR = [[A, H, H], [KP, K, K], [H, K, H], [K, H, K]]
# long waits, so that no deadline passes unless a test wants it to
SLOW = {"turn": 60.0, "reaction": 60.0, "prompt": 60.0, "arrange": 60.0}


def deal(equipment: list[list[str]], **extra: Any) -> dict[str, Any]:
    return {"integrity": FOUR, "equipment": equipment, "first_seat": 0, **extra}


def started(http: httpx.Client, **body: Any) -> tuple[str, list[str]]:
    """A 4-seat table, every seat taken, started, every seat keeping its order."""
    body.setdefault("deadlines", SLOW)
    table_id, tokens = seated_table(http, 4, **body)
    r = http.post(f"/tables/{table_id}/start", headers=auth(tokens[0]))
    assert r.status_code == 200, r.text
    for t in tokens:
        send(http, table_id, t, {"type": "arrange", "positions": [1, 2, 3]})
    return table_id, tokens


def send(http: httpx.Client, table_id: str, token: str, command: dict[str, Any]) -> dict:
    """A command accepted, and the sender's view once its outcome is in."""
    r = http.post(f"/tables/{table_id}/commands", headers=auth(token), json=command)
    assert r.status_code in (200, 202), (command, r.status_code, r.text)
    if r.status_code == 202:
        return my_view(http, table_id, token)
    return r.json()


def look_again(http: httpx.Client, table_id: str, token: str, command: dict[str, Any]) -> None:
    """A command sent from views that may be a step behind (a 202 answers before its outcome is
    in): a 409 says the table has moved on, and the caller looks again (docs/api.md)."""
    r = http.post(f"/tables/{table_id}/commands", headers=auth(token), json=command)
    assert r.status_code in (200, 202, 409), (command, r.status_code, r.text)


def my_view(http: httpx.Client, table_id: str, token: str | None = None) -> dict:
    headers = auth(token) if token else {}
    return http.get(f"/tables/{table_id}/view", headers=headers).json()


def settle(http: httpx.Client, table_id: str, tokens: list[str]) -> dict:
    """Every seat asked in a window passes, and a seat in its Aim phase keeps its aim, until the
    table waits for a turn's action (or a prompt). The public view then."""
    for _ in range(100):
        v = my_view(http, table_id)
        waits = v["waiting_for"]
        reasons = {w["reason"] for w in waits}
        if not waits or reasons & {"turn", "prompt"}:
            return v
        for w in waits:
            seat = w["seat"]
            mine = my_view(http, table_id, tokens[seat])
            legal = mine["legal_commands"]
            if w["reason"] == "reaction" and {"type": "pass"} in legal:
                look_again(http, table_id, tokens[seat], {"type": "pass"})
                break
            if w["reason"] == "aim":
                aim = mine["seats"][seat]["gun"]["aimed_at"]
                look_again(http, table_id, tokens[seat], {"type": "aim", "target": aim})
                break
        else:
            time.sleep(0.05)  # the outcome is on its way
    raise AssertionError(f"the table did not settle: {v['waiting_for']}")


def wait_until(http: httpx.Client, table_id: str, check, timeout: float = 20.0) -> dict:
    """The public view, once ``check(view)`` holds (long-polling for changes)."""
    deadline = time.monotonic() + timeout
    v = my_view(http, table_id)
    while not check(v):
        assert time.monotonic() < deadline, f"timed out; waiting for {v['waiting_for']}"
        params = {"after": v["version"], "timeout": 1}
        v = http.get(f"/tables/{table_id}/view", params=params).json()
    return v


def turn(http, table_id, tokens, command: dict[str, Any]) -> dict:
    """The seat whose turn it is takes ``command`` as its action; the table settles."""
    seat = my_view(http, table_id)["turn"]
    send(http, table_id, tokens[seat], command)
    return settle(http, table_id, tokens)


def others_investigate(http, table_id, tokens) -> None:
    """Seats 1, 2 and 3 each investigate the next seat's card 1 as their turn."""
    for seat in (1, 2, 3):
        assert my_view(http, table_id)["turn"] == seat
        turn(
            http, table_id, tokens, {"type": "investigate", "target": (seat + 1) % 4, "position": 1}
        )


def types(log: list[dict]) -> list[str]:
    return [e["type"] for e in log]


# --- RULES §3.1 --------------------------------------------------------------------------------
def test_a_card_already_seen_is_investigated_again_over_http(http):
    """RULES §3.1 (Decision: a card already seen may be investigated again): seat 0 looks at seat
    1's card 1 in turn 1 and again in turn 5: listed, accepted, seen twice."""
    table_id, tokens = started(http, deal=deal([[], [], [], []]))
    settle(http, table_id, tokens)
    look = {"type": "investigate", "target": 1, "position": 1}
    turn(http, table_id, tokens, look)
    for seat in (1, 2, 3):
        turn(http, table_id, tokens, {"type": "investigate", "target": 0, "position": seat})
    mine = my_view(http, table_id, tokens[0])
    assert mine["turn"] == 0 and mine["seats"][1]["cards"][0]["card"] == KP
    assert look in mine["legal_commands"]
    turn(http, table_id, tokens, look)
    mine = my_view(http, table_id, tokens[0])
    viewed = [e for e in mine["log"] if e["type"] == "card_viewed" and e["viewer"] == 0]
    assert [(e["seat"], e["position"], e["card"]) for e in viewed] == [(1, 1, KP), (1, 1, KP)]


# --- RULES §4 ----------------------------------------------------------------------------------
def test_the_wounds_option_over_http(http):
    """RULES §4 (`wounds`: any edition with either; `{"edition": "fourth", "wounds": "card"}` is
    the printed fourth edition), docs/api.md `options`: the table answers and shows the value in
    force (the edition's default when not given); shot, the Kingpin's seat holds the Wounded card,
    and no card carries a token."""
    r = http.post("/tables", json={"seats": 4, "options": {"edition": "classic"}})
    assert r.status_code == 201 and r.json()["options"] == {
        "edition": "classic",
        "zombies": False,
        "bombers_traitors": False,
        "extra_equipment": False,
        "wounds": "card",
    }
    options = {"wounds": "card"}
    table_id, tokens = started(http, options=options, deal=deal([[], [], [], []]))
    v = settle(http, table_id, tokens)
    assert v["options"]["edition"] == "fourth"  # the default, shown as every option is
    assert v["options"]["wounds"] == "card"
    turn(http, table_id, tokens, {"type": "arm", "target": 1, "position": 2})
    others_investigate(http, table_id, tokens)
    v = turn(http, table_id, tokens, {"type": "shoot"})
    kingpin = v["seats"][1]
    assert kingpin["wounded"] and not kingpin["eliminated"]
    assert [c["wounded"] for c in kingpin["cards"]] == [False, False, False]
    assert v["status"] == "playing"


# --- RULES §6 ----------------------------------------------------------------------------------
def test_the_declared_shot_stands_when_the_deadline_passes_over_http(http):
    """RULES §6 (Decision: the declared shot stands): seat 0 shoots the Kingpin; seat 2 plays a
    Coffee in the shoot window; seat 0, asked again, lets its 5-second turn deadline pass: the shot
    resolves at the Kingpin, without a new window."""
    deadlines = {**SLOW, "turn": 5.0}  # every turn's: room enough for the turns played before
    equipment = [[], [], ["coffee"], []]
    table_id, tokens = started(http, deal=deal(equipment), deadlines=deadlines)
    settle(http, table_id, tokens)
    turn(http, table_id, tokens, {"type": "arm", "target": 1, "position": 2})
    others_investigate(http, table_id, tokens)
    send(http, table_id, tokens[0], {"type": "shoot"})
    send(http, table_id, tokens[2], {"type": "play_equipment", "card": "coffee"})
    v = my_view(http, table_id, tokens[0])
    assert v["turn"] == 0 and v["phase"] == "action" and v["seats"][0]["gun"] is not None
    assert types(v["log"])[-1] == "action_cancelled"
    # when seat 0 lets its deadline pass
    v = wait_until(http, table_id, lambda v: v["seats"][1]["wounded"])
    # then the declared shot stood
    log = v["log"]
    stands = [e for e in log if e["type"] == "action_declared" and e.get("stands")]
    assert stands == [
        {"type": "action_declared", "seat": 0, "action": "shoot", "target": 1, "stands": True}
        | {"v": stands[0]["v"]}
    ]
    after = log[log.index(stands[0]) :]
    assert types(after)[:3] == ["action_declared", "seat_shot", "card_revealed"]
    assert "window_opened" not in types(after[: types(after).index("seat_shot")])


# --- RULES §7.1 and §7.2 -----------------------------------------------------------------------
def test_polygraph_by_a_disguised_seat_over_http(http):
    """RULES §7.1 Polygraph (if you are protected by Disguise, it sees none of yours; you still see
    all of its): seat 3 disguises seat 0 before the first turn; seat 0's Polygraph on seat 1."""
    equipment = [["polygraph"], [], [], ["disguise"]]
    table_id, tokens = started(http, deal=deal(equipment))
    send(http, table_id, tokens[3], {"type": "play_equipment", "card": "disguise", "target": 0})
    settle(http, table_id, tokens)
    send(http, table_id, tokens[0], {"type": "play_equipment", "card": "polygraph", "target": 1})
    seat1 = my_view(http, table_id, tokens[1])
    assert [c["card"] for c in seat1["seats"][0]["cards"]] == [None, None, None]
    seat0 = my_view(http, table_id, tokens[0])
    assert [c["card"] for c in seat0["seats"][1]["cards"]] == [KP, K, K]


def test_the_classic_camera_picks_the_viewed_card_over_http(http):
    """RULES §7.2 Surveillance Camera (any investigation counts: Wiretap; the owner picks which
    viewed card when several were): on a classic table seat 0 wiretaps seat 1's card 3 and seat
    2's card 1, then equips; seat 3 turns seat 2's card face up."""
    equipment = [["wiretap"], [], [], ["surveillance_camera"]]
    table_id, tokens = started(http, options={"edition": "classic"}, deal=deal(equipment))
    settle(http, table_id, tokens)
    wiretap = {"type": "play_equipment", "card": "wiretap", "targets": [1, 2], "positions": [3, 1]}
    send(http, table_id, tokens[0], wiretap)
    send(http, table_id, tokens[0], {"type": "equip", "position": 2})
    mine = my_view(http, table_id, tokens[3])
    plays = [c for c in mine["legal_commands"] if c.get("card") == "surveillance_camera"]
    assert [(c["target"], c["position"]) for c in plays] == [(1, 3), (2, 1)]
    send(http, table_id, tokens[3], plays[1])
    public = my_view(http, table_id)
    assert public["seats"][2]["cards"][0] == public["seats"][2]["cards"][0] | {
        "face_up": True,
        "card": H,
    }
    assert not public["seats"][1]["cards"][2]["face_up"]


# --- RULES §8.1 --------------------------------------------------------------------------------
def test_extra_equipment_deals_the_bombers_traitors_cards_over_http(http):
    """RULES §8.1 (extra equipment adds Classified Orders, Fake ID, Fingerprint Kit and Holster
    when Bombers & Traitors is off; deal validation follows): a scenario deal handing them out is
    accepted with extra equipment, refused (422 invalid_deal) without."""
    equipment = [["classified_orders"], ["fake_id"], ["fingerprint_kit"], ["holster"]]
    r = http.post("/tables", json={"seats": 4, "deal": deal(equipment)})
    assert r.status_code == 422 and r.json()["code"] == "invalid_deal"
    extra = {"extra_equipment": True}
    table_id, tokens = started(http, options=extra, deal=deal(equipment))
    v = my_view(http, table_id, tokens[2])
    assert v["you"]["hand"] == ["fingerprint_kit"] and v["deck_count"] == 29 - 4


# --- RULES §10 ---------------------------------------------------------------------------------
def test_missed_reaction_windows_make_a_seat_absent_and_a_command_brings_it_back(http):
    """RULES §10 (every missed deadline counts, a reaction window's too; any command the absent
    seat sends brings it back; `absent` is public): seat 3, the only holder, lets three windows run
    out (0.5 s each); it is absent; then it switches auto-pass on and is back."""
    deadlines = {**SLOW, "reaction": 0.5}
    table_id, tokens = started(http, deal=deal([[], [], [], ["coffee"]]), deadlines=deadlines)
    wait_until(http, table_id, lambda v: v["phase"] == "action")  # the start-of-game window
    send(http, table_id, tokens[0], {"type": "investigate", "target": 1, "position": 1})
    v = wait_until(http, table_id, lambda v: v["seats"][3]["absent"])
    assert v["turn"] == 1  # the start-of-game, investigate and end-of-turn windows: three misses
    away = my_view(http, table_id, tokens[3])
    assert away["legal_commands"] == [] and not away["must_act"]  # the autopilot acts for it
    assert away["seat_commands"] == [{"type": "set_auto_pass", "enabled": True}, {"type": "resume"}]
    v = send(http, table_id, tokens[3], {"type": "set_auto_pass", "enabled": True})
    assert not v["seats"][3]["absent"] and v["you"]["auto_pass"]
    assert not my_view(http, table_id)["seats"][3]["absent"]


# --- RULES §11 (views) -------------------------------------------------------------------------
def test_a_pending_alarm_clock_is_in_every_view_over_http(http):
    """RULES §8.1 Alarm Clock, §11 (public: every played card and its public effect): seat 0 sets
    it on seat 2; the public view and every seat's view show it in `alarms`."""
    equipment = [["alarm_clock"], [], [], []]
    table_id, tokens = started(http, options={"extra_equipment": True}, deal=deal(equipment))
    settle(http, table_id, tokens)
    send(http, table_id, tokens[0], {"type": "play_equipment", "card": "alarm_clock", "target": 2})
    expected = [{"seat": 2, "set_by": 0, "turn": 1}]
    assert my_view(http, table_id)["alarms"] == expected
    for t in tokens:
        assert my_view(http, table_id, t)["alarms"] == expected
