"""Every number a client sees moves only with what it may see (docs/api.md, "Views"): played through
the HTTP API against the real services.

Twin scenario tables, the same deal and seed, played alike but for one seat's private events (its
auto-pass switched on and off, its own order of its cards, a pass in a window that a play then
reopens): the public view and every other seat's are the same at both tables but for the table's
id (and the deadlines' clock times), version and wait ids included. The positions a 202 names
and the lobby's cursors are not the log's sequence (it counts what every table does)."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import redis

from gcbc.eventlog.jetstream import JetStreamEventLog
from gcbc.readmodel.redis import LOBBY_ORDER
from gcbc_contract import commands as C
from gcbc_contract.entries import CommandEntry, decode_entry
from services.table.positions import MAX_CURSOR, Positions
from tests.e2e.conftest import auth
from tests.e2e.test_rules_decisions import SLOW, deal, my_view, send, started

TWIN = 2  # the seat whose private events only one of the twins has


def shown(v: dict[str, Any]) -> dict[str, Any]:
    """A view but for what differs between any two tables: its id (in its log's first entry too),
    and the deadlines (the clock time each wait began, not a count)."""
    v = {k: x for k, x in v.items() if k != "table_id"}
    v["log"] = [{k: x for k, x in e.items() if k != "table_id"} for e in v["log"]]
    v["waiting_for"] = [{k: x for k, x in w.items() if k != "deadline"} for w in v["waiting_for"]]
    return v


def assert_twins(http: httpx.Client, a: tuple[str, list[str]], b: tuple[str, list[str]]) -> None:
    for seat in (None, 0, 1, 3):  # the public, and every seat but the twin's
        ta = None if seat is None else a[1][seat]
        tb = None if seat is None else b[1][seat]
        va, vb = my_view(http, a[0], ta), my_view(http, b[0], tb)
        assert shown(va) == shown(vb), f"viewer {seat} tells the tables apart"


def both(http: httpx.Client, a: Any, b: Any, seat: int, command: dict[str, Any]) -> None:
    for table_id, tokens in (a, b):
        send(http, table_id, tokens[seat], command)


def chat(http: httpx.Client, table_id: str, token: str) -> int:
    r = http.post(f"/tables/{table_id}/chat", headers=auth(token), json={"text": "hm"})
    assert r.status_code == 202, r.text
    return r.json()["position"]


async def _sequences(nats_url: str, table_id: str) -> dict[str, int]:
    """The log's sequence of each chat line's entry at the table (by its place: chat 0, 1…)."""
    log = await JetStreamEventLog.connect(nats_url)
    try:
        out = {}
        for s in await log.read(table_id):
            entry = decode_entry(s.data)
            if isinstance(entry, CommandEntry) and isinstance(entry.command, C.PostChat):
                out[f"chat {len(out)}"] = s.seq
        return out
    finally:
        await log.close()


def test_twin_tables_that_differ_by_private_events_look_the_same(http, stack):
    body = {"deal": deal([[], ["coffee"], ["k9_unit"], []]), "seed": 5, "deadlines": SLOW}
    a, b = started(http, **body), started(http, **body)  # ``started`` arranged every seat alike
    positions = {a[0]: [chat(http, a[0], a[1][0])], b[0]: [chat(http, b[0], b[1][0])]}
    # the start-of-game window asks seats 1 and 2
    send(http, a[0], a[1][TWIN], {"type": "set_auto_pass", "enabled": True})  # passes it, too
    send(http, a[0], a[1][TWIN], {"type": "set_auto_pass", "enabled": False})
    send(http, b[0], b[1][TWIN], {"type": "pass"})
    both(http, a, b, 1, {"type": "pass"})
    assert_twins(http, a, b)
    # seat 0's turn: it investigates; seats 1 and 2 are asked
    both(http, a, b, 0, {"type": "investigate", "target": 1, "position": 1})
    send(http, a[0], a[1][TWIN], {"type": "pass"})
    assert_twins(http, a, b)
    both(http, a, b, 1, {"type": "play_equipment", "card": "coffee"})  # everyone asked again
    assert_twins(http, a, b)
    for table_id, tokens in (a, b):
        positions[table_id].append(chat(http, table_id, tokens[3]))
    for _ in range(3):  # the card is seen; the end-of-turn window asks seat 2 too
        both(http, a, b, TWIN, {"type": "pass"})
        assert_twins(http, a, b)
        view = my_view(http, a[0])
        if view["waiting_for"][0]["reason"] == "turn":
            break
    assert view["turn"] == 1  # its Coffee claimed the next turn
    for table_id, tokens in (a, b):
        positions[table_id].append(chat(http, table_id, tokens[1]))
    assert_twins(http, a, b)
    # the twin's own view did see its private events: its version is ahead at the first table
    mine = [my_view(http, t, tokens[TWIN])["version"] for t, tokens in (a, b)]
    assert mine[0] > mine[1]

    # a 202's position is not the log's sequence, nor anything that moves with it
    named = Positions(stack.ticket_secret.encode())
    for table_id in (a[0], b[0]):
        seqs = asyncio.run(_sequences(stack.nats_url, table_id))
        assert list(seqs) == ["chat 0", "chat 1", "chat 2"]
        got = positions[table_id]
        assert got == [named.of(table_id, seq) for seq in seqs.values()]  # the entries', opaque
        assert not set(got) & set(seqs.values())
        assert all(0 <= p < 2**53 for p in got)  # a JavaScript number holds it
    # the same places of the twins' logs, the same commands: nothing in common to compare
    assert not set(positions[a[0]]) & set(positions[b[0]])


def test_the_lobbys_cursor_is_not_the_logs_sequence(http, stack):
    for _ in range(4):  # at least four tables in the lobby
        assert http.post("/tables", json={"seats": 4}).status_code == 201
    first = http.get("/tables", params={"limit": 200})
    assert first.status_code == 200
    lobby = [t["table_id"] for t in first.json()]
    assert len(lobby) >= 4
    named = Positions(stack.ticket_secret.encode())
    index = redis.Redis.from_url(stack.redis_url)
    try:
        url: str | None = "/tables?limit=1"
        for expected in lobby[:3]:  # page by page, each page one table, oldest first, and more
            assert url is not None
            page = http.get(url)
            assert page.status_code == 200, page.text
            assert [t["table_id"] for t in page.json()] == [expected]
            link = page.headers["link"]
            url = link[link.index("<") + 1 : link.index(">")]
            cursor = int(httpx.URL(url).params["after"])
            listed_at = int(index.zscore(LOBBY_ORDER, expected))  # where the log listed it
            assert cursor != listed_at and named.after(cursor) == listed_at
    finally:
        index.close()
    r = http.get("/tables", params={"after": MAX_CURSOR + 1})  # no cursor is that large
    assert r.status_code == 400 and r.json()["code"] == "invalid_parameter", r.text
    assert r.json()["field"] == "after"
    assert r.headers["content-type"].startswith("application/problem+json")
