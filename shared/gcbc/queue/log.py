"""The queue's log: every entry of the queue under one key of the players' log (``KEY``: subject
``gcbc.player.<p>.queue``), so the queue is one ordered history. Each append expects the last
entry its writer read: of two table-service processes matching the same players, one records its
table and the other, refused, reads the queue again (none is matched twice).

A process that starts reads the queue's last snapshot (under a key of its own, ``SNAPSHOT_KEY``)
and the entries after it: nobody's place is lost in a restart, and a start reads about the players
waiting, not the queue's whole history. Any process writes a snapshot every ``SNAPSHOT_EVERY``
entries it folded (a snapshot is the fold of the queue up to an entry: any writer's is as good).
The queue forgets a player that left or was seated ``KEPT_MS`` before its latest entry (as the
entries' times tell, so every process forgets alike): its place would otherwise be kept forever."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator

import msgspec

from gcbc.eventlog.port import EventLog, Stored, WrongExpectedSequence
from gcbc_contract.queue import (
    AnyQueueEntry,
    Matched,
    Queued,
    QueueLeft,
    TableSeated,
    decode_queue_entry,
    encode_queue_entry,
)

KEY = "queue"
SNAPSHOT_KEY = "queue-snapshot"
SNAPSHOT_EVERY = 1000  # entries folded between two snapshots (what a start reads at most after one)
PART = 500  # players per snapshot entry (an entry stays far below NATS's payload limit)
KEPT_MS = 3_600_000  # how long a player that left or was seated keeps its place and version


class Placed(msgspec.Struct, frozen=True):
    """Where the queue seated a player."""

    table_id: str
    seat: int


# --- the queue's snapshot (entries under SNAPSHOT_KEY) ------------------------------------------
class Settled(msgspec.Struct, frozen=True, array_like=True):
    """A player neither waiting nor at a table matched and not seated yet: its last entry's time,
    its version and where it was seated (None: it left)."""

    player_id: str
    at: int
    version: int
    placed: Placed | None


class Pending(msgspec.Struct, frozen=True):
    """A table matched and not seated yet, with what its players asked and their versions."""

    matched: Matched
    asked: tuple[Queued, ...]
    versions: dict[str, int]


class SnapshotPart(msgspec.Struct, tag="snapshot_part", frozen=True):
    """Part of a snapshot; ``previous``: the last whole snapshot its writer knew (0: none)."""

    previous: int
    waiting: list[tuple[Queued, int]] = []
    pending: list[Pending] = []
    settled: list[Settled] = []


class Snapshot(msgspec.Struct, tag="snapshot", frozen=True):
    """The queue folded up to the entry ``upto``: its parts (their positions, in order)."""

    upto: int
    parts: list[int]
    previous: int


_snapshot_decoder = msgspec.json.Decoder(Snapshot | SnapshotPart)
_encode = msgspec.json.Encoder().encode


class FoldedQueue:
    """The queue as its entries tell: who waits (the earliest first), where each player the
    queue matched was seated, each player's last entry (or the seating of its table), the tables
    matched but not seated yet (with what their players asked)."""

    def __init__(self) -> None:
        self.seq = 0
        self.waiting: dict[str, Queued] = {}
        self.placed: dict[str, Placed] = {}
        self.version: dict[str, int] = {}
        self.pending: dict[str, tuple[Matched, tuple[Queued, ...], int]] = {}
        self.settled: dict[str, int] = {}  # player -> its last entry's time, the oldest first

    def apply(self, stored: Stored) -> None:
        if stored.seq <= self.seq:
            return  # folded already (two reads overlapping)
        self.seq = stored.seq
        try:
            entry = decode_queue_entry(stored.data)
        except msgspec.DecodeError:
            return  # not an entry (only an operator could have put it there): stepped over
        self.fold(entry, stored.seq)

    def fold(self, entry: AnyQueueEntry, seq: int) -> None:
        if isinstance(entry, Queued):
            self.waiting[entry.player_id] = entry
            self.placed.pop(entry.player_id, None)
            self.settled.pop(entry.player_id, None)
            self.version[entry.player_id] = seq
        elif isinstance(entry, QueueLeft):
            self.waiting.pop(entry.player_id, None)
            placed = self.placed.get(entry.player_id)
            if placed is None or placed.table_id not in self.pending:
                self._settle(entry.player_id, entry.at)
            self.version[entry.player_id] = seq
        elif isinstance(entry, Matched):
            asked = tuple(self.waiting.pop(p) for p in entry.players if p in self.waiting)
            for p, seat in zip(entry.players, entry.seats_of, strict=True):
                # its version moves once it is seated (TableSeated): till then it waits
                self.placed[p] = Placed(entry.table_id, seat)
                self.settled.pop(p, None)
            self.pending[entry.table_id] = (entry, asked, entry.at)
        elif isinstance(entry, TableSeated):
            done = self.pending.pop(entry.table_id, None)
            for p in done[0].players if done is not None else ():
                self.version[p] = seq
                self._settle(p, entry.at)
        self._forget(entry.at - KEPT_MS)

    def _settle(self, player_id: str, at: int) -> None:
        self.settled.pop(player_id, None)
        self.settled[player_id] = at

    def _forget(self, before: int) -> None:
        """Forget the players settled before ``before`` (the oldest come first)."""
        while self.settled:
            player_id, at = next(iter(self.settled.items()))
            if at >= before:
                return
            del self.settled[player_id]
            self.placed.pop(player_id, None)
            self.version.pop(player_id, None)

    # --- snapshots --------------------------------------------------------------------------------
    def parts(self, previous: int) -> Iterator[SnapshotPart]:
        """The queue as snapshot parts of at most ``PART`` players each."""
        waiting = [(q, self.version[p]) for p, q in self.waiting.items()]
        pending = [
            Pending(m, asked, {p: self.version[p] for p in m.players if p in self.version})
            for m, asked, _ in self.pending.values()
        ]
        settled = [
            Settled(p, at, self.version.get(p, 0), self.placed.get(p))
            for p, at in self.settled.items()
        ]
        for name, players in (("waiting", waiting), ("pending", pending), ("settled", settled)):
            for i in range(0, len(players), PART):
                yield SnapshotPart(previous, **{name: players[i : i + PART]})

    @classmethod
    def restored(cls, upto: int, parts: list[SnapshotPart]) -> FoldedQueue:
        """The queue a snapshot's parts tell, folded up to ``upto``."""
        q = cls()
        q.seq = upto
        for part in parts:
            for queued, version in part.waiting:
                q.waiting[queued.player_id] = queued
                q.version[queued.player_id] = version
            for pend in part.pending:
                m = pend.matched
                q.pending[m.table_id] = (m, pend.asked, m.at)
                for p, seat in zip(m.players, m.seats_of, strict=True):
                    if p not in q.waiting:  # queued again since: its place went with it
                        q.placed[p] = Placed(m.table_id, seat)
                q.version.update(pend.versions)
            for s in part.settled:
                q.settled[s.player_id] = s.at
                q.version[s.player_id] = s.version
                if s.placed is not None:
                    q.placed[s.player_id] = s.placed
        return q


