"""The queue's log: every entry of the queue under one key of the players' log (``KEY``: subject
``gcbc.player.<p>.queue``), so the queue is one ordered history. Each append expects the last
entry its writer read: of two table-service processes matching the same players, one records its
table and the other, refused, reads the queue again (none is matched twice). A process that starts
folds the whole key: nobody's place is lost in a restart."""

from __future__ import annotations

import msgspec

from gcbc.eventlog.port import EventLog, Stored
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


class Placed(msgspec.Struct, frozen=True):
    """Where the queue seated a player."""

    table_id: str
    seat: int


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
            self.version[entry.player_id] = seq
        elif isinstance(entry, QueueLeft):
            self.waiting.pop(entry.player_id, None)
            self.version[entry.player_id] = seq
        elif isinstance(entry, Matched):
            asked = tuple(self.waiting.pop(p) for p in entry.players if p in self.waiting)
            for p, seat in zip(entry.players, entry.seats_of, strict=True):
                # its version moves once it is seated (TableSeated): till then it waits
                self.placed[p] = Placed(entry.table_id, seat)
            self.pending[entry.table_id] = (entry, asked, entry.at)
        elif isinstance(entry, TableSeated):
            done = self.pending.pop(entry.table_id, None)
            for p in done[0].players if done is not None else ():
                self.version[p] = seq


class QueueLog:
    """The queue's entries appended and read, and the queue folded from them (kept up to date
    with a read of the entries after the last one folded)."""

    def __init__(self, events: EventLog) -> None:
        self.events = events
        self.folded = FoldedQueue()

    async def current(self) -> FoldedQueue:
        """The queue as the log tells now."""
        for stored in await self.events.read(KEY, after=self.folded.seq):
            self.folded.apply(stored)
        return self.folded

    async def append(self, entry: AnyQueueEntry, expected: int) -> int:
        """Append after the entry at ``expected`` (WrongExpectedSequence: the queue moved on)."""
        got = await self.events.append(KEY, encode_queue_entry(entry), expected=expected)
        return got.seq
