"""The public HTTP contract (docs/api.md) against the real services: auth, bad input, idempotency,
races. Every refused request leaves the table's log unchanged."""

from __future__ import annotations

import concurrent.futures
import json
import os
import subprocess
import sys
import time

import httpx

from tests.e2e.conftest import auth, seated_table

H, K, A, KP = "honest", "crooked", "agent", "kingpin"
DEAL = {
    "integrity": [[A, H, H], [KP, K, K], [H, K, H], [K, H, K]],
    "equipment": [["coffee"], ["riot_shield"], ["k9_unit"], ["med_kit"]],
    "first_seat": 0,
}


def started(http, **body):
    table_id, tokens = seated_table(http, 4, **body)
    r = http.post(f"/tables/{table_id}/start", headers=auth(tokens[0]))
    assert r.status_code == 200, r.text
    return table_id, tokens


def version(http, table_id):
    return http.get(f"/tables/{table_id}").json()["version"]


def play_setup(http, table_id, tokens):
    """Everyone keeps its order, then passes the start-of-game window."""
    for t in tokens:
        r = http.post(
            f"/tables/{table_id}/commands",
            headers=auth(t),
            json={"type": "arrange", "positions": [1, 2, 3]},
        )
        assert r.status_code == 200, r.text
    for t in tokens:
        r = http.post(f"/tables/{table_id}/commands", headers=auth(t), json={"type": "pass"})
        assert r.status_code == 200, r.text


def test_lobby_then_start_and_a_409_before_every_seat_is_taken(http):
    r = http.post("/tables", json={"seats": 5})
    table_id = r.json()["table_id"]
    assert any(t["table_id"] == table_id for t in http.get("/tables").json())
    r = http.post(f"/tables/{table_id}/seats", json={"name": "ann"})
    token = r.json()["token"]
    r = http.post(f"/tables/{table_id}/start", headers=auth(token))
    assert r.status_code == 409 and r.json()["code"] == "seats_not_filled"
    assert r.headers["content-type"].startswith("application/problem+json")
    r = http.delete(f"/tables/{table_id}/seats/0", headers=auth(token))
    assert r.status_code == 204
    assert http.get(f"/tables/{table_id}").json()["seats"][0]["name"] is None


def test_every_option_is_offered_by_default(http):
    """docs/api.md `options`, RULES §1: every edition and expansion, combined, makes a table; §4:
    the answer, the view and the listing show the wound placement in force (the edition's)."""
    options = {"edition": "classic", "zombies": True, "bombers_traitors": True}
    shown = {**options, "extra_equipment": False, "wounds": "card"}  # every option, shown
    r = http.post("/tables", json={"seats": 5, "options": options})
    assert r.status_code == 201, r.text
    assert r.json()["options"] == shown
    view = http.get(f"/tables/{r.json()['table_id']}").json()
    assert view["options"] == shown
    listed = [t for t in http.get("/tables").json() if t["table_id"] == r.json()["table_id"]]
    assert listed and listed[0]["options"] == shown
    options = {"wounds": "card", "extra_equipment": True}  # the printed fourth edition's wounds
    r = http.post("/tables", json={"seats": 4, "options": options})
    shown = {"edition": "fourth", "zombies": False, "bombers_traitors": False, **options}
    assert r.status_code == 201 and r.json()["options"] == shown, r.text


def test_options_a_server_does_not_offer_are_refused_with_422(nats_url, redis_url):
    """docs/api.md: an option the server does not offer is refused with 422 and a code, never
    silently ignored (GCBC_OPTIONS_OFFERED narrows what a server offers)."""
    from litestar.testing import TestClient

    from services.common.settings import Settings
    from services.table.app import create_app

    settings = Settings(nats_url=nats_url, redis_url=redis_url, options_offered=("zombies",))
    with TestClient(create_app(settings)) as client:
        for options, field in (
            ({"edition": "classic"}, "options.edition"),
            ({"bombers_traitors": True}, "options.bombers_traitors"),
            ({"zombies": True, "extra_equipment": True}, "options.extra_equipment"),
            # RULES §4: without `wounds` offered, only the edition's own wound placement
            ({"wounds": "card"}, "options.wounds"),
            ({"zombies": True, "wounds": "card"}, "options.wounds"),
        ):
            r = client.post("/tables", json={"seats": 4, "options": options})
            assert r.status_code == 422, (options, r.text)
            assert r.json()["code"] == "option_not_offered" and r.json()["field"] == field
        r = client.post("/tables", json={"seats": 4, "options": {"grenades": True}})
        assert r.status_code == 422, r.text  # an unknown option is not ignored either
        r = client.post("/tables", json={"seats": 4, "options": {"edition": "fifth"}})
        assert r.status_code == 422, r.text


