"""The ratings' and players' consumers of the projection: one process at a time consumes each
(its entries in the log's order), and another takes over once it stops."""

from __future__ import annotations

import asyncio

from gcbc.eventlog.leases import MemoryLeases
from gcbc.eventlog.memory import MemoryEventLog
from gcbc.eventlog.port import Stored
from services.projection.ratings import consume_alone


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
