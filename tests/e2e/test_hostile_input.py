"""A hostile client against the real services (DESIGN properties 3 and 7): ids that
are not the server's own, chosen seeds, floods of chat, streams and requests, odd bodies, and
dependencies that go away. Each probe is a regression test of a defect seen from outside; every
view a probe receives passes the leak audit (tests/e2e/audit.py)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import nats
import pytest
import redis

from gcbc.eventlog.jetstream import JetStreamEventLog
from gcbc_contract.entries import decode_entry
from gcbc_contract.events import GameStarted
from services.table.positions import Positions
from tests.e2e.audit import check_response, log_events, seat_of
from tests.e2e.conftest import TEST_ENV, auth, from_address, seated_table
from tools.demo import play_table
from tools.launcher import Stack

HOSTILE_IDS = [
    "*",
    ">",
    "%2A",
    "a%20b",
    "a%01b",
    "a.b",
    "..%2F..",
    "a%00b",
    "%C3%A9",
    "abc",
    "0123456789abcdef%0A",  # the server's own form, and a newline
    "0123456789ABCDEF",
]
ROUTES = [
    ("GET", "/tables/{id}"),
    ("GET", "/tables/{id}/view"),
    ("GET", "/tables/{id}/stream"),
    ("GET", "/tables/{id}/history"),
    ("POST", "/tables/{id}/seats"),
    ("POST", "/tables/{id}/start"),
    ("POST", "/tables/{id}/commands"),
    ("POST", "/tables/{id}/chat"),
    ("DELETE", "/tables/{id}/seats/0"),
]


@pytest.fixture
def own_stack(tmp_path: Path) -> Iterator[Callable[..., Stack]]:
    """Stacks of their own (own NATS and Redis), with the limits a test sets."""
    stacks: list[Stack] = []

    def start(scenarios: bool = False, **env: str) -> Stack:
        s = Stack(tmp_path / f"stack{len(stacks)}", allow_scenarios=scenarios, env=env)
        stacks.append(s)
        return s.start()

    yield start
    for s in stacks:
        s.stop()


def audit_all(nats_url: str, table_id: str, bodies: list[bytes]) -> int:
    events = log_events(nats_url, table_id)
    for body in bodies:
        check_response(events, seat_of(body), body)
    return len(bodies)


# --- 1. a table id is the server's own, never a subject token -----------------------------------
def test_ids_that_are_not_the_servers_own_name_no_table_on_every_route(http, stack):
    """Before: GET /tables/*/history folded every table's entries into one and, once that fold
    reached `finished`, served the cards dealt at tables still in play; odd ids answered 500."""
    finished = asyncio.run(play_table(stack.api, 4, "random", seed=3))
    playing, tokens = seated_table(http, 4)
    assert http.post(f"/tables/{playing}/start", headers=auth(tokens[0])).status_code == 200
    for hostile in HOSTILE_IDS:
        for method, route in ROUTES:
            r = http.request(method, route.format(id=hostile), json={"type": "pass"})
            assert r.status_code == 404, (method, route, hostile, r.text)
            assert r.headers["content-type"].startswith("application/problem+json")
            assert r.json()["code"] in ("no_table", "not_found"), r.text
    assert http.get(f"/tables/{finished}/history").status_code == 200
    views = [http.get(f"/tables/{playing}/view", headers=auth(t)).content for t in tokens]
    assert audit_all(stack.nats_url, playing, views) == 4


def test_a_long_poll_shows_nothing_to_a_seat_left_while_it_waited(http, stack):
    """Before: a player who left while its long-poll waited got the view of the seat's next
    holder (cards, team, hand) when the wait ended."""
    table_id = http.post("/tables", json={"seats": 4}).json()["table_id"]
    eve = http.post(f"/tables/{table_id}/seats", json={"name": "eve"}).json()
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        waiting = pool.submit(
            httpx.get,
            f"{stack.api}/tables/{table_id}/view",
            params={"after": 10**6, "timeout": 6},
            headers=auth(eve["token"]),
            timeout=30,
        )
        time.sleep(0.5)
        r = http.delete(f"/tables/{table_id}/seats/{eve['seat']}", headers=auth(eve["token"]))
        assert r.status_code == 204, r.text
        tokens = [
            http.post(f"/tables/{table_id}/seats", json={"name": f"p{i}"}).json()["token"]
            for i in range(4)
        ]
        assert http.post(f"/tables/{table_id}/start", headers=auth(tokens[0])).status_code == 200
        r = waiting.result(timeout=30)
    assert r.status_code == 403 and r.json()["code"] == "forbidden", r.text


# --- 2. the deal is the server's secret --------------------------------------------------------
def test_a_client_cannot_choose_the_seed_and_the_server_seed_stays_secret(own_stack):
    """Before: POST /tables {"seed": …} was accepted anywhere, so the creator could compute
    every seat's cards offline."""
    s = own_stack()
    with httpx.Client(base_url=s.api, timeout=30) as http:
        for body, field in (
            ({"seats": 4, "seed": 5}, "seed"),
            ({"seats": 4, "deal": {"integrity": [["agent", "honest", "honest"]]}}, "deal"),
        ):
            r = http.post("/tables", json=body)
            assert r.status_code == 403, r.text
            assert r.json()["code"] == "scenarios_not_allowed" and r.json()["field"] == field
        table_id, tokens = seated_table(http, 4)
        listed = [t for t in http.get("/tables").json() if t["table_id"] == table_id]
        assert listed and listed[0]["seeded"] is False
        assert http.post(f"/tables/{table_id}/start", headers=auth(tokens[0])).status_code == 200
        seed = next(e for e in log_events(s.nats_url, table_id) if isinstance(e, GameStarted))
        bodies = [http.get(f"/tables/{table_id}").content]
        bodies += [http.get(f"/tables/{table_id}/view", headers=auth(t)).content for t in tokens]
        for body in bodies:
            assert b'"seeded":false' in body
            assert str(seed.random_seed).encode() not in body  # secret until the end
        assert http.get(f"/tables/{table_id}/history").json()["code"] == "not_finished_yet"
        audit_all(s.nats_url, table_id, bodies)


def test_a_scenario_table_says_it_is_seeded_in_the_lobby_and_every_view(http):
    r = http.post("/tables", json={"seats": 4, "seed": 11})
    assert r.status_code == 201, r.text
    table_id = r.json()["table_id"]
    token = http.post(f"/tables/{table_id}/seats", json={"name": "ann"}).json()["token"]
    assert http.get(f"/tables/{table_id}").json()["seeded"] is True
    assert http.get(f"/tables/{table_id}/view", headers=auth(token)).json()["seeded"] is True
    page = http.get("/tables", params={"limit": 200})
    while not any(t["table_id"] == table_id for t in page.json()):
        assert "next" in page.links, "the table is not listed"
        page = http.get(page.links["next"]["url"])
    assert next(t for t in page.json() if t["table_id"] == table_id)["seeded"] is True


# --- 3. chat: bounded in views, per seat, per table ---------------------------------------------
def test_chat_floods_cost_the_flooder_not_the_views(own_stack):
    """Before: every view carried the whole chat (3,000 messages made each view 1 MB) and a
    flood from one seat stalled every table."""
    s = own_stack(
        **{
            **_quiet(),
            "GCBC_CHAT_LIMIT": "5",
            "GCBC_CHAT_PER_SEAT": "4",
            "GCBC_RATE_CHAT": "6/minute",
        }
    )
    with httpx.Client(base_url=s.api, timeout=30) as http:
        table_id, tokens = seated_table(http, 4)
        url = f"/tables/{table_id}/chat"
        for i in range(4):
            r = http.post(url, headers=auth(tokens[0]), json={"text": f"a{i}"})
            assert r.status_code == 202, r.text
        _until(lambda: len(log_chat(s, table_id)) == 4)
        r = http.post(url, headers=auth(tokens[0]), json={"text": "a seat's fifth"})
        assert r.status_code == 409 and r.json()["code"] == "chat_full", r.text
        r = http.post(url, headers=auth(tokens[0]), json={"text": "its sixth"})
        assert r.status_code == 409  # refused, and still counted by the rate limit:
        r = http.post(url, headers=auth(tokens[0]), json={"text": "its seventh"})
        assert r.status_code == 429 and r.json()["code"] == "rate_limited", r.text
        assert int(r.headers["retry-after"]) >= 1
        r = http.post(url, headers=auth(tokens[1]), json={"text": "bell\a"})
        assert r.status_code == 422 and r.json()["code"] == "bad_text"
        for i in range(3):
            r = http.post(url, headers=auth(tokens[1]), json={"text": f"b{i}"})
            assert r.status_code == 202, r.text
        v = _until(lambda: _chat_view(http, table_id, ["b0", "b1", "b2"]))
        assert [m["text"] for m in v["chat"]] == ["a2", "a3", "b0", "b1", "b2"]  # the last 5
        assert log_chat(s, table_id) == ["a0", "a1", "a2", "a3", "b0", "b1", "b2"]


def log_chat(s: Stack, table_id: str) -> list[str]:
    return [e.text for e in log_events(s.nats_url, table_id) if type(e).__name__ == "ChatPosted"]


def _chat_view(http: httpx.Client, table_id: str, tail: list[str]) -> dict | None:
    v = http.get(f"/tables/{table_id}").json()
    return v if [m["text"] for m in v["chat"]][-len(tail) :] == tail else None


# --- 4. streams and long-polls are capped ------------------------------------------------------
def test_streams_and_long_polls_are_capped_per_table_and_per_client(own_stack):
    """Before: 400 public streams on one table took the table service from 85 MB to 1.93 GB."""
    s = own_stack(
        **{
            **_quiet(),
            "GCBC_STREAMS_PER_TABLE": "3",
            "GCBC_STREAMS_PER_SEAT": "1",
            "GCBC_STREAMS_PER_CLIENT": "7",
        }
    )
    with httpx.Client(base_url=s.api, timeout=30) as http:
        one = http.post("/tables", json={"seats": 4}).json()["table_id"]
        player = http.post(f"/tables/{one}/seats", json={"name": "ann"}).json()["token"]
        two = http.post("/tables", json={"seats": 4}).json()["table_id"]
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            first = [_open_stream(s, one) for _ in range(3)]
            r = http.get(f"/tables/{one}/stream")
            assert r.status_code == 429 and r.json()["code"] == "too_many_streams", r.text
            assert int(r.headers["retry-after"]) >= 1
            r = http.get(f"/tables/{one}/view", params={"after": 10**6, "timeout": 5})
            assert r.status_code == 429  # a long-poll is a watcher too
            assert http.get(f"/tables/{one}/view").status_code == 200  # a plain read is not
            # spectators never crowd a player out: a seat has places of its own …
            mine = _open_stream(s, one, token=player)
            r = http.get(f"/tables/{one}/stream", headers=auth(player))
            assert r.status_code == 429, "… as many as GCBC_STREAMS_PER_SEAT"
            second = [_open_stream(s, two) for _ in range(3)]
            r = http.get(f"/tables/{two}/stream")
            assert r.status_code == 429, "the client's eighth place is taken"
            r = http.get("/lobby/stream")
            assert r.status_code == 429, "a lobby stream takes one of the client's places too"
            queued = http.post("/players", json={"name": "queuer"}).json()
            r = http.get("/queue", headers=auth(queued["token"]), params={"after": 0, "timeout": 5})
            assert r.status_code == 429, "so does a long-poll of one's place in the queue"
            assert http.get("/queue", headers=auth(queued["token"])).status_code == 200  # a read
            r = http.get(f"/players/{queued['player_id']}/games/export")
            assert r.status_code == 429, "and a download of a player's games (it may be paced)"
            second.append(mine)
            first.pop().close()  # a closed stream gives its place back
            _until(lambda: _open_stream(s, one, fail=False))
            for stream in first + second:
                stream.close()
            del pool


class _Stream:
    def __init__(self, client: httpx.Client, response: httpx.Response) -> None:
        self.client, self.response = client, response
        self.lines = response.iter_lines()  # held: a dropped iterator closes the connection
        next(self.lines)  # the first event: the stream is open

    def close(self) -> None:
        self.response.close()
        self.client.close()


def _open_stream(
    s: Stack, table_id: str, fail: bool = True, token: str | None = None
) -> _Stream | None:
    client = httpx.Client(base_url=s.api, timeout=30, headers=auth(token) if token else None)
    response = client.send(client.build_request("GET", f"/tables/{table_id}/stream"), stream=True)
    if response.status_code != 200:
        client.close()
        assert not fail, response.status_code
        return None
    return _Stream(client, response)


# --- 5. rates, lobby expiry, pages --------------------------------------------------------------
def test_creating_tables_taking_seats_and_commands_are_rate_limited(own_stack):
    """Before: one client created 500–600 tables/s."""
    s = own_stack(
        GCBC_RATE_CREATE="3/minute",
        GCBC_RATE_SEAT="5/minute",
        GCBC_RATE_COMMAND="3/minute",
        GCBC_RATE_REGISTER="2/minute",
        GCBC_RATE_TOKEN="2/minute",
        GCBC_RATE_PRESENCE="2/minute",
    )
    with httpx.Client(base_url=s.api, timeout=30) as http:
        players = [http.post("/players", json={"name": f"rated{i}"}) for i in range(3)]
        assert [r.status_code for r in players] == [201, 201, 429]
        assert players[2].json()["code"] == "rate_limited"
        # each token reissued is an entry of the player's log: counted per player
        token, reissued = players[0].json()["token"], []
        for _ in range(3):
            r = http.post("/players/me/token", headers=auth(token))
            reissued.append(r.status_code)
            token = r.json()["token"] if r.status_code == 201 else token
        assert reissued == [201, 201, 429]
        assert http.get("/players/me", headers=auth(token)).status_code == 200
        other = http.post("/players/me/token", headers=auth(players[1].json()["token"]))
        assert other.status_code == 201, "another player has its own budget"
        ids = [http.post("/tables", json={"seats": 4}) for _ in range(4)]
        assert [r.status_code for r in ids] == [201, 201, 201, 429]
        assert ids[3].headers["content-type"].startswith("application/problem+json")
        assert int(ids[3].headers["retry-after"]) >= 1
        table_id = ids[0].json()["table_id"]
        seats = [http.post(f"/tables/{table_id}/seats", json={"name": f"p{i}"}) for i in range(6)]
        assert [r.status_code for r in seats[:5]] == [201] * 4 + [409]  # full, still counted
        assert seats[5].status_code == 429 and seats[5].json()["code"] == "rate_limited"
        tokens = [r.json()["token"] for r in seats[:4]]
        assert http.post(f"/tables/{table_id}/start", headers=auth(tokens[0])).status_code == 200
        url = f"/tables/{table_id}/commands"
        statuses = [
            http.post(url, headers=auth(tokens[1]), json={"type": "shoot"}).status_code
            for _ in range(4)
        ]
        assert statuses == [409, 409, 409, 429]  # refused or not, each one counts
        r = http.post(
            url, headers=auth(tokens[2]), json={"type": "arrange", "positions": [1, 2, 3]}
        )
        assert r.status_code == 200, "another seat has its own budget"
        # auto-pass changes and leaving a game are logged and move nothing: a budget of their own
        toggles = [
            http.post(
                url, headers=auth(tokens[3]), json={"type": "set_auto_pass", "enabled": on}
            ).status_code
            for on in (True, False, True)
        ]
        assert toggles == [200, 200, 429], toggles
        r = http.delete(f"/tables/{table_id}/seats/3", headers=auth(tokens[3]))
        assert r.status_code == 429 and r.json()["code"] == "rate_limited", r.text
    # a seat's budgets are its holder's: a seat left and taken again is not the next taker's
    # spent (a stranger spent the seat's hour of auto-pass changes in the lobby, then left it)
    lobby = ids[1].json()["table_id"]
    for n, expected in ((2, [409, 409, 429]), (3, [409])):
        with from_address(s, n) as taker:
            token = taker.post(f"/tables/{lobby}/seats", json={"name": f"taker{n}"}).json()["token"]
            assert _auto_pass_turned(taker, lobby, [token] * len(expected)) == expected
            assert taker.delete(f"/tables/{lobby}/seats/0", headers=auth(token)).status_code == 204
    # ... and one budget, whichever of its player's tokens acts for it
    player_token = other.json()["token"]
    lobby = ids[2].json()["table_id"]
    with from_address(s, 4) as taker:
        r = taker.post(
            f"/tables/{lobby}/seats", json={"name": "rated1"}, headers=auth(player_token)
        )
        tokens = [r.json()["token"], player_token, r.json()["token"]]
        assert _auto_pass_turned(taker, lobby, tokens) == [409, 409, 429]


def _auto_pass_turned(http: httpx.Client, table_id: str, tokens: list[str]) -> list[int]:
    """Each token asks to turn its seat's auto-pass on: the statuses."""
    return [
        http.post(
            f"/tables/{table_id}/commands",
            headers=auth(token),
            json={"type": "set_auto_pass", "enabled": True},
        ).status_code
        for token in tokens
    ]


def test_chat_at_a_finished_table_counts_as_a_read_of_its_log(own_stack):
    """Before: the rules worker keeps no finished table, so each message posted there had it
    read the table's log again (past a snapshot's size, the whole log): 56 addresses chatting at
    their budget at finished tables made it 25 times slower for everyone, and NATS grew by
    gigabytes. A message at a finished table now counts against the address's log reads."""
    s = own_stack(GCBC_RATE_LOG_READ="2/hour")
    with httpx.Client(base_url=s.api, timeout=30) as http:
        table_id, tokens = seated_table(http)
        chat = f"/tables/{table_id}/chat"
        assert http.post(chat, headers=auth(tokens[0]), json={"text": "gl"}).status_code == 202
        assert http.post(f"/tables/{table_id}/start", headers=auth(tokens[0])).status_code == 200
        assert http.post(chat, headers=auth(tokens[1]), json={"text": "hf"}).status_code == 202
        for seat, token in enumerate(tokens):  # the autopilot plays the game out at once
            http.delete(f"/tables/{table_id}/seats/{seat}", headers=auth(token))
        for _ in range(200):
            if http.get(f"/tables/{table_id}/view").json()["status"] == "finished":
                break
            time.sleep(0.1)
        posted = [
            http.post(chat, headers=auth(tokens[i]), json={"text": "gg"}).status_code
            for i in range(3)
        ]
        assert posted == [202, 202, 429], posted


def test_games_started_are_rate_limited_per_address(own_stack):
    """Before: one address opened a table, took its four seats, started it and left every seat
    (the autopilot then plays it out at once): a game's whole log, kept for good, every four
    seconds. A start and a place asked in quick play count against its games started; one
    refused (the table not full) does not."""
    s = own_stack(GCBC_RATE_START="1/hour")
    with httpx.Client(base_url=s.api, timeout=30) as http:
        table_id = http.post("/tables", json={"seats": 4}).json()["table_id"]
        token = http.post(f"/tables/{table_id}/seats", json={"name": "early"}).json()["token"]
        early = http.post(f"/tables/{table_id}/start", headers=auth(token))
        assert early.status_code == 409, early.text
        started = []
        for _ in range(2):
            table_id = http.post("/tables", json={"seats": 4}).json()["table_id"]
            seats = [
                http.post(f"/tables/{table_id}/seats", json={"name": f"p{i}"}) for i in range(4)
            ]
            token = seats[0].json()["token"]
            started.append(http.post(f"/tables/{table_id}/start", headers=auth(token)))
        assert [r.status_code for r in started] == [200, 429]
        assert started[1].json()["code"] == "rate_limited"
        assert int(started[1].headers["retry-after"]) >= 1
        player = http.post("/players", json={"name": "queued"}).json()
        r = http.post("/queue", json={"seats": [4]}, headers=auth(player["token"]))
        assert r.status_code == 429 and r.json()["code"] == "rate_limited", r.text


def test_a_table_nobody_starts_closes_and_leaves_the_lobby(own_stack):
    s = own_stack(GCBC_LOBBY_TTL="3")
    with httpx.Client(base_url=s.api, timeout=30) as http:
        table_id = http.post("/tables", json={"seats": 4}).json()["table_id"]
        r = http.post(f"/tables/{table_id}/seats", json={"name": "ann"})
        assert r.status_code == 201, r.text
        token = r.json()["token"]
        v = _until(
            lambda: (x := http.get(f"/tables/{table_id}").json())["status"] == "finished" and x
        )
        assert v["winners"] == [] and v["win_reason"] == "closed_not_started"
        assert all(t["table_id"] != table_id for t in http.get("/tables").json())
        r = http.post(f"/tables/{table_id}/seats", json={"name": "bob"})
        assert r.status_code == 409 and r.json()["code"] == "game_already_started"
        r = http.post(f"/tables/{table_id}/start", headers=auth(token))
        assert r.status_code == 409
        # nothing to play again: a rematch would keep seats nobody holds, and never start
        r = http.post(f"/tables/{table_id}/rematch", headers=auth(token))
        assert r.status_code == 409 and r.json()["code"] == "game_not_started", r.text


def test_the_lobby_is_listed_in_pages(http):
    mine = [http.post("/tables", json={"seats": 5}).json()["table_id"] for _ in range(5)]
    r = http.get("/tables", params={"limit": 2})
    seen, pages = [], 0
    while True:
        assert r.status_code == 200 and len(r.json()) <= 2
        seen += [t["table_id"] for t in r.json()]
        pages += 1
        if "next" not in r.links:
            break
        r = http.get(r.links["next"]["url"])
    assert [t for t in seen if t in mine] == mine  # oldest first, each once
    assert len(seen) == len(set(seen)) and pages >= 3
    for limit in (0, 201):
        r = http.get("/tables", params={"limit": limit})
        assert r.status_code == 400 and r.json()["code"] == "invalid_parameter", r.text


@pytest.mark.parametrize(
    ("query", "field", "said"),
    [
        ("limt=2", "limt", "it takes: after, limit"),  # a misspelt name is not ignored
        ("=", "", "not a query parameter"),
        ("limit=2&limit=3", "limit", "given 2 times"),  # nor is one of two values kept
        ("after=1e5", "after", "whole number"),  # nor a float read as a whole number
        ("limit=+5", "limit", "whole number"),
        ("limit=", "limit", "whole number"),
    ],
)
def test_a_query_names_its_operation_s_parameters_each_once_in_digits(http, query, field, said):
    r = http.get(f"/tables?{query}")
    assert r.status_code == 400, r.text
    assert (r.json()["code"], r.json()["field"]) == ("invalid_parameter", field)
    assert said in r.json()["detail"]
    assert http.get("/tables?limit=2&after=0").status_code == 200
    assert http.get("/?player=x").status_code == 200  # the web pages are not the API's
    assert http.get("/problems/no_table?utm_source=x").status_code == 200  # nor its problems' pages


@pytest.mark.parametrize(
    ("timeout", "status"), [("inf", 400), ("0x1", 400), ("0.5", 200), ("5e-1", 200)]
)
def test_a_query_s_number_is_written_as_json_writes_one(http, timeout, status):
    table_id = http.post("/tables", json={"seats": 5}).json()["table_id"]
    r = http.get(f"/tables/{table_id}/view?after=1&timeout={timeout}")
    assert r.status_code == status, r.text
    if status == 400:
        assert (r.json()["field"], r.json()["detail"]) == (
            "timeout",
            f"'timeout' is a number as JSON writes one (not {timeout!r})",
        )


# --- 6. honest answers when a dependency fails --------------------------------------------------
def test_with_redis_away_reads_are_503_and_a_recorded_command_is_202(own_stack):
    """Before: 78 of 78 commands answered 500 during a Redis restart had been recorded."""
    s = own_stack(**_quiet())
    with httpx.Client(base_url=s.api, timeout=30) as http:
        table_id, tokens = seated_table(http, 4)
        assert http.post(f"/tables/{table_id}/start", headers=auth(tokens[0])).status_code == 200
        s.servers["redis"].stop()
        r = http.get(f"/tables/{table_id}")
        assert r.status_code == 503 and r.json()["code"] == "views_unavailable", r.text
        assert r.headers["retry-after"]
        r = http.post(
            f"/tables/{table_id}/commands",
            headers=auth(tokens[1]),
            json={"type": "arrange", "positions": [3, 2, 1], "command_id": "away-1"},
        )
        assert r.status_code == 202, r.text  # recorded: never "nothing was recorded"
        position = r.json()["position"]
        s.servers["redis"].restart()
        v = _until(
            lambda: (
                (x := http.get(f"/tables/{table_id}/view", headers=auth(tokens[1]))).status_code
                == 200
                and x.json()
            )
        )
        assert v["status"] == "playing"
        stored = asyncio.run(_entries(s.nats_url, table_id))
        # the command's entry, named by its opaque position (never the log's sequence)
        named = Positions(s.ticket_secret.encode())
        assert any(named.of(table_id, seq) == position for seq, _ in stored)
        r = http.post(
            f"/tables/{table_id}/commands",
            headers=auth(tokens[1]),
            json={"type": "arrange", "positions": [3, 2, 1], "command_id": "away-1"},
        )
        assert r.status_code in (200, 202), r.text  # the retry answers the first one
        assert len(asyncio.run(_entries(s.nats_url, table_id))) == len(stored)


def test_with_nats_away_a_command_is_503_and_nothing_is_recorded_later(own_stack):
    s = own_stack(**_quiet())
    with httpx.Client(base_url=s.api, timeout=30) as http:
        table_id, tokens = seated_table(http, 4)
        assert http.post(f"/tables/{table_id}/start", headers=auth(tokens[0])).status_code == 200
        before = asyncio.run(_entries(s.nats_url, table_id))
        s.servers["nats"].stop()
        started = time.monotonic()
        r = http.post(
            f"/tables/{table_id}/commands",
            headers=auth(tokens[1]),
            json={"type": "arrange", "positions": [1, 2, 3], "command_id": "away-2"},
        )
        assert r.status_code == 503, r.text
        assert r.json()["code"] in ("log_unavailable", "outcome_unknown")
        assert r.headers["retry-after"] and time.monotonic() - started < 8
        s.servers["nats"].restart()
        time.sleep(2.0)  # the services reconnect; an append given up on must not land now
        assert asyncio.run(_entries(s.nats_url, table_id)) == before
        r = _until(
            lambda: (
                (
                    x := http.post(
                        f"/tables/{table_id}/commands",
                        headers=auth(tokens[1]),
                        json={"type": "arrange", "positions": [1, 2, 3], "command_id": "away-2"},
                    )
                ).status_code
                in (200, 202)
                and x
            )
        )
        assert len(asyncio.run(_entries(s.nats_url, table_id))) == len(before) + 2


def test_make_run_supervises_nats_and_redis(own_stack):
    """Before: a killed nats-server left every command hanging 5 s then 500, forever."""
    s = own_stack(**_quiet())
    s.servers["nats"].stop(kill=True)
    s.servers["redis"].stop(kill=True)
    assert {"nats", "redis"} <= set(s.supervise())
    table_id = _until(lambda: _create(s))
    with httpx.Client(base_url=s.api, timeout=30) as http:
        assert http.get(f"/tables/{table_id}").status_code == 200


def _create(s: Stack) -> str | None:
    with httpx.Client(base_url=s.api, timeout=30) as http:
        r = http.post("/tables", json={"seats": 4})
        return r.json()["table_id"] if r.status_code == 201 else None


# --- 7. input hygiene ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("body", "status", "code", "field"),
    [
        (b'{"seats": "4"}', 422, "invalid_body", "seats"),
        (b'{"seats": 4.0}', 422, "invalid_body", "seats"),
        (b'{"seats": 4, "deadlines": {"turn": -5}}', 422, "invalid_body", "deadlines.turn"),
        (b'{"seats": 4, "deadlines": {"turn": 0}}', 422, "invalid_body", "deadlines.turn"),
        (
            b'{"seats": 4, "deadlines": {"reaction": 1e308}}',
            422,
            "invalid_body",
            "deadlines.reaction",
        ),
        (b'{"seats": 4, "deadlines": {"prompt": 3601}}', 422, "invalid_body", "deadlines.prompt"),
        (b'{"seats": 4', 400, "malformed_json", None),
        (b"[" * 5000 + b"]" * 5000, 400, "json_too_deep", None),
        (
            b'{"seats": 4, "options": ' + b"[" * 5000 + b"]" * 5000 + b"}",
            400,
            "json_too_deep",
            None,
        ),
    ],
)
def test_odd_lobby_bodies_are_refused_with_the_field_named(
    own_stack_shared, body, status, code, field
):
    s = own_stack_shared
    with httpx.Client(base_url=s.api, timeout=30) as http:
        before = len(http.get("/tables", params={"limit": 200}).json())
        r = http.post("/tables", content=body, headers={"content-type": "application/json"})
        assert r.status_code == status and r.json()["code"] == code, r.text
        assert r.json().get("field") == field
        assert len(http.get("/tables", params={"limit": 200}).json()) == before


@pytest.fixture(scope="module")
def own_stack_shared(tmp_path_factory) -> Iterator[Stack]:
    s = Stack(tmp_path_factory.mktemp("hygiene"), env=_quiet()).start()
    yield s
    s.stop()


@pytest.mark.parametrize("command_id", ["x" * 65, "has space", "tab\there", "é", "", "new\nline"])
def test_a_command_id_is_1_to_64_printable_ascii(http, command_id):
    table_id, tokens = seated_table(http, 4)
    assert http.post(f"/tables/{table_id}/start", headers=auth(tokens[0])).status_code == 200
    version = http.get(f"/tables/{table_id}").json()["version"]
    r = http.post(
        f"/tables/{table_id}/commands",
        headers=auth(tokens[0]),
        json={"type": "arrange", "positions": [1, 2, 3], "command_id": command_id},
    )
    assert r.status_code == 422 and r.json()["field"] == "command_id", r.text
    assert http.get(f"/tables/{table_id}").json()["version"] == version


def test_a_command_with_a_string_for_a_number_is_refused(http):
    table_id, tokens = seated_table(http, 4)
    assert http.post(f"/tables/{table_id}/start", headers=auth(tokens[0])).status_code == 200
    r = http.post(
        f"/tables/{table_id}/commands",
        headers=auth(tokens[0]),
        json={"type": "arrange", "positions": ["1", "2", "3"]},
    )
    assert r.status_code == 422 and r.json()["field"] == "positions[0]", r.text


# --- 8. the servers take credentials ------------------------------------------------------------
def test_nats_and_redis_refuse_anonymous_clients_and_each_service_has_only_its_rights(own_stack):
    """Before: an anonymous local client read a live table's dealt cards and token hashes."""
    s = own_stack(**_quiet())
    nats_server, redis_server = s.servers["nats"], s.servers["redis"]

    async def probe_nats() -> None:
        with pytest.raises(nats.errors.Error, match="Authorization Violation"):
            await nats.connect(
                f"nats://127.0.0.1:{nats_server.port}", allow_reconnect=False, connect_timeout=2
            )

        async def refused(call: Awaitable[Any]) -> None:
            with pytest.raises(nats.errors.TimeoutError):  # refused: no acknowledgement comes
                await call

        projection = await JetStreamEventLog.connect(nats_server.url_for("projection"))
        table = await JetStreamEventLog.connect(nats_server.url_for("table"))
        durable = "rules-worker-p0"
        try:  # each refusal is a wait for an answer that never comes: all at once
            await asyncio.gather(
                # the projection only reads: it cannot append to a table
                refused(projection.js.publish("gcbc.table.0123456789abcdef", b"{}", timeout=1)),
                # … nor delete the stream, nor can the table service
                *(
                    refused(log.nc.request("$JS.API.STREAM.DELETE.GCBC_TABLES", b"", timeout=1))
                    for log in (projection, table)
                ),
                # no service can stop, replace or impersonate another's consumer, or read its
                # replies
                *(
                    refused(log.nc.request(subject, b"{}", timeout=1))
                    for log in (table, projection)
                    for subject in (
                        f"$JS.API.CONSUMER.DELETE.GCBC_TABLES.{durable}",
                        f"$JS.API.CONSUMER.DURABLE.CREATE.GCBC_TABLES.{durable}",
                        f"$JS.API.CONSUMER.CREATE.GCBC_TABLES.{durable}",
                    )
                ),
            )
            assert (await projection.js.stream_info("GCBC_TABLES")).state.messages == 0
        finally:
            await projection.close()
            await table.close()
        rules = await JetStreamEventLog.connect(nats_server.url_for("rules"))
        try:
            for _ in range(150):  # made once the rules worker has taken partition 0's lease
                try:
                    info = await rules.js.consumer_info("GCBC_TABLES", "rules-worker-p0")
                    break
                except nats.js.errors.NotFoundError:
                    await asyncio.sleep(0.2)
            assert info.config.durable_name == "rules-worker-p0"  # untouched
            # … nor take another service's partitions (its leases)
            with pytest.raises(nats.errors.TimeoutError):
                await rules.js.publish("$KV.GCBC_LEASES.projection.partition.0", b"x", timeout=1)
        finally:
            await rules.close()

    asyncio.run(probe_nats())
    anonymous = redis.Redis(port=redis_server.port)
    with pytest.raises(redis.exceptions.AuthenticationError):
        anonymous.get("gcbc:lobby")
    service = redis.Redis.from_url(redis_server.url_for("table"))
    with pytest.raises(redis.exceptions.NoPermissionError):
        service.flushall()
    with pytest.raises(redis.exceptions.NoPermissionError):
        service.get("not-ours")
    assert service.hgetall("gcbc:lobby") == {}


# --- helpers ------------------------------------------------------------------------------------
def _quiet() -> dict[str, str]:
    """The test stacks' generous limits, for tests about something else."""
    return dict(TEST_ENV)


def _until(check: Callable[[], object], timeout: float = 20) -> object:
    deadline = time.monotonic() + timeout
    while True:
        got = check()
        if got:
            return got
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


async def _entries(nats_url: str, table_id: str) -> list[tuple[int, object]]:
    log = await JetStreamEventLog.connect(nats_url)
    try:
        return [(s.seq, decode_entry(s.data)) for s in await log.read(table_id)]
    finally:
        await log.close()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        (b'{"name": "robo", "bot": "yes"}', "bot"),
        (b'{"name": "robo", "bot": 1}', "bot"),
        (b'{"name": "robo", "bot": null}', "bot"),
        (b'{"name": "robo", "bot": true, "bots": true}', None),
    ],
)
def test_a_seat_saying_it_is_a_bot_says_it_with_a_boolean(http, body, field):
    """A seat's ``bot`` is true or false: anything else is refused, and no seat is taken."""
    table_id = http.post("/tables", json={"seats": 4}).json()["table_id"]
    headers = {"content-type": "application/json"}
    r = http.post(f"/tables/{table_id}/seats", content=body, headers=headers)
    assert r.status_code in (400, 422), r.text
    assert r.json().get("field") == field or field is None, r.text
    assert all(s["name"] is None for s in http.get(f"/tables/{table_id}").json()["seats"])


@pytest.mark.parametrize(
    ("route", "body", "token", "status", "detail", "field"),
    [
        # a body missing or not of its type is refused before the token is looked at
        ("commands", b"", False, 422, "'data'", "data"),
        ("chat", b"", False, 422, "'data'", "data"),
        ("commands", b"{}", False, 422, "Object missing required field `type`", "type"),
        ("commands", b'{"type": "shoot", "seat": 1}', True, 422, None, "seat"),
        ("commands", b'{"type": "nope"}', True, 422, "Invalid value 'nope'", "type"),
        ("commands", b'{"type": 1}', True, 422, "Expected `str`, got `int`", "type"),
        ("chat", b'{"text": 5}', False, 422, "Expected `str`, got `int`", "text"),
        # refused for strictness alone: the strict decoder's words, the field named
        ("commands", b'{"type": "pass", "type": "pass"}', True, 400, None, "type"),
        ("commands", b'{"type": "pass", "command_id": 5}', True, 422, None, "command_id"),
        # a legal_commands template sent as it is, its choices not made
        (
            "commands",
            b'{"type": "play_equipment", "card": "coffee", "choose": {"target": [1]}}',
            True,
            422,
            "Object contains unknown field `choose`",
            "choose",
        ),
    ],
)
def test_odd_seat_bodies_are_refused_with_the_field_named(
    http, route, body, token, status, detail, field
):
    table_id, tokens = seated_table(http, 4)
    headers = {"content-type": "application/json", **(auth(tokens[0]) if token else {})}
    r = http.post(f"/tables/{table_id}/{route}", content=body, headers=headers)
    assert r.status_code == status, r.text
    assert r.json().get("field") == field, r.text
    if detail is not None:
        assert r.json()["detail"] == detail, r.text


# --- invitations and rated tables: new fields a client sends ----------------------------------
def test_invitation_and_rated_fields_of_the_wrong_kind_are_refused_and_codes_stay_secret(http):
    for body, field in (
        ({"seats": 4, "invitations": "2"}, "invitations"),
        ({"seats": 4, "invitations": 9}, "invitations"),
        ({"seats": 4, "rated": "yes"}, "rated"),
    ):
        r = http.post("/tables", json=body)
        assert r.status_code == 422 and field in r.text, (body, r.text)
    r = http.post("/tables", json={"seats": 4, "invitations": 1})
    table_id, code = r.json()["table_id"], r.json()["invitations"][0]["code"]
    for invitation in (7, "x" * 65, ""):
        r = http.post(f"/tables/{table_id}/seats", json={"name": "eve", "invitation": invitation})
        assert r.status_code == 422 and "invitation" in r.text, (invitation, r.text)
    # the code is shown to its creator once: no listing or view gives it
    bodies = [http.get("/tables").content, http.get(f"/tables/{table_id}").content]
    assert all(code.encode() not in b for b in bodies)


# --- players, their history and quick play: ids, bodies and queries a client makes up ------------
def test_players_ids_bodies_and_queries_of_the_wrong_kind_are_refused_with_the_field_named(http):
    for player_id in HOSTILE_IDS:
        for route in (
            "/players/{id}",
            "/players/{id}/games",
            "/players/{id}/games/export",
            "/players/{id}/ratings",
            "/leaderboards/{id}",
        ):
            r = http.get(route.replace("{id}", player_id))
            assert r.status_code in (400, 404), (route, player_id, r.status_code, r.text)
            assert r.headers["content-type"].startswith("application/problem+json"), r.text
    for body, field in (
        ({"name": 7}, "name"),
        ({"name": "x" * 200}, "name"),
        ({"name": "amy", "bot": "yes"}, "bot"),
        ({"name": "amy", "registration_key": 12345678901234567}, "registration_key"),
        ({"name": "amy", "registration_key": "short"}, "registration_key"),
        ({"name": "amy", "registration_key": "x" * 30 + "/../" + "x" * 10}, "registration_key"),
    ):
        r = http.post("/players", json=body)
        assert r.status_code == 422 and r.json().get("field") == field, (body, r.text)
    player = http.post("/players", json={"name": "probed"}).json()
    for query, field in (
        ({"max": "x"}, "max"),
        ({"max": -1}, "max"),
        ({"max": 2**40}, "max"),
    ):
        r = http.get(f"/players/{player['player_id']}/games/export", params=query)
        assert r.status_code == 400 and field in r.text, (query, r.text)
    for query, field in (
        ({"limit": 0}, "limit"),
        ({"limit": 51}, "limit"),
        ({"before": -1}, "before"),
    ):
        r = http.get(f"/players/{player['player_id']}/games", params=query)
        assert r.status_code == 400 and field in r.text, (query, r.text)
    token = auth(player["token"])
    for body, field in (
        ({"seats": "4"}, "seats"),
        ({"seats": [4, 99]}, "seats"),
        ({"seats": [4], "rated": "yes"}, "rated"),
    ):
        r = http.post("/queue", json=body, headers=token)
        assert r.status_code == 422 and field in r.text, (body, r.text)
    # nothing was queued by any of them
    assert http.get("/players/me", headers=token).json()["queue"] is None
