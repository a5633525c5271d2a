"""Quick play through HTTP, on the real NATS and Redis: players wait in the queue and are seated,
each as itself, at a table of matching players that starts at once; a player waits once and
never while it plays; it leaves the queue; the house's bots fill a table after the wait asked
for; a long-poll answers when the place changes; and a table service killed and started again
loses nobody's place (the queue is folded again from the log).

Each test asks for options or seat counts of its own: the session's stack has one queue."""

from __future__ import annotations

import asyncio
import secrets
import threading
import time

import httpx
import pytest
from gcbc_client import AsyncClient, Client
from gcbc_client.problems import Conflict

from tests.e2e.conftest import TEST_ENV, auth
from tools.launcher import Stack

pytestmark = pytest.mark.timeout(300)


def _player(http: httpx.Client, prefix: str = "q") -> str:
    r = http.post("/players", json={"name": f"{prefix}{secrets.token_hex(4)}"})
    assert r.status_code == 201, r.text
    return r.json()["token"]


def _problem(r: httpx.Response, status: int, code: str, field: str | None = None) -> None:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["code"] == code, r.text
    if field is not None:
        assert r.json()["field"] == field, r.text


def _seated(http: httpx.Client, token: str, timeout: float = 30) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = http.get("/queue", headers=auth(token), params={"after": 0, "timeout": 2}).json()
        if got["status"] == "seated":
            return got
        time.sleep(0.2)
    raise AssertionError(f"not seated: {got}")


def _playing(http: httpx.Client, table_id: str, token: str, timeout: float = 30) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        r = http.get(f"/tables/{table_id}/view", headers=auth(token))
        assert r.status_code == 200, r.text
        if r.json()["status"] == "playing":
            return r.json()
        time.sleep(0.2)
    raise AssertionError(f"table {table_id} never started: {r.json()}")


def test_bad_requests_are_refused_clearly(http):
    _problem(http.post("/queue", json={"seats": [4]}), 401, "unauthorized")
    _problem(http.get("/queue"), 401, "unauthorized")
    _problem(http.delete("/queue"), 401, "unauthorized")
    _problem(
        http.post("/queue", json={"seats": [4]}, headers=auth(f"{'0' * 16}.{'a' * 32}")),
        403,
        "forbidden",
    )
    token = _player(http)
    for body, field in (
        ({}, None),
        ({"seats": []}, "seats"),
        ({"seats": [3]}, None),
        ({"seats": {"min": 4, "max": 9}}, None),
        ({"seats": {"min": 6, "max": 4}}, "seats"),
        ({"seats": [4], "bots_after": -1}, None),
        ({"seats": [4], "rated": "yes"}, None),
        ({"seats": [4], "options": {"edition": "fifth"}}, None),
        ({"seats": [4], "colour": "red"}, None),
    ):
        r = http.post("/queue", json=body, headers=auth(token))
        _problem(r, 422, "invalid_body", field)
        assert r.json().get("field"), (body, r.text)
    assert http.get("/queue", headers=auth(token)).json() == {"status": "none", "version": 0}


def test_a_player_waits_once_and_leaves_the_queue(http):
    token = _player(http)
    r = http.post("/queue", json={"seats": [8], "rated": True}, headers=auth(token))
    assert r.status_code == 201, r.text
    got = r.json()
    assert got["status"] == "waiting" and got["seats"] == [8] and got["rated"] is True
    assert got["since"] > 0 and "bots_after" not in got  # none asked
    _problem(http.post("/queue", json={"seats": [4]}, headers=auth(token)), 409, "already_queued")
    # a seat taken elsewhere meanwhile would give the player two tables at once
    table = http.post("/tables", json={"seats": 4}).json()["table_id"]
    seat = http.post(f"/tables/{table}/seats", json={"name": "elsewhere"}, headers=auth(token))
    _problem(seat, 409, "already_queued")
    assert http.get("/queue", headers=auth(token)).json() == got
    assert http.get("/players/me", headers=auth(token)).json()["queue"] == got  # the same place
    r = http.delete("/queue", headers=auth(token))
    assert r.status_code == 204, r.text
    state = http.get("/queue", headers=auth(token)).json()
    assert state["status"] == "none" and state["version"] > got["version"]
    assert http.get("/players/me", headers=auth(token)).json()["queue"] is None
    _problem(http.delete("/queue", headers=auth(token)), 409, "not_queued")


