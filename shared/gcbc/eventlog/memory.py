"""An in-memory twin of the JetStream event log: the same rules (stale expectation refused,
duplicate message id acknowledged and not stored, durable group consumers that go on where they
stopped, followers from a position), for tests, service loops on their twins and the simulator."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import time
from collections.abc import AsyncIterator, Awaitable, Callable

from gcbc.eventlog.partitions import PARTITIONS, group_of, partition_group, partition_of
from gcbc.eventlog.port import (
    AppendResult,
    BatchHandler,
    FullLog,
    GroupStatus,
    Handler,
    LogStatus,
    Only,
    Skip,
    Stored,
    WrongExpectedSequence,
    combined,
    not_empty,
    one_by_one,
)
from gcbc_contract.ids import checked

SCAN_BATCH = 1000

RETRY = 0.05  # seconds before an entry whose handler failed is delivered again


class _Feed:
    """Entries handed to one handler in order, every entry already queued at once; a failed
    entry is delivered again (before any entry that came after its batch). A group member's or a
    follower's subscription: closing it takes it off the log's list (``unlist``)."""

    BATCH = 256

    def __init__(
        self,
        handle: BatchHandler,
        on_done: object = None,
        table: str | None = None,
        partition: int | None = None,
        only: Only = None,
    ) -> None:
        self.handle = handle
        self.table = table  # only this table's entries (None: every table's)
        self.partition = partition  # only this partition's tables (None: every one's)
        self.only = only  # only the commands, or only the answers (None: both)
        self.queue: asyncio.Queue[Stored] = asyncio.Queue()
        self.on_done = on_done  # called with each entry once handled (a group's position)
        self.later: set[asyncio.Task] = set()  # entries acknowledged once their work is done
        self.unlist: Callable[[], None] = lambda: None
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
                again = []
                waiting: dict[int, tuple[Awaitable[object], list[Stored]]] = {}
                for stored, result in zip(batch, results, strict=True):
                    if inspect.isawaitable(result):  # acknowledged once it is done; go on
                        waiting.setdefault(id(result), (result, []))[1].append(stored)
                    elif result is not None and not isinstance(result, Skip):
                        again.append(stored)
                    else:
                        self._done(stored)
                for later, held in waiting.values():
                    task = asyncio.create_task(self._after(held, later))
                    self.later.add(task)
                    task.add_done_callback(self.later.discard)
                batch = again  # only the failed ones are delivered again, as JetStream does
                if batch:
                    await asyncio.sleep(RETRY)

    async def _after(self, held: list[Stored], later: Awaitable[object]) -> None:
        try:
            # (shielded: the work may be shared with other entries, which a close must not cancel)
            await asyncio.shield(later)
        except Exception:  # noqa: BLE001  (not acknowledged: delivered again)
            await asyncio.sleep(RETRY)
            for stored in held:
                self.queue.put_nowait(stored)
            return
        for stored in held:
            self._done(stored)

    def _done(self, stored: Stored) -> None:
        if self.on_done is not None:
            self.on_done(stored)  # type: ignore[operator]

    async def close(self) -> None:
        self.unlist()
        for task in (self.task, *self.later):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


class MemoryEventLog(FullLog):
    def __init__(self, partitions: int = PARTITIONS) -> None:
        self.partitions = partitions
        self._entries: list[Stored] = []
        self._by_table: dict[str, list[Stored]] = {}
        self._ids: dict[str, int] = {}
        self._followers: set[_Feed] = set()
        self._groups: dict[str, int] = {}  # group -> the position it handled everything up to
        self._acked: dict[str, set[int]] = {}  # group -> entries handled past that position
        self._members: dict[str, _Feed] = {}  # group -> its live member
        self._answers: set[int] = set()  # the entries appended as answers
        self._only: dict[str, Only] = {}  # group -> what it reads

    async def append(
        self,
        table: str,
        data: bytes,
        expected: int,
        msg_id: str | None = None,
        answer: bool = False,
    ) -> AppendResult:
        not_empty(data)
        mine = self._by_table.get(checked(table), [])
        last = mine[-1].seq if mine else 0
        if last != expected:  # JetStream checks the expectation before deduplicating
            raise WrongExpectedSequence(table, expected)
        if msg_id is not None and msg_id in self._ids:
            return AppendResult(seq=self._ids[msg_id], duplicate=True)
        stored = Stored(seq=len(self._entries) + 1, table=table, data=data, at=time.time())
        self._entries.append(stored)
        self._by_table.setdefault(table, []).append(stored)
        if answer:
            self._answers.add(stored.seq)
        if msg_id is not None:
            self._ids[msg_id] = stored.seq
        for feed in (*self._followers, *self._members.values()):
            if self._wants(feed, stored):
                feed.queue.put_nowait(stored)
        return AppendResult(seq=stored.seq)

    async def last(self, table: str) -> Stored | None:
        mine = self._by_table.get(checked(table))
        return mine[-1] if mine else None

    async def at(self, table: str, seq: int) -> Stored | None:
        if not 0 < seq <= len(self._entries):
            return None
        stored = self._entries[seq - 1]
        return stored if stored.table == checked(table) else None

    async def read(self, table: str, after: int = 0, most: int | None = None) -> list[Stored]:
        return [s for s in self._by_table.get(checked(table), []) if s.seq > after][:most]

    def _wants(self, feed: _Feed, stored: Stored) -> bool:
        return (feed.table is None or feed.table == stored.table) and self._reads(
            stored, feed.partition, feed.only
        )

    def _reads(self, stored: Stored, partition: int | None, only: Only) -> bool:
        """Whether a reader of ``partition`` and ``only`` (None: any) is handed the entry."""
        return (partition is None or self.partition(stored.table) == partition) and (
            only is None or (stored.seq in self._answers) == (only == "answers")
        )

    def partition(self, table: str) -> int:
        return partition_of(table, self.partitions)

    async def tables(self, partition: int | None = None) -> AsyncIterator[str]:
        for t in list(self._by_table):
            if partition is None or self.partition(t) == partition:
                yield t

    async def scan(self, after: int = 0, until: int | None = None) -> AsyncIterator[list[Stored]]:
        until = len(self._entries) if until is None else until
        for start in range(after, until, SCAN_BATCH):
            yield self._entries[start : min(until, start + SCAN_BATCH)]

    async def sizes(self, partition: int | None = None) -> tuple[int, dict[str, int]]:
        return len(self._entries), {
            t: len(x)
            for t, x in self._by_table.items()
            if partition is None or self.partition(t) == partition
        }

    def _durables(self, name: str) -> list[str]:
        """The group's own durable consumer, or else its partitions'."""
        if name in self._groups:
            return [name]
        return [d for d in self._groups if group_of(d)[0] == name and group_of(d)[1] is not None]

    def _unhandled(self, durable: str) -> list[Stored]:
        done, partition = self._groups.get(durable, 0), group_of(durable)[1]
        acked, only = self._acked.get(durable, set()), self._only.get(durable)
        return [
            s
            for s in self._entries
            if s.seq > done and s.seq not in acked and self._reads(s, partition, only)
        ]

    async def group(self, name: str) -> GroupStatus | None:
        parts = [self._one(d) for d in self._durables(name)]
        return combined(name, parts) if parts else None

    def _one(self, name: str) -> GroupStatus:
        done = self._groups[name]
        pending = self._unhandled(name)
        return GroupStatus(
            name=name,
            pending=len(pending),
            delivered=done,
            acked=done,
            oldest_at=pending[0].at if pending else None,
        )

    async def status(self) -> LogStatus:
        names = sorted({group_of(d)[0] for d in self._groups})
        groups = [await self.group(name) for name in names]
        return LogStatus(
            entries=len(self._entries),
            bytes=sum(len(s.data) for s in self._entries),
            first=1 if self._entries else 0,
            last=len(self._entries),
            last_at=self._entries[-1].at if self._entries else None,
            tables=len(self._by_table),
            groups=[g for g in groups if g is not None],
        )

    async def consume_batches(
        self,
        group: str,
        handle: BatchHandler,
        ack_wait: float = 30,
        partition: int | None = None,
        only: Only = None,
        in_order: bool = False,
    ) -> _Feed:
        """One live member per durable consumer here (a second one replaces the first): enough
        for tests. Entries handed to a member that left are handed to the next one first (as
        JetStream does once their ack wait is over), so entries are always in order here."""
        durable = group if partition is None else partition_group(group, partition)
        old = self._members.pop(durable, None)
        if old is not None:
            await old.close()
        self._groups.setdefault(durable, 0)
        self._only[durable] = only
        acked = self._acked.setdefault(durable, set())

        def handled(stored: Stored) -> None:
            acked.add(stored.seq)
            while self._groups[durable] < len(self._entries):  # every sequence is an entry here
                following = self._groups[durable] + 1
                entry = self._entries[following - 1]
                if following in acked:
                    acked.discard(following)
                elif self._reads(entry, partition, only):
                    break  # not handled yet
                self._groups[durable] = following  # handled, another partition's, or not read

        feed = _Feed(handle, handled, partition=partition, only=only)
        for stored in self._unhandled(durable):
            feed.queue.put_nowait(stored)
        self._members[durable] = feed

        def unlist() -> None:
            if self._members.get(durable) is feed:
                del self._members[durable]

        feed.unlist = unlist
        return feed

    async def follow(
        self,
        handle: Handler,
        after: int | None = None,
        table: str | None = None,
        only: Only = None,
    ) -> _Feed:
        feed = _Feed(one_by_one(handle), table=None if table is None else checked(table), only=only)
        if after is not None:
            for stored in self._entries:
                if stored.seq > after and self._wants(feed, stored):
                    feed.queue.put_nowait(stored)
        self._followers.add(feed)
        feed.unlist = lambda: self._followers.discard(feed)
        return feed

    async def close(self) -> None:
        for feed in (*self._followers, *self._members.values()):
            await feed.close()
        self._followers.clear()
        self._members.clear()

    def all(self) -> list[Stored]:
        return list(self._entries)

    def pending(self, group: str) -> int:
        """Entries the group (over its partitions' consumers, if it has some) has not handled yet
        (tests wait on it, never on time); a partition nobody consumes yet counts whole."""
        if group in self._groups:
            return len(self._unhandled(group))
        return sum(
            len(self._unhandled(partition_group(group, p)))
            for p in range(self.partitions)
            if any(self.partition(s.table) == p for s in self._entries)
        )
