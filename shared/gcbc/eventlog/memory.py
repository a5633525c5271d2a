"""An in-memory twin of the JetStream event log: the same rules (stale expectation refused,
duplicate message id acknowledged and not stored), for tests and the simulator."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator

from gcbc.contract.ids import checked
from gcbc.eventlog.port import AppendResult, Stored, WrongExpectedSequence


class MemoryEventLog:
    def __init__(self) -> None:
        self._entries: list[Stored] = []
        self._by_table: dict[str, list[Stored]] = {}
        self._ids: dict[str, int] = {}

    async def append(
        self, table: str, data: bytes, expected: int, msg_id: str | None = None
    ) -> AppendResult:
        mine = self._by_table.get(checked(table), [])
        last = mine[-1].seq if mine else 0
        if last != expected:  # JetStream checks the expectation before deduplicating
            raise WrongExpectedSequence(table, expected)
        if msg_id is not None and msg_id in self._ids:
            return AppendResult(seq=self._ids[msg_id], duplicate=True)
        stored = Stored(seq=len(self._entries) + 1, table=table, data=data, at=time.time())
        self._entries.append(stored)
        self._by_table.setdefault(table, []).append(stored)
        if msg_id is not None:
            self._ids[msg_id] = stored.seq
        return AppendResult(seq=stored.seq)

    async def last(self, table: str) -> Stored | None:
        mine = self._by_table.get(checked(table))
        return mine[-1] if mine else None

    async def read(self, table: str, after: int = 0) -> list[Stored]:
        return [s for s in self._by_table.get(checked(table), []) if s.seq > after]

    async def tables(self) -> AsyncIterator[str]:
        for t in list(self._by_table):
            yield t

    def all(self) -> list[Stored]:
        return list(self._entries)