def test_scenario_deal_validated(http):
    bad = {**DEAL, "integrity": [[A, KP, H], [H, K, K], [H, K, H], [K, H, K]]}
    r = http.post("/tables", json={"seats": 4, "deal": bad})
    assert r.status_code == 422 and r.json()["code"] == "invalid_deal"
    table_id, tokens = started(http, deal=DEAL)
    v = http.get(f"/tables/{table_id}/view", headers=auth(tokens[1])).json()
    assert [c["card"] for c in v["seats"][1]["cards"]] == [KP, K, K]
    assert v["you"]["hand"] == ["riot_shield"]
    assert all(c["card"] is None for c in v["seats"][0]["cards"])


def test_auth_matrix(http):
    table_id, tokens = started(http)
    other_table, other_tokens = started(http)
    url = f"/tables/{table_id}/commands"
    before = version(http, table_id)
    body = {"type": "arrange", "positions": [1, 2, 3]}
    r = http.post(url, json=body)
    assert r.status_code == 401 and r.json()["code"] == "unauthorized"
    r = http.post(url, json=body, headers=auth(other_tokens[0]))
    assert r.status_code == 403 and r.json()["code"] == "forbidden"
    r = http.post(url, json=body, headers=auth("not-a-token"))
    assert r.status_code == 403
    r = http.delete(f"/tables/{table_id}/seats/1", headers=auth(tokens[0]))
    assert r.status_code == 403
    # a spectator sees the public view only, and cannot act
    spectator = http.get(f"/tables/{table_id}/view").json()
    assert spectator["you"] is None and spectator["legal_commands"] == []
    assert all(c["card"] is None for s in spectator["seats"] for c in s["cards"])
    # one seat's token acts for that seat only: its view is its own
    mine = http.get(f"/tables/{table_id}/view", headers=auth(tokens[2])).json()
    assert mine["you"]["seat"] == 2
    assert version(http, table_id) == before


def test_bad_input_is_a_4xx_with_a_code_and_records_nothing(http):
    table_id, tokens = started(http)
    url = f"/tables/{table_id}/commands"
    h = {**auth(tokens[0]), "content-type": "application/json"}
    before = version(http, table_id)
    cases = [
        (b"{not json", {400, 422}),
        (b'{"type": "arrange", "positions": [1, 2, 3], "extra": 1}', {400, 422}),
        (b'{"type": "arrange", "positions": "123"}', {400, 422}),
        (b'{"type": "teleport"}', {400, 422}),
        (b'{"type": "arrange", "positions": [1, 1, 2]}', {422}),
        (b'{"type": "arrange", "positions": [1, 2, 3], "seat": 3}', {422}),
        (b'{"type": "shoot"}', {409}),
        (b"[" * 100_000, {413}),
    ]
    for body, statuses in cases:
        r = http.post(url, content=body, headers=h)
        assert r.status_code in statuses, (body[:40], r.status_code, r.text[:200])
        problem = r.json()
        assert problem["code"] and problem["detail"] is not None
    r = http.post("/tables/nope/commands", json={"type": "pass"}, headers=auth(tokens[0]))
    assert r.status_code == 404 and r.json()["code"] == "no_table"
    assert version(http, table_id) == before


def test_same_command_id_twice_records_one_event(http):
    table_id, tokens = started(http)
    body = {"type": "arrange", "positions": [2, 1, 3], "command_id": "c-1"}
    url = f"/tables/{table_id}/commands"
    first = http.post(url, json=body, headers=auth(tokens[0]))
    assert first.status_code == 200
    v1 = version(http, table_id)
    again = http.post(url, json=body, headers=auth(tokens[0]))
    assert again.status_code == 200
    assert version(http, table_id) == v1
    log = http.get(f"/tables/{table_id}/view", headers=auth(tokens[0])).json()["log"]
    assert sum(1 for e in log if e["type"] == "cards_arranged") == 1


