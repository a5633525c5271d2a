"""A cache of folded tables that catches up from the event log on demand (every service keeps
one; the log stays the truth, the cache only saves re-reading it)."""

from __future__ import annotations

import asyncio

from gcbc.eventlog.port import EventLog
from gcbc.tablelog import Table


class TableCache:
    def __init__(self, log: EventLog) -> None:
        self.log = log
        self.tables: dict[str, Table] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    async def get(self, table_id: str, through: int | None = None) -> Table:
        """The table with every entry folded (``through``: stop after that sequence)."""
        t = self.tables.get(table_id)
        if t is None:
            t = self.tables[table_id] = Table(table_id)
        if through is not None and t.seq >= through:
            return t
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        async with lock:  # one catch-up at a time: entries are folded once, in order
            for stored in await self.log.read(table_id, after=t.seq):
                if through is not None and stored.seq > through:
                    break
                if stored.seq > t.seq:
                    t.apply(stored)
        return t

    def drop(self, table_id: str) -> None:
        self.tables.pop(table_id, None)
