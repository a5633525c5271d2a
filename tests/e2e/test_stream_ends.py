"""A table's stream ends with the game (docs/api.md, "Following a table"): after the view that
shows it finished comes ``event: end``, and the server closes the stream, a seat's and a
spectator's alike; a reconnect after the last view gets the end at once. The typed client's
stream iterators stop there."""

from __future__ import annotations

import asyncio
import json
import time

import httpx
import pytest
from gcbc_client import AsyncClient, Client, aio, sync

from services.bots.seat import play_seat

pytestmark = pytest.mark.timeout(300)
QUICK = {"turn": 0.3, "reaction": 0.3, "prompt": 0.3, "arrange": 0.3}


@pytest.fixture(scope="module")
def finished(stack) -> tuple[str, str]:
    """A table played to the end: its id and seat 0's token."""

    async def go() -> tuple[str, str]:
        async with AsyncClient(stack.api, timeout=60) as client:
            table = await client.create_table(4, deadlines=QUICK)
            seats = [await client.join(table.table_id, f"p{i}") for i in range(4)]
            await seats[0].start()
            await asyncio.gather(*(play_seat(s, "random", 3 + s.seat) for s in seats))
            return table.table_id, seats[0].token

    return asyncio.run(go())


def _events(api: str, path: str, headers: dict[str, str]) -> list[dict[str, str]]:
    """Every event of the stream until the server closes it (comments left out)."""
    events, event = [], {}
    with httpx.stream("GET", api + path, headers=headers, timeout=httpx.Timeout(30)) as r:
        assert r.status_code == 200, r.read()
        for line in r.iter_lines():
            if line == "":
                if event:
                    events.append(event)
                event = {}
            elif not line.startswith(":"):
                name, _, value = line.partition(":")
                event[name] = value.lstrip()
    return events


@pytest.mark.parametrize("who", ["seat", "spectator"])
def test_the_stream_ends_after_the_finished_view(stack, finished, who):
    table_id, token = finished
    headers = {"Authorization": f"Bearer {token}"} if who == "seat" else {}
    path = f"/tables/{table_id}/stream"
    *views, end = _events(stack.api, path, headers)
    last = json.loads(views[-1]["data"])
    assert last["status"] == "finished" and int(views[-1]["id"]) == last["version"]
    assert (who == "seat") == (last["you"] is not None)
    assert end["event"] == "end" and "id" not in end
    assert json.loads(end["data"]) == {"reason": "finished", "version": last["version"]}
    # a reconnect after the last view (an EventSource does so by itself) ends at once
    started = time.monotonic()
    again = _events(stack.api, path, {**headers, "Last-Event-ID": views[-1]["id"]})
    assert [e["event"] for e in again] == ["end"] and time.monotonic() - started < 5


def test_the_clients_stream_iterators_stop_at_the_end(stack, finished):
    table_id, token = finished

    async def watch() -> list[str]:
        async with AsyncClient(stack.api, timeout=60) as client:
            return [v.status async for v in client.watch(table_id)]

    assert asyncio.run(asyncio.wait_for(watch(), 30)) == ["finished"]
    with Client(stack.api) as client:
        assert [v.status for v in client.watch(table_id)] == ["finished"]
        version = str(client.table(table_id).version)
        # resumed after the last view: the end alone, and the iterator stops (no reconnecting)
        resumed = sync._stream(
            client.http, f"/tables/{table_id}/stream", {"Last-Event-ID": version}
        )
        assert list(resumed) == []

    async def resume() -> list[str]:
        async with AsyncClient(stack.api, timeout=60) as client:
            url, since = f"/tables/{table_id}/stream", {"Last-Event-ID": version}
            return [v.status async for v in aio._stream(client, url, since)]

    assert asyncio.run(asyncio.wait_for(resume(), 30)) == []
