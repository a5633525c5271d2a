"""A finished table's views leave Redis after ``GCBC_FINISHED_VIEWS_SECONDS`` (one address
finishing games all day would otherwise fill it), its seated record kept; asked for again, they are
made from the log, the same views, on a stack of its own with a short retention."""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import redis

from tests.e2e.conftest import auth
from tools.launcher import Stack

KEPT = 1.5  # seconds a finished table's views stay


@pytest.fixture(scope="module")
def kept(tmp_path_factory) -> Iterator[Stack]:
    env = {"GCBC_FINISHED_VIEWS_SECONDS": str(KEPT), "GCBC_LOBBY_TTL": "1"}
    s = Stack(Path(tmp_path_factory.mktemp("retention")), env=env).start()
    yield s
    s.stop()


def _finished(http: httpx.Client, table_id: str) -> dict:
    for _ in range(200):
        view = http.get(f"/tables/{table_id}").json()
        if view["status"] == "finished":
            return view
        time.sleep(0.05)
    raise AssertionError("the lobby did not close")


def _stream_events(http: httpx.Client, url: str, headers: dict) -> list[str]:
    with http.stream("GET", url, headers=headers, timeout=10) as r:
        assert r.status_code == 200
        return [line for line in r.iter_lines() if line.startswith("event:")]


def test_a_finished_tables_views_expire_and_come_back_from_the_log(kept: Stack) -> None:
    store = redis.Redis.from_url(kept.redis_url)
    with httpx.Client(base_url=kept.api, timeout=15) as http:
        player = http.post("/players", json={"name": f"p{secrets.token_hex(4)}"}).json()
        table_id = http.post("/tables", json={"seats": 4}).json()["table_id"]
        r = http.post(
            f"/tables/{table_id}/seats", json={"name": "ann"}, headers=auth(player["token"])
        )
        assert r.status_code == 201, r.text
        public = _finished(http, table_id)  # nobody started it: closed, finished
        mine = http.get(f"/tables/{table_id}/view", headers=auth(player["token"])).json()
        key = f"gcbc:views:{table_id}"
        assert 0 < store.pttl(key) <= KEPT * 1000
        time.sleep(KEPT + 0.5)
        assert not store.exists(key)  # gone from Redis …
        assert store.get(f"gcbc:seated:{table_id}") == f'{{"{player["player_id"]}":0}}'.encode()
        # … where the player sat still known, no view read
        listed = http.get("/players/me/tables", headers=auth(player["token"])).json()["tables"]
        assert [(t["table_id"], t["seat"], t["status"]) for t in listed] == [
            (table_id, 0, "finished")
        ]
        # asked for: made from the log, as they were (Redis is the projection's alone to write)
        assert http.get(f"/tables/{table_id}").json() == public
        assert http.get(f"/tables/{table_id}/view", headers=auth(player["token"])).json() == mine
        assert not store.exists(key)
        # a long-poll after its last version waits the time asked, as at any table, then has it
        began = time.monotonic()
        poll = {"after": mine["version"], "timeout": 1}
        r = http.get(f"/tables/{table_id}/view", params=poll, headers=auth(player["token"]))
        assert r.json() == mine and time.monotonic() - began >= 0.9
        # a stream of it: the last view, then the end
        events = _stream_events(http, f"/tables/{table_id}/stream", auth(player["token"]))
        assert events[-1] == "event: end"
        assert http.get(f"/tables/{table_id}/history").status_code == 200
        assert http.get("/tables/0000000000000000").status_code == 404
