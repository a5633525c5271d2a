"""The rules worker across restarts, on its twins: a restarted worker reads the
deadline index instead of folding every table, loads a table from its snapshot and the entries
after it when a command (or a deadline) needs it, fires a deadline pending across the restart,
and keeps no finished table in memory."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import pytest

from gcbc.eventlog.memory import MemoryEventLog
from gcbc.eventlog.partitions import partition_of
from gcbc.eventlog.port import LogUnavailable
from gcbc.keyvalue.memory import MemoryKeyValue
from gcbc_contract import commands as C
from gcbc_contract import events as E
from gcbc_contract.entries import (
    CommandEntry,
    OutcomeEntry,
    RefusalEntry,
    decode_entry,
    encode_entry,
)
from services.common.deadlines import BUILT
from services.rules.service import DURABLE, run
from services.rules.worker import IMPORT_QUIET, RulesWorker
from tools import tablelogs


class Clock:
    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


async def until(check: Callable[[], bool], what: str) -> None:
    for _ in range(1000):
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(what)


class Running:
    """A worker running on the twins until ``stop`` (its stores outlive it: a restart)."""

    def __init__(self, events, snaps, index, clock, lobby_seconds: float = 1800.0) -> None:
        self.worker = RulesWorker(
            events, clock=clock, lobby_seconds=lobby_seconds, snapshots=snaps, deadlines=index
        )
        self.events = events
        self.stopping = asyncio.Event()
        self.task = asyncio.create_task(run(self.worker, self.stopping))

    async def idle(self) -> None:
        """Every entry handled and acknowledged, the index written (waits on state, not time)."""
        w = self.worker
        await until(
            lambda: self.events.pending(DURABLE) == 0 and w.index.built and not w.index.owed,
            "the worker did not catch up",
        )

    async def stop(self) -> None:
        self.stopping.set()
        await self.task


async def command(events: MemoryEventLog, table: str, c: object, at: float | None = None) -> int:
    last = await events.last(table)
    prev = last.seq if last else 0
    at_ms = int((at if at is not None else time.time()) * 1000)
    entry = CommandEntry(command=c, at=at_ms, prev=prev)  # type: ignore[arg-type]
    return (await events.append(table, encode_entry(entry), prev)).seq


async def answered(events: MemoryEventLog, table: str, seq: int) -> OutcomeEntry | RefusalEntry:
    for _ in range(1000):
        for s in await events.read(table, after=seq):
            entry = decode_entry(s.data)
            if isinstance(entry, OutcomeEntry | RefusalEntry) and entry.answers == seq:
                return entry
        await asyncio.sleep(0.01)
    raise AssertionError(f"#{seq} of {table} not answered")


async def opened(events: MemoryEventLog, table: str, at: float) -> None:
    """A table opened at ``at`` (its command and answer, as the services write them)."""
    seq = await command(events, table, C.OpenTable(table_id=table, seats=4), at)
    answer = OutcomeEntry(
        answers=seq, events=[E.TableOpened(table_id=table, seats=4)], at=int(at * 1000), prev=seq
    )
    await events.append(table, encode_entry(answer), seq)


def tables(n: int) -> list[str]:
    return [f"ab{i:014x}" for i in range(n)]


def test_a_restarted_worker_folds_only_the_table_it_is_asked_about():
    async def go():
        events, snaps, index, clock = MemoryEventLog(), MemoryKeyValue(), MemoryKeyValue(), Clock()
        first = Running(events, snaps, index, clock)
        for t in tables(60):
            await command(events, t, C.OpenTable(table_id=t, seats=4))
        await first.idle()
        assert len(first.worker.index.known) == 60  # each lobby's closing
        await first.stop()  # a snapshot of every table with entries since its last

        again = Running(events, snaps, index, clock)
        asked = tables(60)[7]
        seq = await command(events, asked, C.TakeSeat(name="late"))
        answer = await answered(events, asked, seq)
        assert isinstance(answer, OutcomeEntry)
        await again.idle()
        w = again.worker
        assert w.loads == 0  # the index is built: no table folded to learn its deadline
        assert w.folds == 1 and list(w.cache.tables) == [asked]
        assert w.snapshots.loaded == 1  # from its snapshot (and the entries after it)
        assert len(w.index.known) == 60
        await again.stop()

    asyncio.run(go())


def test_a_partition_handed_over_leaves_a_snapshot_of_each_of_its_tables_for_the_next_holder():
    """A clean stop hands every partition over: its tables are snapshotted before they are
    forgotten (else the next holder folds each from its log)."""

    async def go():
        events, snaps, index, clock = MemoryEventLog(), MemoryKeyValue(), MemoryKeyValue(), Clock()
        first = Running(events, snaps, index, clock)
        for t in tables(12):
            await command(events, t, C.OpenTable(table_id=t, seats=4))
        await first.idle()
        assert all([await snaps.get(t) is None for t in tables(12)])  # none owed yet
        await first.worker.share.leave()
        assert all([await snaps.get(t) is not None for t in tables(12)])
        await first.stop()

    asyncio.run(go())


def test_a_deadline_pending_across_a_restart_fires_without_folding_the_other_tables():
    async def go():
        events, snaps, index, clock = MemoryEventLog(), MemoryKeyValue(), MemoryKeyValue(), Clock()
        later = tables(20)
        for t in later:  # lobbies opened an hour from now: they close long after the first
            await opened(events, t, time.time() + 3600)
        first = Running(events, snaps, index, clock, lobby_seconds=60)
        soon = "cd00000000000001"
        await first.idle()
        for t in later:  # (their answers' time is what the lobby's time counts from)
            assert first.worker.index.known[t].when > clock.now + 50
        await command(events, soon, C.OpenTable(table_id=soon, seats=4))
        await first.idle()
        await first.stop()
        opened_at = first.worker.index.known[soon].when - 60

        clock.now = opened_at + 61  # the lobby's time ran out while no worker ran
        again = Running(events, snaps, index, clock, lobby_seconds=60)
        await until(
            lambda: any(
                isinstance(e, E.TableClosed)
                for s in events.all()
                if s.table == soon
                for x in [decode_entry(s.data)]
                if isinstance(x, OutcomeEntry)
                for e in x.events
            ),
            "the lobby did not close",
        )
        await again.idle()
        w = again.worker
        assert w.folds == 1 and w.loads == 0  # only the table whose deadline came
        assert soon not in w.cache.tables and soon not in w.index.known  # closed: finished
        assert await index.get(soon) is None
        await again.stop()

    asyncio.run(go())


def test_an_imported_table_is_left_to_its_import_until_its_log_is_quiet():
    """Before: a copy of a game played with short deadlines, being imported, had its waits
    (stamped where it was played) fired by the rules worker between two of the import's appends:
    the import then stopped, the table moved under it. Nothing is fired on an imported table
    until its log has been quiet ``IMPORT_QUIET`` seconds; then it is played as any other."""

    def closed(table_id: str) -> bool:  # the worker's closing appended (answered later)
        return any(
            isinstance(x, CommandEntry) and isinstance(x.command, C.CloseTable)
            for s in events.all()
            if s.table == table_id
            for x in [decode_entry(s.data)]
        )

    events = MemoryEventLog()

    async def go():
        snaps, index, clock = MemoryKeyValue(), MemoryKeyValue(), Clock()
        t = "ef0000000000000a"
        steps = tablelogs.play(t, 4, 3, finish=False)  # a lobby, half full
        await tablelogs.write_table(events, steps, t, imported=True)
        running = Running(events, snaps, index, clock, lobby_seconds=1.0)
        await running.idle()
        clock.now += 5  # its lobby's time long up, its import a moment ago
        await running.worker.sweep_deadlines()
        assert not closed(t)
        clock.now += IMPORT_QUIET
        await running.worker.sweep_deadlines()
        assert closed(t)
        await running.stop()

    asyncio.run(go())


def test_finished_tables_leave_memory_and_a_late_command_is_answered_from_the_snapshot():
    async def go():
        events, snaps, index, clock = MemoryEventLog(), MemoryKeyValue(), MemoryKeyValue(), Clock()
        t = "ef00000000000001"
        await tablelogs.write_table(events, tablelogs.play(t, 4, 11), t)  # a whole game
        running = Running(events, snaps, index, clock)
        await running.idle()
        w = running.worker
        assert t not in w.cache.tables and t not in w.index.known
        await until(lambda: t in snaps.values, "no last snapshot")  # written in the background
        seq = await command(events, t, C.PostChat(seat=0, text="gg"))
        answer = await answered(events, t, seq)
        assert isinstance(answer, RefusalEntry | OutcomeEntry)
        await running.idle()
        assert w.snapshots.loaded == 1 and t not in w.cache.tables
        await running.stop()

    asyncio.run(go())


def test_a_command_sent_as_its_table_ended_is_answered_whoever_answered_the_end():
    """Before: two instances overlapping on a table (a handover), the other answered the entry
    that finished it; this one, folding on, caught up to a command sent just after, unanswered,
    took the table for finished there and acknowledged that command unanswered: every later
    command of the table was refused ``table_busy`` for ever."""

    async def go():
        events = MemoryEventLog()
        a, b = (
            RulesWorker(events, snapshots=MemoryKeyValue(), deadlines=MemoryKeyValue())
            for _ in range(2)
        )
        t = "ef00000000000009"
        await command(events, t, C.OpenTable(table_id=t, seats=4))
        await a.handle((await events.read(t))[-1])
        await command(events, t, C.CloseTable())  # the lobby's time is up
        closing = (await events.read(t))[-1]
        await b.handle(closing)  # the other instance answers it first: finished
        late = await command(events, t, C.PostChat(seat=0, text="gg"))
        await a.handle(closing)  # this one's handling of the same entry goes on
        await a.handle((await events.read(t))[-1])
        assert isinstance(await answered(events, t, late), RefusalEntry | OutcomeEntry)
        assert t not in a.cache.tables  # answered: finished, and gone from memory

    asyncio.run(go())


def test_a_log_from_before_the_index_is_folded_once_and_the_index_marked_built():
    async def go():
        events, snaps, index, clock = MemoryEventLog(), MemoryKeyValue(), MemoryKeyValue(), Clock()
        for t in tables(30):  # appended and answered before any index existed
            await opened(events, t, time.time())
        first = Running(events, snaps, index, clock)
        await first.idle()
        assert first.worker.loads == 1 and len(first.worker.index.known) == 30
        assert await index.get(BUILT) is not None
        await first.stop()
        again = Running(events, snaps, index, clock)
        await until(lambda: len(again.worker.index.known) == 30, "the index was not read")
        await again.idle()
        assert again.worker.loads == 0 and again.worker.folds == 0
        await again.stop()

    asyncio.run(go())


def test_tables_nobody_touches_leave_memory_and_come_back_for_a_command():
    async def go():
        events, snaps, index, clock = MemoryEventLog(), MemoryKeyValue(), MemoryKeyValue(), Clock()
        running = Running(events, snaps, index, clock)
        for t in tables(20):
            await command(events, t, C.OpenTable(table_id=t, seats=4))
        await running.idle()
        w = running.worker
        assert len(w.cache.tables) == 20 and w.rest() == 0  # just touched
        clock.now += w.IDLE_AFTER + 1  # a minute later: their lobbies close in half an hour
        assert w.rest() == 20 and not w.cache.tables
        await until(lambda: len(snaps.values) == 20, "no snapshot written")
        asked = tables(20)[3]
        seq = await command(events, asked, C.TakeSeat(name="back"))
        assert isinstance(await answered(events, asked, seq), OutcomeEntry)
        assert list(w.cache.tables) == [asked] and w.snapshots.loaded == 1
        assert len(w.index.known) == 20
        await running.stop()

    asyncio.run(go())


def _closed(events: MemoryEventLog) -> set[str]:
    return {
        s.table
        for s in events.all()
        for x in [decode_entry(s.data)]
        if isinstance(x, CommandEntry) and isinstance(x.command, C.CloseTable)
    }


class Held:
    """The partitions this instance holds, as a test says (``Partitions``' ``owns``)."""

    def __init__(self) -> None:
        self.tables: set[str] = set()

    def owns(self, table: str) -> bool:
        return table in self.tables


def test_a_deadline_due_while_another_instance_held_the_table_fires_once_it_is_taken():
    async def go():
        events, clock = MemoryEventLog(), Clock()
        worker = RulesWorker(events, clock=clock, lobby_seconds=60)
        held = Held()
        worker.share = held  # type: ignore[assignment]
        t = tables(1)[0]
        await opened(events, t, clock.now - 120)  # its lobby's time ran out a minute ago
        worker.index.note(t, clock.now - 60, 2)  # as the index read at start says
        assert await worker.sweep_deadlines() == 0  # another instance's: passed over
        held.tables.add(t)
        assert await worker.sweep_deadlines() == 0  # (the index handed it over once)
        worker.take(partition_of(t, events.partitions))
        assert await worker.sweep_deadlines() == 1 and _closed(events) == {t}

    asyncio.run(go())


def test_a_table_that_cannot_be_folded_holds_back_no_other_tables_deadline():
    async def go():
        events, clock = MemoryEventLog(), Clock()
        worker = RulesWorker(events, clock=clock, lobby_seconds=60)
        overdue = tables(4)
        for t in overdue:
            await opened(events, t, clock.now - 120)
            worker.index.note(t, clock.now - 60, 2)
        real, calls = worker.cache.get, []

        async def get(table_id, through=None):
            calls.append(table_id)
            if table_id == overdue[0]:
                raise ValueError("a fold that fails")
            if table_id == overdue[1] and calls.count(table_id) == 1:
                raise LogUnavailable("connection closed")  # once: every table waits for it
            return await real(table_id, through)

        worker.cache.get = get  # type: ignore[method-assign]
        with pytest.raises(LogUnavailable):
            await worker.sweep_deadlines()
        await worker.sweep_deadlines()
        assert _closed(events) == set(overdue[1:])
        tried = calls.count(overdue[0])
        await worker.sweep_deadlines()  # the failing one is not tried at every sweep
        assert calls.count(overdue[0]) == tried
        clock.now += worker.RETRY_FOLD + 1
        await worker.sweep_deadlines()
        assert calls.count(overdue[0]) == tried + 1

    asyncio.run(go())


def test_a_system_command_deduplicated_is_not_counted_as_fired():
    """The same deadline sent again (its first was refused, the wait as it was) lands nowhere
    new: it is not counted, nor logged, as fired again."""

    async def go():
        events, clock = MemoryEventLog(), Clock()
        worker = RulesWorker(events, clock=clock)
        t = tables(1)[0]
        await opened(events, t, clock.now)
        table = await worker.cache.get(t)
        assert await worker._system(table, C.CloseTable(), f"close:{t}")
        table = await worker.cache.get(t)  # (the close appended, not answered: no worker runs)
        assert not await worker._system(table, C.CloseTable(), f"close:{t}")
        assert len(await events.read(t)) == 3

    asyncio.run(go())


def test_after_a_long_stop_the_first_deadlines_fire_before_every_overdue_table_is_folded():
    async def go():
        events, clock = MemoryEventLog(), Clock()
        worker = RulesWorker(events, clock=clock, lobby_seconds=60)
        worker.LOADS_PER_SWEEP = 2
        overdue = tables(5)
        for t in overdue:
            await opened(events, t, clock.now - 120)
            worker.index.note(t, clock.now - 60, 2)
        fired = [await worker.sweep_deadlines() for _ in range(3)]
        assert fired == [2, 2, 1] and _closed(events) == set(overdue)

    asyncio.run(go())
