"""The whole system for end-to-end tests: the three services as processes, on the session's real
NATS and Redis (tests/conftest.py), scenario tables allowed."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tools.launcher import Stack

# Bots create dozens of tables and watch every seat from one address, with deadlines of a
# fraction of a second: limits far above what the tests send (the rate limiter still counts every
# request); the limits themselves are tested on stacks of their own (test_hostile_input.py).
# House bots play at machine speed here and may take every seat (a table to watch), as the
# tests' tables ask; the house's pace is tested on stacks of its own (test_house_bots.py).
TEST_ENV = {
    "GCBC_RATE_CREATE": "100000/minute",
    "GCBC_RATE_SEAT": "100000/minute",
    "GCBC_RATE_TABLE_SEAT": "100000/minute",
    "GCBC_RATE_START": "100000/minute",
    "GCBC_RATE_REGISTER": "100000/minute",
    "GCBC_RATE_CHAT": "100000/minute",
    "GCBC_RATE_CLIENT_CHAT": "100000/minute",
    "GCBC_RATE_COMMAND": "100000/minute",
    "GCBC_RATE_PRESENCE": "100000/minute",
    "GCBC_RATE_REPLAY": "100000/minute",
    "GCBC_RATE_LOG_READ": "100000/minute",
    "GCBC_RATE_GAME_FOLD": "100000/minute",
    "GCBC_RATE_REFUSED_TOKEN": "100000/minute",
    "GCBC_STREAMS_PER_CLIENT": "0",
    "GCBC_RATE_CLIENT_COMMAND": "100000/minute",
    "GCBC_STREAMS_PER_TABLE_CLIENT": "0",
    "GCBC_CONNECTIONS_PER_CLIENT": "0",
    "GCBC_CLIENT_REQUESTS": "0",
    "GCBC_SEATS_PER_CLIENT": "0",
    "GCBC_HOUSE_SEATS_PER_CLIENT": "0",
    "GCBC_HOUSE_SEATS": "0",
    "GCBC_RATE_LEADERBOARD": "1000000/minute",
    "GCBC_RATE_PLAYER_TABLES": "1000000/minute",
    "GCBC_LOBBY_TABLES_PER_CLIENT": "0",
    "GCBC_MIN_DEADLINE": "0.1",
    "GCBC_HOUSE_ONLY_TABLES": "1",
    "GCBC_BOT_THINK": "0",
    "GCBC_BOT_THINK_MIN": "0",
    "GCBC_BOT_ACTIONS": "0",
}


@pytest.fixture(scope="session")
def stack(tmp_path_factory, nats_server, redis_server) -> Iterator[Stack]:
    s = Stack(
        tmp_path_factory.mktemp("stack"),
        allow_scenarios=True,
        nats=nats_server,
        redis=redis_server,
        env=TEST_ENV,
    )
    s.start()
    yield s
    s.stop()


@pytest.fixture
def http(stack) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=stack.api, timeout=30) as client:
        yield client


@pytest.fixture(scope="module")
def http_module(stack) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=stack.api, timeout=30) as client:
        yield client


def seated_table(http: httpx.Client, seats: int = 4, **body) -> tuple[str, list[str]]:
    r = http.post("/tables", json={"seats": seats, **body})
    assert r.status_code == 201, r.text
    table_id = r.json()["table_id"]
    tokens = []
    for i in range(seats):
        r = http.post(f"/tables/{table_id}/seats", json={"name": f"p{i}"})
        assert r.status_code == 201, r.text
        assert r.json()["seat"] == i
        tokens.append(r.json()["token"])
    return table_id, tokens


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def from_address(stack: Stack, n: int, timeout: float = 15) -> httpx.Client:
    """A client from the address 127.0.0.``n`` (the service counts its budgets per address)."""
    transport = httpx.HTTPTransport(local_address=f"127.0.0.{n}")
    return httpx.Client(base_url=stack.api, transport=transport, timeout=timeout)
