"""The folded-table cache (services/common/cache.py): entries are decoded once; tables at rest
leave memory and are read again from the log when asked for."""

from __future__ import annotations

import asyncio

from gcbc.eventlog.memory import MemoryEventLog
from gcbc.rules.decide import run
from gcbc.rules.state import initial_state
from gcbc_contract import commands as C
from gcbc_contract.entries import CommandEntry, OutcomeEntry, encode_entry
from services.common.cache import FoldedCache
from services.common.folded import FoldedTable

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


def test_a_check_waits_for_the_followed_entry_instead_of_reading_the_log() -> None:
    """``reached``: a table in memory is handed the entry a moment later by the service's
    follower (no read of the log); not in memory, or not there in time: None (the caller
    reads)."""

    async def go() -> None:
        log = MemoryEventLog()
        await opened(log, TABLES[0])
        cache = FoldedCache(log)
        first, second = log.all()
        await cache.deliver(first)
        reads = 0
        read = log.read

        async def counted(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
            nonlocal reads
            reads += 1
            return await read(*args, **kwargs)

        log.read = counted  # type: ignore[method-assign]
        waiting = asyncio.create_task(cache.reached(TABLES[0], second.seq, 5.0))
        await asyncio.sleep(0.01)
        assert not waiting.done()
        await cache.deliver(second)  # the follower
        t = await waiting
        assert t is not None and t.seq == second.seq and reads == 0
        assert await cache.reached(TABLES[0], second.seq + 1, 0.05) is None  # not in time
        assert await cache.reached(TABLES[1], 1, 5.0) is None  # not in memory: not waited for
        assert reads == 0

    asyncio.run(go())


class Counting(MemoryEventLog):
    """The twin, counting its reads."""

    def __init__(self) -> None:
        super().__init__()
        self.reads = self.ats = 0

    async def read(self, table: str, after: int = 0):  # type: ignore[no-untyped-def]
        self.reads += 1
        return await super().read(table, after)

    async def at(self, table: str, seq: int):  # type: ignore[no-untyped-def]
        self.ats += 1
        return await super().at(table, seq)


async def _played(log: MemoryEventLog, table: str) -> None:
    """A table opened and seated, each command followed by its answer, which carries it (as the
    rules worker writes it)."""
    s, last = initial_state(), 0
    commands = [C.OpenTable(table_id=table, seats=4), *(C.TakeSeat(name=f"p{i}") for i in range(4))]
    for command in commands:
        entry = CommandEntry(command=command, at=1, prev=last)
        asked = (await log.append(table, encode_entry(entry), last)).seq
        s, events = run(s, command)
        answer = OutcomeEntry(answers=asked, events=events, prev=asked, command=entry)
        last = (await log.append(table, encode_entry(answer), asked, answer=True)).seq


def test_a_reader_of_one_kind_folds_the_other_kind_it_was_not_handed() -> None:
    """The answers alone fold the table through the commands they carry (no read at all); the
    commands alone read each missed answer once, by its sequence, never the table's tail."""

    async def go() -> None:
        log = Counting()
        await _played(log, TABLES[0])
        for kind in (True, False):  # the answers alone, then the commands alone
            handed = [s for s in log.all() if (s.seq in log._answers) == kind]  # noqa: SLF001
            whole = FoldedTable(TABLES[0])  # every entry up to the last one handed
            for stored in log.all()[: handed[-1].seq]:
                whole.apply(stored)
            log.reads = log.ats = 0
            cache = FoldedCache(log)
            for stored in handed:
                await cache.deliver(stored)
            t = cache.tables[TABLES[0]]
            assert (t.seq, t.state, t.tokens) == (whole.seq, whole.state, whole.tokens)
            assert t.command_ids == whole.command_ids and t.pending == whole.pending
            assert log.reads == 0, kind
            # each answer before the last command handed
            missed = 0 if kind else 4
            assert log.ats == missed, (kind, log.ats)

    asyncio.run(go())


def test_a_long_log_is_folded_in_slices_between_other_requests() -> None:
    """A table read whole from the log (a late seat, a look at a table at rest) must not hold
    the event loop for its whole length: every ``FOLD_SLICE`` entries the others go on."""

    async def go() -> None:
        log = MemoryEventLog()
        await opened(log, TABLES[0])
        s, _ = run(initial_state(), C.OpenTable(table_id=TABLES[0], seats=4))
        last = 2
        for i in range(4):
            command = C.TakeSeat(name=f"p{i}")
            sent = await log.append(TABLES[0], encode_entry(CommandEntry(command=command)), last)
            s, events = run(s, command)
            answer = OutcomeEntry(answers=sent.seq, events=events, prev=sent.seq)
            last = (await log.append(TABLES[0], encode_entry(answer), sent.seq)).seq
        cache = FoldedCache(log)
        cache.FOLD_SLICE = 2
        turns = 0

        async def elsewhere() -> None:
            nonlocal turns
            while True:
                turns += 1
                await asyncio.sleep(0)

        other = asyncio.create_task(elsewhere())
        await asyncio.sleep(0)
        before = turns
        t = await cache.get(TABLES[0])
        other.cancel()
        assert t.seq == last == 10 and len(t.state.seats) == 4
        assert turns - before >= 4  # a turn of the others after each slice of 2 of the 10

    asyncio.run(go())