def test_a_command_id_sent_again_with_another_command_is_refused(http):
    table_id, tokens = started(http)
    url = f"/tables/{table_id}/commands"
    body = {"type": "arrange", "positions": [2, 1, 3], "command_id": "c-2"}
    assert http.post(url, json=body, headers=auth(tokens[0])).status_code == 200
    v1 = version(http, table_id)
    other = {**body, "positions": [1, 2, 3]}
    r = http.post(url, json=other, headers=auth(tokens[0]))
    assert r.status_code == 409, r.text
    assert r.json()["code"] == "command_id_reused" and r.json()["field"] == "command_id"
    assert version(http, table_id) == v1


def test_two_commands_validated_against_the_same_state_never_both_land(http):
    """Two seats race to act where only one may: exactly one lands, the other is refused."""
    table_id, tokens = started(http, deal=DEAL)
    play_setup(http, table_id, tokens)
    # seat 0's turn: it declares a shot? It holds no gun. Race two different actions of seat 0.
    url = f"/tables/{table_id}/commands"
    bodies = [{"type": "equip", "position": 2}, {"type": "investigate", "target": 1, "position": 1}]

    def send(body):
        with httpx.Client(base_url=str(http.base_url), timeout=30) as c:
            return c.post(url, json=body, headers=auth(tokens[0]))

    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        results = list(pool.map(send, bodies))
    statuses = sorted(r.status_code for r in results)
    assert statuses[0] in (200, 202) and statuses[1] == 409, [r.text for r in results]
    log = http.get(f"/tables/{table_id}/view", headers=auth(tokens[0])).json()["log"]
    assert sum(1 for e in log if e["type"] == "action_declared") == 1


def test_long_poll_answers_on_change_and_times_out_otherwise(http):
    table_id, tokens = started(http)
    v = http.get(f"/tables/{table_id}/view", headers=auth(tokens[1])).json()
    r = http.get(
        f"/tables/{table_id}/view",
        params={"after": v["version"], "timeout": 0.3},
        headers=auth(tokens[1]),
    )
    assert r.status_code == 200 and r.json()["version"] == v["version"]

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        waiting = pool.submit(
            lambda: httpx.get(
                f"{str(http.base_url).rstrip('/')}/tables/{table_id}/view",
                params={"after": v["version"], "timeout": 10},
                headers=auth(tokens[1]),
                timeout=30,
            )
        )
        # seat 0 arranging is private: seat 1 sees no change (its long-poll must not answer)...
        http.post(
            f"/tables/{table_id}/commands",
            headers=auth(tokens[0]),
            json={"type": "arrange", "positions": [1, 2, 3]},
        )
        # ...but a chat message is public
        http.post(f"/tables/{table_id}/chat", headers=auth(tokens[0]), json={"text": "hi"})
        got = waiting.result().json()
        assert got["version"] == v["version"] + 1
        assert got["chat"] == [{"seat": 0, "text": "hi"}]


def test_chat_appears_in_every_view(http):
    table_id, tokens = started(http)
    r = http.post(
        f"/tables/{table_id}/chat", json={"text": "seat 2 is crooked"}, headers=auth(tokens[0])
    )
    assert r.status_code == 202
    v = http.get(f"/tables/{table_id}/view", params={"after": 0, "timeout": 5}).json()
    for _ in range(50):
        v = http.get(f"/tables/{table_id}").json()
        if v["chat"]:
            break
        http.get(f"/tables/{table_id}/view", params={"after": v["version"], "timeout": 1})
    assert v["chat"] == [{"seat": 0, "text": "seat 2 is crooked"}]


def test_history_only_once_the_game_is_over(http):
    table_id, _ = started(http)
    r = http.get(f"/tables/{table_id}/history")
    assert r.status_code in (404, 409) and r.json()["code"] == "not_finished_yet"