def test_matching_players_are_seated_as_themselves_at_a_table_that_starts(http):
    tokens = [_player(http) for _ in range(4)]
    body = {"seats": {"min": 5, "max": 6}, "options": {"wounds": "card"}}
    first = http.post("/queue", json=body, headers=auth(tokens[0])).json()
    assert first["status"] == "waiting"
    # a long-poll on the first player's place answers once the queue seats it
    polled: dict = {}

    def poll() -> None:
        with httpx.Client(base_url=str(http.base_url), timeout=60) as other:
            polled.update(
                other.get(
                    "/queue",
                    headers=auth(tokens[0]),
                    params={"after": first["version"], "timeout": 50},
                ).json()
            )

    poller = threading.Thread(target=poll)
    poller.start()
    # a player asking other options, or other seat counts, is not matched with them
    other = _player(http)
    r = http.post(
        "/queue", json={"seats": [5], "options": {"wounds": "token"}}, headers=auth(other)
    )
    assert r.status_code == 201, r.text
    for token in tokens[1:]:
        r = http.post("/queue", json={"seats": [5, 7]}, headers=auth(token))
        assert r.status_code == 201, r.text
        assert r.json()["status"] == "waiting"  # not the same options (wounds: card)
        assert http.delete("/queue", headers=auth(token)).status_code == 204
    for token in tokens[1:]:
        r = http.post("/queue", json={**body, "seats": [5, 7]}, headers=auth(token))
        assert r.status_code == 201, r.text
    assert r.json()["status"] == "waiting"  # four: five seats are needed
    fifth = _player(http)
    r = http.post("/queue", json={**body, "seats": {"min": 4, "max": 5}}, headers=auth(fifth))
    assert r.status_code == 201, r.text
    tokens.append(fifth)
    places = [_seated(http, token) for token in tokens]
    poller.join(60)
    assert polled["status"] == "seated" and polled["table_id"] == places[0]["table_id"]
    table_id = places[0]["table_id"]
    assert {p["table_id"] for p in places} == {table_id}
    assert sorted(p["seat"] for p in places) == [0, 1, 2, 3, 4]
    # each player's token acts for its own seat: the game started by itself
    for token, place in zip(tokens, places, strict=True):
        view = _playing(http, table_id, token)
        assert view["you"]["seat"] == place["seat"]
        mine = http.get("/players/me/tables", headers=auth(token)).json()["tables"]
        assert {"table_id": table_id, "seat": place["seat"]}.items() <= mine[0].items()
    public = http.get(f"/tables/{table_id}").json()
    assert public["options"]["wounds"] == "card" and len(public["seats"]) == 5
    # one table at a time: no queue while it plays
    _problem(http.post("/queue", json=body, headers=auth(tokens[0])), 409, "already_playing")
    assert http.delete("/queue", headers=auth(other)).status_code == 204


def test_the_house_bots_fill_the_table_after_the_wait_asked_for(http):
    token = _player(http)
    body = {"seats": [4], "options": {"wounds": "card"}, "bots_after": 0}
    r = http.post("/queue", json=body, headers=auth(token))
    assert r.status_code == 201, r.text
    place = _seated(http, token)
    view = _playing(http, place["table_id"], token)
    names = [s["name"] for s in view["seats"]]
    assert sum(name.startswith("House bot") for name in names) == 3, names


@pytest.fixture
def own_stack(tmp_path):
    s = Stack(tmp_path, env=TEST_ENV).start()
    yield s
    s.stop()


def test_a_restarted_table_service_loses_nobodys_place(own_stack):
    stack = own_stack
    with httpx.Client(base_url=stack.api, timeout=30) as http:
        tokens = [_player(http) for _ in range(4)]
        body = {"seats": [4], "rated": True}
        before = []
        for token in tokens[:2]:
            r = http.post("/queue", json=body, headers=auth(token))
            assert r.status_code == 201, r.text
            before.append(r.json())
    stack.kill("table")
    stack.start_service("table")
    stack.wait_http()
    with httpx.Client(base_url=stack.api, timeout=30) as http:
        deadline = time.monotonic() + 30
        while True:
            try:
                r = http.get("/queue", headers=auth(tokens[0]))
                if r.status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "the table service did not come back"
            time.sleep(0.2)
        for token, was in zip(tokens, before, strict=False):
            assert http.get("/queue", headers=auth(token)).json() == was
        for token in tokens[2:]:
            r = http.post("/queue", json=body, headers=auth(token))
            assert r.status_code == 201, r.text
        places = [_seated(http, token) for token in tokens]
        assert len({p["table_id"] for p in places}) == 1
        assert sorted(p["seat"] for p in places) == [0, 1, 2, 3]
        _playing(http, places[0]["table_id"], tokens[0])


def test_the_typed_client_queues_waits_and_leaves(stack):
    with Client(stack.api) as client:
        player = client.register(f"c{secrets.token_hex(4)}")
        asked = player.queue([4], options={"wounds": "card"}, bots_after=0)
        assert asked.status in ("waiting", "seated")
        place = player.wait_seated(timeout=60)
        assert place.status == "seated" and place.table_id is not None
        assert player.me().queue == place  # the player's view tells where the queue seated it
        assert player.seat(place.table_id).seat == place.seat
        with pytest.raises(Conflict):
            player.queue(range(4, 6))

    async def go() -> None:
        async with AsyncClient(stack.api) as client:
            player = await client.register(f"a{secrets.token_hex(4)}")
            got = await player.queue(range(7, 9), rated=True)
            assert got.status == "waiting" and got.seats == [7, 8] and got.rated
            assert (await player.queue_state()).version == got.version
            assert (await player.me()).queue == got
            await player.leave_queue()
            assert (await player.queue_state()).status == "none"
            with pytest.raises(Conflict):
                await player.leave_queue()

    asyncio.run(go())
