"""Browsers: CORS for writes and tokens only for the origins a server names,
public reads open to every origin, and a seat's stream without its token in any URL (a
short-lived, single-table ticket from an authenticated POST)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.e2e.conftest import TEST_ENV, auth, seated_table
from tools.demo import play_table
from tools.launcher import Stack

ORIGIN = "https://play.example"


@pytest.fixture(scope="module")
def browser_stack(tmp_path_factory) -> Iterator[Stack]:
    env = {**TEST_ENV, "GCBC_CORS_ORIGINS": ORIGIN, "GCBC_TICKET_SECONDS": "2"}
    s = Stack(Path(tmp_path_factory.mktemp("browser")), env=env).start()
    yield s
    s.stop()


def first_event(api: str, path: str, **kw) -> httpx.Response | dict:
    with httpx.Client(base_url=api, timeout=30) as client:
        with client.stream("GET", path, **kw) as r:
            if r.status_code != 200:
                r.read()
                return r
            for line in r.iter_lines():
                if line.startswith("data:"):
                    return httpx.Response(200, content=line[5:].strip().encode()).json()
    raise AssertionError("no event")


def test_cors_answers_only_the_origins_the_server_names(browser_stack, stack):
    with httpx.Client(base_url=browser_stack.api, timeout=30) as http:
        preflight = http.options(
            "/tables",
            headers={
                "Origin": ORIGIN,
                "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "authorization,content-type",
            },
        )
        assert preflight.status_code in (200, 204)
        assert preflight.headers["access-control-allow-origin"] == ORIGIN
        r = http.get("/tables", headers={"Origin": ORIGIN})
        assert r.headers["access-control-allow-origin"] == ORIGIN
        assert "link" in r.headers.get("access-control-expose-headers", "").lower()
        # another origin: a public read is open to it (below), a write is not
        r = http.post("/tables", json={"seats": 4}, headers={"Origin": "https://evil.example"})
        assert "access-control-allow-origin" not in r.headers
        r = http.get("/tables", headers={"Origin": "https://evil.example"})
        assert r.headers["access-control-allow-origin"] == "*"
    with httpx.Client(base_url=stack.api, timeout=30) as http:  # no origins named: reads only
        r = http.post("/tables", json={"seats": 4}, headers={"Origin": ORIGIN})
        assert "access-control-allow-origin" not in r.headers


def test_a_ticket_streams_its_seat_and_nothing_else(browser_stack):
    api = browser_stack.api
    with httpx.Client(base_url=api, timeout=30) as http:
        table_id, tokens = seated_table(http, 4)
        other_table, _ = seated_table(http, 4)
        r = http.post(f"/tables/{table_id}/tickets", headers=auth(tokens[2]))
        assert r.status_code == 201, r.text
        ticket = r.json()["ticket"]
        assert tokens[2] not in ticket  # the token never goes into a URL
        view = first_event(api, f"/tables/{table_id}/stream", params={"ticket": ticket})
        assert view["you"]["seat"] == 2  # the seat's own view
        wrong = first_event(api, f"/tables/{other_table}/stream", params={"ticket": ticket})
        assert wrong.status_code == 401  # another table's stream: no
        forged = first_event(
            api, f"/tables/{table_id}/stream", params={"ticket": ticket[:-3] + "AAA"}
        )
        assert forged.status_code == 401
        assert http.post(f"/tables/{table_id}/tickets").status_code == 401  # a token is needed
        time.sleep(2.5)
        late = first_event(api, f"/tables/{table_id}/stream", params={"ticket": ticket})
        assert late.status_code == 401  # expired


def test_a_ticket_stops_working_once_its_seat_changes_hands(browser_stack):
    with httpx.Client(base_url=browser_stack.api, timeout=30) as http:
        table_id = http.post("/tables", json={"seats": 4}).json()["table_id"]
        ann = http.post(f"/tables/{table_id}/seats", json={"name": "ann"}).json()
        ticket = http.post(f"/tables/{table_id}/tickets", headers=auth(ann["token"])).json()
        http.delete(f"/tables/{table_id}/seats/{ann['seat']}", headers=auth(ann["token"]))
        bob = http.post(f"/tables/{table_id}/seats", json={"name": "bob"}).json()
        assert bob["seat"] == ann["seat"]
        r = first_event(
            browser_stack.api, f"/tables/{table_id}/stream", params={"ticket": ticket["ticket"]}
        )
        assert r.status_code == 403


def test_public_reads_are_open_to_every_origin_and_nothing_else_is(stack, http):
    """docs/api.md, "Cross-origin browsers": on a server that names no origins."""
    origin = {"Origin": "https://elsewhere.example"}
    finished = asyncio.run(play_table(stack.api, 4, "random", seed=9))
    table_id, tokens = seated_table(http, 4)
    ticket = http.post(f"/tables/{table_id}/tickets", headers=auth(tokens[0])).json()["ticket"]
    reads = [
        "/tables",
        f"/tables/{table_id}",
        f"/tables/{table_id}/view",
        f"/tables/{finished}/history",
        f"/tables/{finished}/replay?step=2",
        f"/tables/{finished}/stream",  # a finished game's stream ends: read whole
        f"/tables/{table_id}/history",  # a problem (409) is readable too
        "/tables/0000000000000000",  # 404
        "/schema/openapi.json",
        "/problems/no_table",
    ]
    for path in reads:
        r = http.get(path, headers=origin)
        assert r.headers.get("access-control-allow-origin") == "*", (path, r.status_code)
    with http.stream("GET", f"/tables/{table_id}/stream", headers=origin) as r:
        assert r.headers.get("access-control-allow-origin") == "*"
    closed = [
        http.get(f"/tables/{table_id}/view", headers={**origin, **auth(tokens[1])}),
        http.get(f"/tables/{finished}/stream?ticket={ticket}", headers=origin),
        # percent-encoded, the key is still a ticket's
        http.get(f"/tables/{finished}/stream?%74icket={ticket}", headers=origin),
        http.post("/tables", json={"seats": 4}, headers=origin),
        http.post(f"/tables/{table_id}/chat", json={"text": "hi"}, headers=origin),
        http.post(
            f"/tables/{table_id}/chat", json={"text": "hi"}, headers={**origin, **auth(tokens[1])}
        ),
    ]
    for r in closed:
        assert "access-control-allow-origin" not in r.headers, (r.request.url, r.status_code)

    def preflight(path: str, method: str, headers: str) -> httpx.Response:
        asked = {"Access-Control-Request-Method": method, "Access-Control-Request-Headers": headers}
        return http.options(path, headers={**origin, **asked})

    # a write, or a read with a token: no consent, so the browser never sends it
    for path, method, headers in [
        ("/tables", "POST", "content-type"),
        (f"/tables/{table_id}/commands", "POST", "authorization,content-type"),
        (f"/tables/{table_id}/seats/0", "DELETE", "authorization"),
        (f"/tables/{table_id}/view", "GET", "authorization"),
    ]:
        r = preflight(path, method, headers)
        assert "access-control-allow-origin" not in r.headers, (path, method)
    # a public stream's reconnection (Last-Event-ID) is consented to
    r = preflight(f"/tables/{table_id}/stream", "GET", "last-event-id")
    assert r.status_code == 204 and r.headers["access-control-allow-origin"] == "*"
    assert "GET" in r.headers["access-control-allow-methods"]
