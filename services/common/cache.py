"""A cache of folded tables that catches up from the event log on demand (every service keeps
one; the log stays the truth, the cache only saves re-reading it)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec

from gcbc.eventlog.port import EventLog, Stored
from gcbc.eventlog.records import entry_of, entry_or_none
from gcbc_contract.entries import NewerSchema, OutcomeEntry, RefusalEntry
from services.common import metrics
from services.common.folded import FoldedTable

# a table nobody asked for and nothing was folded into for this long leaves a service's memory
# (a table at rest costs nothing); read again from the log if asked for
IDLE_SECONDS = 120.0


class FoldedCache:
    # finished tables kept in memory, the most recent (their late readers: a history, a rematch);
    # older ones cost nothing but their id and are read again if asked for
    KEEP_FINISHED = 200
    # entries folded between two turns of the event loop while a log is read (a few ms' worth)
    FOLD_SLICE = 256

    def __init__(
        self,
        log: EventLog,
        keep_finished: int = KEEP_FINISHED,
        restore: Callable[[str], Awaitable[FoldedTable | None]] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``keep_finished``: finished tables kept in memory (0: none);
        ``restore``: where a table not in memory starts from (its snapshot), before the entries
        after it are read."""
        self.log = log
        self.keep_finished = keep_finished
        self.restore = restore
        self.tables: dict[str, FoldedTable] = {}
        self._finished: dict[str, None] = {}  # finished tables in memory, oldest first
        self._locks: dict[str, asyncio.Lock] = {}
        self._changed: dict[str, asyncio.Event] = {}
        self.clock = clock
        self._touched: dict[str, float] = {}  # table -> when it was last asked for or folded

    def _signal(self, table_id: str) -> None:
        event = self._changed.pop(table_id, None)
        if event is not None:
            event.set()

    def waiter(self, table_id: str) -> asyncio.Event:
        """The event the table's next folded entry sets (take it before looking)."""
        event = self._changed.get(table_id)
        if event is None:
            event = self._changed[table_id] = asyncio.Event()
        return event

    async def changed(
        self, table_id: str, timeout: float, event: asyncio.Event | None = None
    ) -> None:
        """Wait until an entry of the table is folded (or ``timeout``)."""
        event = event or self.waiter(table_id)
        try:
            async with asyncio.timeout(timeout):  # (no task made per wait, as wait_for does)
                await event.wait()
        except TimeoutError:
            pass

    async def reached(self, table_id: str, seq: int, timeout: float) -> FoldedTable | None:
        """The table in memory once it has folded entry ``seq`` (a service following the log
        soon does, without reading it), or None: not in memory, or not there after ``timeout``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            t = self.tables.get(table_id)
            if t is None or t.seq >= seq:
                return t
            left = deadline - loop.time()
            if left <= 0:
                return None
            await self.changed(table_id, left)

    async def get(self, table_id: str, through: int | None = None) -> FoldedTable:
        """The table with every entry folded (``through``: stop after that sequence)."""
        self._touched[table_id] = self.clock()
        t = self.tables.get(table_id)
        if t is None and self.restore is not None:
            t = await self._restored(table_id)
        if t is None:
            t = self.tables[table_id] = FoldedTable(table_id)
        if through is not None and t.seq >= through:
            return t
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        async with lock:  # one catch-up at a time: entries are folded once, in order
            metrics.LOG_READS.inc()
            for n, stored in enumerate(await self.log.read(table_id, after=t.seq), 1):
                if through is not None and stored.seq > through:
                    break
                if stored.seq > t.seq:
                    t.apply(stored)
                    self._signal(table_id)
                if n % self.FOLD_SLICE == 0:
                    await asyncio.sleep(0)  # a long log folds in slices: other requests go on
        if t.seq == 0:
            # no such table (yet): nothing is kept, so probing ids costs no memory
            if self.tables.get(table_id) is t:
                del self.tables[table_id]
            self._locks.pop(table_id, None)
            self._touched.pop(table_id, None)
            return t
        self._note_finished(t)
        return t

    async def _restored(self, table_id: str) -> FoldedTable | None:
        """The table from its snapshot, unless someone put it in memory meanwhile."""
        assert self.restore is not None
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        async with lock:
            t = self.tables.get(table_id)
            if t is None:
                restored = await self.restore(table_id)
                t = self.tables.get(table_id)
                if t is None and restored is not None:
                    t = self.tables[table_id] = restored
        return t

    def _note_finished(self, t: FoldedTable) -> None:
        """Bound the memory: a finished table needs no deadline and rarely a read."""
        if t.state.step != "finished" or t.table_id in self._finished:
            return
        self._finished[t.table_id] = None
        while len(self._finished) > self.keep_finished:
            old = next(iter(self._finished))
            del self._finished[old]
            self.tables.pop(old, None)
            self._locks.pop(old, None)
            self._changed.pop(old, None)
            self._touched.pop(old, None)

    async def deliver(self, stored: Stored) -> FoldedTable:
        """Fold an entry handed over by a consumer: directly when it follows what the cache has
        (its ``prev``), else by catching up from the log."""
        t = self.tables.get(stored.table)
        if t is not None and t.seq >= stored.seq:
            return t
        self._touched[stored.table] = self.clock()
        try:
            entry = entry_of(stored)
            prev = entry.prev
        except NewerSchema:
            raise  # never stepped over (FoldedTable.apply)
        except msgspec.DecodeError:
            entry, prev = None, -1  # not an entry: the catch-up below steps over it in its place
        # an answer (handed to a reader of the answers alone) follows what the cache has
        # through the command it carries
        command = entry.command if isinstance(entry, OutcomeEntry | RefusalEntry) else None
        chained = command.prev if command is not None else -1
        lock = self._locks.get(stored.table)
        if t is None and (prev == 0 or chained == 0):
            t = self.tables[stored.table] = FoldedTable(stored.table)
        if t is not None and (lock is None or not lock.locked()):
            if t.seq != prev and t.seq != chained and prev > t.seq:
                # one entry missed, of a kind this reader is not handed (an imported command's
                # recorded answer): that one read, rather than the table's tail
                missed = await self._missed(t, prev)
                if missed is not None and self.tables.get(t.table_id) is t:
                    t.apply(*missed)  # (it follows t as t is now: no wait between)
            if t.seq == prev or t.seq == chained:
                t.apply(stored, entry)  # decoded once
                self._signal(stored.table)
                self._note_finished(t)
                return t
        return await self.get(stored.table, through=stored.seq)

    async def _missed(self, t: FoldedTable, seq: int) -> tuple[Stored, Any] | None:
        """The entry at ``seq`` if it follows what the table has once read (and its
        decoding)."""
        got = await self.log.at(t.table_id, seq)
        if got is None:
            return None
        entry = entry_or_none(got)
        return (got, entry) if entry is not None and entry.prev == t.seq else None

    def forget_idle(self, seconds: float) -> int:
        """Forget the tables nobody asked for and nothing was folded into for ``seconds`` (read
        again if asked for: a table at rest costs no memory); how many were forgotten."""
        since = self.clock() - seconds
        idle = [table for table, when in self._touched.items() if when < since]
        forgotten = 0
        for table in idle:
            lock = self._locks.get(table)
            if lock is not None and lock.locked():
                continue  # being read right now
            forgotten += table in self.tables
            self.drop(table)
            self._changed.pop(table, None)
        return forgotten

    def drop(self, table_id: str) -> None:
        """Forget the table (read again if asked for)."""
        self._touched.pop(table_id, None)
        self.tables.pop(table_id, None)
        self._finished.pop(table_id, None)
        lock = self._locks.get(table_id)
        if lock is not None and not lock.locked():
            del self._locks[table_id]