def test_openapi_is_generated(http):
    schema = http.get("/schema/openapi.json").json()
    assert "/tables/{table_id}/commands" in schema["paths"]


def test_server_sent_events_carry_each_view_change(http, stack):
    """docs/api.md: GET /stream sends one event per view change (data = the view)."""
    table_id, tokens = started(http)
    events: list[dict] = []

    def listen():
        with httpx.stream(
            "GET", f"{stack.api}/tables/{table_id}/stream", headers=auth(tokens[1]), timeout=30
        ) as r:
            assert r.status_code == 200
            assert r.headers["content-type"].startswith("text/event-stream")
            for line in r.iter_lines():
                if line.startswith("data:"):
                    events.append(json.loads(line[5:]))
                    if len(events) == 2:
                        return

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        done = pool.submit(listen)
        for _ in range(100):  # the first event (the current view) arrived
            if events:
                break
            time.sleep(0.02)
        http.post(f"/tables/{table_id}/chat", headers=auth(tokens[0]), json={"text": "sse"})
        done.result(timeout=20)
    assert events[0]["you"]["seat"] == 1
    assert events[1]["version"] > events[0]["version"]
    assert events[1]["chat"] == [{"seat": 0, "text": "sse"}]


def test_ops_rebuild_gives_byte_identical_views(http, stack):
    """The ops CLI wipes and rebuilds the read models from the stream: the same bytes."""
    table_id, tokens = started(http)
    http.post(f"/tables/{table_id}/chat", headers=auth(tokens[0]), json={"text": "x"})
    time.sleep(0.3)
    before = [http.get(f"/tables/{table_id}/view", headers=auth(t)).content for t in tokens]
    env = {**os.environ, "GCBC_NATS_URL": stack.nats_url, "GCBC_REDIS_URL": stack.redis_url}
    done = subprocess.run(
        [sys.executable, "-m", "services.ops", "rebuild", "--all", "--yes"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "rebuilt" in done.stdout
    after = [http.get(f"/tables/{table_id}/view", headers=auth(t)).content for t in tokens]
    assert after == before
    shown = subprocess.run(
        [sys.executable, "-m", "services.ops", "inspect", table_id],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert shown.returncode == 0 and "cards_dealt" in shown.stdout and "COMMAND" in shown.stdout


def test_a_stream_ends_when_its_seat_is_left_and_taken_by_someone_else(http, stack):
    """DESIGN property 3: a token acts only for its seat; after leaving, the old holder's stream
    must not carry the new holder's private view."""
    r = http.post("/tables", json={"seats": 4})
    table_id = r.json()["table_id"]
    alice = http.post(f"/tables/{table_id}/seats", json={"name": "alice"}).json()
    names: list[str] = []

    def listen():
        with httpx.stream(
            "GET", f"{stack.api}/tables/{table_id}/stream", headers=auth(alice["token"]), timeout=40
        ) as r:
            for line in r.iter_lines():
                if line.startswith("data:"):
                    names.append(json.loads(line[5:])["seats"][alice["seat"]]["name"])

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        done = pool.submit(listen)
        time.sleep(0.5)
        assert (
            http.delete(
                f"/tables/{table_id}/seats/{alice['seat']}", headers=auth(alice["token"])
            ).status_code
            == 204
        )
        bob = http.post(f"/tables/{table_id}/seats", json={"name": "bob"}).json()
        assert bob["seat"] == alice["seat"]
        done.result(timeout=30)  # the stream ended by itself
    assert names and names[0] == "alice"
    assert "bob" not in names


def test_a_long_poll_longer_than_the_most_is_cut_to_it_not_refused(http):
    """API: ``?after=V&timeout=S`` answers after S seconds at most; a long-poll waits 60 s at
    most here, and a longer one asked is cut to it (not refused)."""
    table_id = http.post("/tables", json={"seats": 4}).json()["table_id"]
    r = http.get(f"/tables/{table_id}/view", params={"after": 0, "timeout": 90})
    assert r.status_code == 200 and r.json()["version"] > 0, r.text
    r = http.get(f"/tables/{table_id}/view", params={"after": 0, "timeout": -1})
    assert r.status_code == 400 and r.json()["field"] == "timeout", r.text
