"""An in-memory twin of the JetStream event log: the same rules (stale expectation refused,
duplicate message id acknowledged and not stored, durable group consumers that go on where they
stopped, followers from a position), for tests, service loops on their twins and the simulator."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator

from gcbc.contract.ids import checked
from gcbc.eventlog.port import (
    AppendResult,
    BatchHandler,
    GroupStatus,
    Handler,
    LogStatus,
    Skip,
    Stored,
    WrongExpectedSequence,
    one_by_one,
)

SCAN_BATCH = 1000

RETRY = 0.05  # seconds before an entry whose handler failed is delivered again


class _Feed:
    """Entries handed to one handler in order, every entry already queued at once; a failed
    entry is delivered again (before any entry that came after its batch)."""

    BATCH = 256

    def __init__(
        self, handle: BatchHandler, on_done: object = None, table: str | None = None
    ) -> None:
        self.handle = handle
        self.table = table  # only this table's entries (None: every table's)
        self.queue: asyncio.Queue[Stored] = asyncio.Queue()
        self.on_done = on_done  # called with each entry once handled (a group's position)
        self.task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        while True:
            batch = [await self.queue.get()]
            while len(batch) < self.BATCH and not self.queue.empty():
                batch.append(self.queue.get_nowait())
            while batch:
                try:
                    results = await self.handle(batch)
                except Exception as e:  # noqa: BLE001  (the whole batch is delivered again)
                    results = [e] * len(batch)
                again = [
                    stored
                    for stored, result in zip(batch, results, strict=True)
                    if result is not None and not isinstance(result, Skip)
                ]
                if self.on_done is not None:
                    for stored in batch:
                        if stored not in again:
                            self.on_done(stored)  # type: ignore[operator]
                batch = again  # only the failed ones are delivered again, as JetStream does
                if batch:
                    await asyncio.sleep(RETRY)

    async def close(self) -> None:
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task


class MemoryEventLog:
    def __init__(self) -> None:
        self._entries: list[Stored] = []
        self._by_table: dict[str, list[Stored]] = {}
        self._ids: dict[str, int] = {}
        self._followers: list[_Feed] = []
        self._groups: dict[str, int] = {}  # group -> the position it handled up to
        self._members: dict[str, _Feed] = {}  # group -> its live member

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
        for feed in (*self._followers, *self._members.values()):
            if feed.table is None or feed.table == table:
                feed.queue.put_nowait(stored)
        return AppendResult(seq=stored.seq)

    async def last(self, table: str) -> Stored | None:
        mine = self._by_table.get(checked(table))
        return mine[-1] if mine else None

    async def read(self, table: str, after: int = 0) -> list[Stored]:
        return [s for s in self._by_table.get(checked(table), []) if s.seq > after]

    async def tables(self) -> AsyncIterator[str]:
        for t in list(self._by_table):
            yield t

    async def scan(self, after: int = 0, until: int | None = None) -> AsyncIterator[list[Stored]]:
        until = len(self._entries) if until is None else until
        for start in range(after, until, SCAN_BATCH):
            yield self._entries[start : min(until, start + SCAN_BATCH)]

    async def sizes(self) -> tuple[int, dict[str, int]]:
        return len(self._entries), {t: len(x) for t, x in self._by_table.items()}

    async def group(self, name: str) -> GroupStatus | None:
        if name not in self._groups:
            return None
        done = self._groups[name]
        pending = [s for s in self._entries if s.seq > done]
        return GroupStatus(
            name=name,
            pending=len(pending),
            delivered=done,
            acked=done,
            oldest_at=pending[0].at if pending else None,
        )

    async def status(self) -> LogStatus:
        groups = [await self.group(name) for name in sorted(self._groups)]
        return LogStatus(
            entries=len(self._entries),
            bytes=sum(len(s.data) for s in self._entries),
            first=1 if self._entries else 0,
            last=len(self._entries),
            last_at=self._entries[-1].at if self._entries else None,
            tables=len(self._by_table),
            groups=[g for g in groups if g is not None],
        )

    async def consume(self, group: str, handle: Handler, ack_wait: float = 30) -> _Member:
        return await self.consume_batches(group, one_by_one(handle), ack_wait)

    async def consume_batches(
        self, group: str, handle: BatchHandler, ack_wait: float = 30
    ) -> _Member:
        """One live member per group here (a second one replaces the first): enough for tests."""
        old = self._members.pop(group, None)
        if old is not None:
            await old.close()
        done = self._groups.setdefault(group, 0)

        def handled(stored: Stored) -> None:
            self._groups[group] = max(self._groups[group], stored.seq)

        feed = _Feed(handle, handled)
        for stored in self._entries:
            if stored.seq > done:
                feed.queue.put_nowait(stored)
        self._members[group] = feed
        return _Member(self, group, feed)

    async def follow(
        self, handle: Handler, after: int | None = None, table: str | None = None
    ) -> _Follower:
        feed = _Feed(one_by_one(handle), table=None if table is None else checked(table))
        if after is not None:
            for stored in self._entries:
                if stored.seq > after and (table is None or stored.table == table):
                    feed.queue.put_nowait(stored)
        self._followers.append(feed)
        return _Follower(self, feed)

    async def close(self) -> None:
        for feed in (*self._followers, *self._members.values()):
            await feed.close()
        self._followers.clear()
        self._members.clear()

    def all(self) -> list[Stored]:
        return list(self._entries)

    def pending(self, group: str) -> int:
        """Entries the group has not handled yet (tests wait on it, never on time)."""
        return sum(1 for s in self._entries if s.seq > self._groups.get(group, 0))


class _Member:
    def __init__(self, log: MemoryEventLog, group: str, feed: _Feed) -> None:
        self.log, self.group, self.feed = log, group, feed

    async def close(self) -> None:
        if self.log._members.get(self.group) is self.feed:  # noqa: SLF001
            del self.log._members[self.group]  # noqa: SLF001
        await self.feed.close()


class _Follower:
    def __init__(self, log: MemoryEventLog, feed: _Feed) -> None:
        self.log, self.feed = log, feed

    async def close(self) -> None:
        if self.feed in self.log._followers:  # noqa: SLF001
            self.log._followers.remove(self.feed)  # noqa: SLF001
        await self.feed.close()