class QueueLog:
    """The queue's entries appended and read, and the queue folded from them (kept up to date
    with a read of the entries after the last one folded)."""

    def __init__(self, events: EventLog) -> None:
        self.events = events
        self.folded = FoldedQueue()
        self.started = False
        self._starting = asyncio.Lock()
        self.snapshot_at = 0  # the position of the last whole snapshot known (0: none)
        self.unsnapshotted = 0  # entries folded since the last snapshot
        # the read in flight, and the next one: callers who came while one was in flight share
        # the one after it (it begins after they asked), so a crowd costs one read, not one each
        self._reading: asyncio.Future[FoldedQueue] | None = None
        self._next: asyncio.Future[FoldedQueue] | None = None

    async def current(self) -> FoldedQueue:
        """The queue as the log tells now: folded through a read begun after this call."""
        if not self.started:
            async with self._starting:
                if not self.started:
                    await self._start()
        read = self._next
        if read is None:
            read = self._next = asyncio.ensure_future(self._read_after(self._reading))
            read.add_done_callback(_retrieved)  # (its callers may all have gone)
        return await asyncio.shield(read)

    async def _read_after(self, earlier: asyncio.Future[FoldedQueue] | None) -> FoldedQueue:
        if earlier is not None:
            with contextlib.suppress(Exception):
                await earlier
        me = self._next
        self._reading, self._next = me, None  # who asks from now on waits for the next read
        try:
            for stored in await self.events.read(KEY, after=self.folded.seq):
                if stored.seq > self.folded.seq:
                    self.unsnapshotted += 1
                self.folded.apply(stored)
            return self.folded
        finally:
            if self._reading is me:
                self._reading = None

    async def append(self, entry: AnyQueueEntry, expected: int) -> int:
        """Append after the entry at ``expected`` (WrongExpectedSequence: the queue moved on)."""
        got = await self.events.append(KEY, encode_queue_entry(entry), expected=expected)
        return got.seq

    async def _start(self) -> None:
        """Begin from the last whole snapshot (none: from the queue's first entry)."""
        last = await self.events.last(SNAPSHOT_KEY)
        head = _snapshot(last)
        if isinstance(head, SnapshotPart) and head.previous:
            # a writer stopped (or is) between its parts and its head: the one before
            last = await self.events.at(SNAPSHOT_KEY, head.previous)
            head = _snapshot(last)
        if last is not None and isinstance(head, Snapshot):
            parts = []
            for seq in head.parts:
                part = _snapshot(await self.events.at(SNAPSHOT_KEY, seq))
                if not isinstance(part, SnapshotPart):
                    break
                parts.append(part)
            else:
                self.folded = FoldedQueue.restored(head.upto, parts)
                self.snapshot_at = last.seq
        self.started = True

    async def snapshot_if_due(self) -> bool:
        """Write a snapshot of the queue if ``SNAPSHOT_EVERY`` entries were folded since the
        last one: whether one was written (not if another writer's came first)."""
        q = await self.current()
        if self.unsnapshotted < SNAPSHOT_EVERY:
            return False
        upto = q.seq
        parts = [_encode(part) for part in q.parts(self.snapshot_at)]
        last = await self.events.last(SNAPSHOT_KEY)
        expected = last.seq if last is not None else 0
        at: list[int] = []
        try:
            for data in parts:
                expected = (await self.events.append(SNAPSHOT_KEY, data, expected)).seq
                at.append(expected)
            head = Snapshot(upto=upto, parts=at, previous=self.snapshot_at)
            expected = (await self.events.append(SNAPSHOT_KEY, _encode(head), expected)).seq
        except WrongExpectedSequence:
            return False  # another process writes one: the next look tries again
        self.snapshot_at = expected
        self.unsnapshotted = 0
        return True


def _snapshot(stored: Stored | None) -> Snapshot | SnapshotPart | None:
    if stored is None:
        return None
    try:
        return _snapshot_decoder.decode(stored.data)
    except msgspec.DecodeError:
        return None  # not a snapshot: stepped over


def _retrieved(read: asyncio.Future[FoldedQueue]) -> None:
    """A shared read's failure is its callers' to raise; none left, it is not logged as lost."""
    if not read.cancelled():
        read.exception()
