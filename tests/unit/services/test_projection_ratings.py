"""The ratings' and players' consumers of the projection: one process at a time consumes each
(its entries in the log's order), and another takes over once it stops; after a wipe of their
store, the players and the ratings are made again from their logs."""

from __future__ import annotations

import asyncio

from gcbc.eventlog.leases import MemoryLeases
from gcbc.eventlog.memory import MemoryEventLog
from gcbc.eventlog.port import LogUnavailable, Stored
from gcbc.playermodel.memory import MemoryPlayerModel
from gcbc.players.log import PlayerLog
from gcbc.readmodel.memory import MemoryReadModel
from services.projection.ratings import consume_alone, rebuild_players
from services.projection.service import Projection


def test_one_process_at_a_time_consumes_and_another_takes_over_once_it_stops():
    async def go():
        events, leases = MemoryEventLog(), MemoryLeases(ttl=0.3)
        handled: dict[str, list[int]] = {"a": [], "b": []}

        def handler(name: str):
            async def handle(stored: Stored) -> None:
                handled[name].append(stored.seq)

            return handle

        stops = {name: asyncio.Event() for name in handled}
        running = {
            name: asyncio.create_task(
                consume_alone(events, "ratings", handler(name), stops[name], leases, name)
            )
            for name in handled
        }
        for i in range(20):
            await events.append(f"{i:016x}", b"{}", 0)
        for _ in range(300):
            if len(handled["a"]) + len(handled["b"]) == 20:
                break
            await asyncio.sleep(0.01)
        first = "a" if handled["a"] else "b"
        other = "b" if first == "a" else "a"
        assert handled[first] == sorted(handled[first]) and len(handled[first]) == 20
        assert handled[other] == []  # never both: each would take part of the log
        stops[first].set()
        await running[first]
        for i in range(20, 25):
            await events.append(f"{i:016x}", b"{}", 0)
        for _ in range(300):
            if len(handled[other]) == 5:
                break
            await asyncio.sleep(0.01)
        assert len(handled[other]) == 5 and len(handled[first]) == 20
        stops[other].set()
        await running[other]

    asyncio.run(go())


def test_a_wiped_store_gets_its_players_and_ratings_made_again_past_a_failure():
    """The players' read model and the ratings live beside the views: a wipe loses them, and
    their consumers acknowledged every entry long ago, so the projection that claims the wiped
    store's epoch makes them again from their logs (tried again till it is done)."""

    async def go():
        tables, players = MemoryEventLog(), MemoryEventLog()
        for name in ("ann", "bob"):
            await PlayerLog(players).register(name, bot=False)
        model, player_model = MemoryReadModel(), MemoryPlayerModel()
        projection = Projection(tables, model)
        tries = []

        async def rebuild() -> None:
            tries.append(1)
            if len(tries) == 1:
                raise LogUnavailable("connection closed")
            await rebuild_players(players, tables, player_model)

        projection.after_wipe = rebuild
        stop = asyncio.Event()
        watching = asyncio.create_task(projection.watch_read_model(stop, every=0.05))
        for _ in range(300):  # a new store: its epoch claimed, as after a wipe
            if len(tries) == 2:
                break
            await asyncio.sleep(0.01)
        assert len(tries) == 2
        assert [r.name for r in await player_model.players()] == ["ann", "bob"]
        assert await player_model.rated_position() == 0  # (no rated table in this log)
        stop.set()
        await watching

    asyncio.run(go())
