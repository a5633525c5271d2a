"""The typed client (clients/python) against the real services: a whole table
played with the blocking client, problems as typed exceptions with their code, safe retries, and
Server-Sent Events that resume after a drop (Last-Event-ID) without missing or repeating a view."""

from __future__ import annotations

import asyncio
import random

import httpx
import msgspec
import pytest
from gcbc_client import AsyncClient, Client, commands
from gcbc_client.problems import Conflict, Invalid, NotFound, Unauthorized

from gcbc.bots import RandomBot
from gcbc.bots.base import Observation
from gcbc_contract.views import View


def test_the_blocking_client_plays_a_table_to_the_end(stack):
    with Client(stack.api) as client:
        table = client.create_table(4)
        assert any(t.table_id == table.table_id for t in client.tables(limit=200))
        seats = [client.join(table.table_id, f"p{i}") for i in range(4)]
        assert [s.seat for s in seats] == [0, 1, 2, 3]
        seats[0].start()
        bots = [RandomBot(i) for i in range(4)]
        views = {s.seat: s.view() for s in seats}
        rng = random.Random(3)
        for _ in range(3000):
            if all(v.status == "finished" for v in views.values()):
                break
            s = rng.choice(seats)
            v = views[s.seat] = s.view()
            if not any(w.seat == s.seat for w in v.waiting_for):
                continue
            command = bots[s.seat].act(Observation(s.seat, lambda v=v: v))
            try:
                got = s.send(command)
            except (Conflict, Invalid):
                continue  # a stale view
            if isinstance(got, View):
                views[s.seat] = got
        assert client.table(table.table_id).status == "finished"
        assert client.history(table.table_id).events


def test_problems_are_typed_exceptions_with_their_code(stack):
    with Client(stack.api) as client:
        with pytest.raises(NotFound) as missing:
            client.table("0123456789abcdef")
        assert missing.value.code == "no_table" and missing.value.status == 404
        table = client.create_table(4)
        seat = client.join(table.table_id, "ann")
        with pytest.raises(Conflict) as early:
            seat.start()
        assert early.value.code == "seats_not_filled"
        with pytest.raises(Invalid) as never:
            seat.send({"type": "arrange", "positions": "one two three"})
        assert never.value.code == "invalid_body" and never.value.field == "positions"
        with pytest.raises(ValueError):
            seat.send({"type": "teleport"})  # not even sent
        stranger = client.join(table.table_id, "bob")
        stranger.headers = {}
        with pytest.raises(Unauthorized):
            stranger.leave()


def test_a_command_sent_twice_with_its_id_is_recorded_once(stack):
    with Client(stack.api) as client:
        table = client.create_table(4)
        seats = [client.join(table.table_id, f"p{i}") for i in range(4)]
        seats[0].start()
        first = seats[1].send(commands.Arrange(positions=(2, 1, 3)), command_id="arrange-once")
        again = seats[1].send(commands.Arrange(positions=(2, 1, 3)), command_id="arrange-once")
        assert isinstance(first, View) and isinstance(again, View)
        assert again.version >= first.version
        with httpx.Client(base_url=stack.api) as raw:
            history = raw.get(f"/tables/{table.table_id}")
            assert history.status_code == 200
        arranged = [e for e in first.log if e["type"] == "cards_arranged"]
        assert len(arranged) == 1


def test_a_stream_resumes_after_a_drop_without_missing_or_repeating_a_view(stack):
    async def go() -> None:
        async with AsyncClient(stack.api) as client:
            table = await client.create_table(4)
            seats = [await client.join(table.table_id, f"p{i}") for i in range(4)]
            await seats[0].start()
            seen: list[int] = []
            stream = seats[1].stream()
            seen.append((await anext(stream)).version)
            await seats[0].chat("one")
            seen.append((await anext(stream)).version)
            await stream.aclose()  # the connection drops …
            last = seen[-1]
            await seats[0].chat("two")  # … a change happens meanwhile …
            async with client.http.stream(
                "GET",
                f"/tables/{table.table_id}/stream",
                headers={**seats[1].headers, "Last-Event-ID": str(last)},
            ) as r:
                lines = r.aiter_lines()
                event_id = None
                async for line in lines:
                    if line.startswith("id:"):
                        event_id = int(line[3:])
                        break
            assert event_id is not None and event_id > last  # … and comes first on reconnect
            assert seen == sorted(set(seen))

    asyncio.run(go())


class Slim(msgspec.Struct):
    """A client's own view type: only what it reads."""

    version: int
    status: str
    legal_commands: list[dict]


def test_views_decoded_into_a_clients_own_type(stack):
    """``view_type``: a seat's views (read, a command's answer, a stream's events) decode into
    the client's own Struct, the other fields skipped; the lobby's calls are as before."""

    async def go() -> None:
        async with AsyncClient(stack.api, view_type=Slim) as client:
            table = await client.create_table(4)
            seats = [await client.join(table.table_id, f"p{i}") for i in range(4)]
            assert [s.seat for s in seats] == [0, 1, 2, 3]
            started = await seats[0].start()
            assert isinstance(started, Slim) and started.status == "playing"
            v = await seats[1].view()
            assert isinstance(v, Slim) and "arrange" in {c["type"] for c in v.legal_commands}
            stream = seats[2].stream()
            first = await anext(stream)
            assert isinstance(first, Slim)
            got = await seats[1].send(commands.Arrange(positions=(2, 1, 3)))
            assert isinstance(got, Slim) and got.version > v.version
            assert isinstance(await client.table(table.table_id), View)  # the public view: whole
            await stream.aclose()

    asyncio.run(go())
