"""The folded-table cache (services/common/cache.py): entries are decoded once; tables at rest
leave memory and are read again from the log when asked for."""

from __future__ import annotations

import asyncio

from gcbc.contract import commands as C
from gcbc.contract.entries import CommandEntry, OutcomeEntry, encode_entry
from gcbc.eventlog.memory import MemoryEventLog
from gcbc.rules.decide import run
from gcbc.rules.state import initial_state
from services.common.cache import FoldedCache

TABLES = ("00000000000000a1", "00000000000000a2")


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def opened(log: MemoryEventLog, table: str) -> None:
    command = C.OpenTable(table_id=table, seats=4)
    first = await log.append(table, encode_entry(CommandEntry(command=command, at=1)), 0)
    _, events = run(initial_state(), command)
    answer = OutcomeEntry(answers=first.seq, events=events, prev=first.seq)
    await log.append(table, encode_entry(answer), first.seq)


def test_tables_at_rest_leave_memory_and_come_back_from_the_log() -> None:
    async def go() -> None:
        log, clock = MemoryEventLog(), Clock()
        for table in TABLES:
            await opened(log, table)
        cache = FoldedCache(log, clock=clock)
        for stored in log.all():
            await cache.deliver(stored)
        assert set(cache.tables) == set(TABLES)
        clock.now = 100.0
        await cache.get(TABLES[1])  # asked for: not at rest
        clock.now = 150.0
        assert cache.forget_idle(120.0) == 1
        assert list(cache.tables) == [TABLES[1]]
        again = await cache.get(TABLES[0])  # read again, whole
        assert again.seq == 2 and again.state.table_id == TABLES[0]
        assert cache.forget_idle(120.0) == 0
        # an id nobody opened leaves nothing behind, not even a time
        await cache.get("00000000000000ff")
        assert "00000000000000ff" not in cache._touched  # noqa: SLF001

    asyncio.run(go())
