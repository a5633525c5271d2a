"""The event log's ports: the services' (``EventLog``) and the operators' (``LogAdmin``).

Per-table append with optimistic concurrency and idempotence, and reads.

``append(table, data, expected, msg_id)``: ``expected`` is the sequence of the table's last
entry the writer saw (0: none); a stale expectation raises WrongExpectedSequence and stores
nothing (JetStream checks it first, even for a duplicate). With a current expectation, an
``msg_id`` already stored is not stored again: the first sequence comes back with
``duplicate=True``. So a writer that retries re-reads the table first. Sequences are the stream's (global, increasing); each table's entries are
totally ordered.

``scan(after, until)``: every entry of every table with ``after < seq <= until`` (None: the last
stored when the scan starts), in order, in batches: one ordered pass over the whole log (what a
rebuild of every table reads). ``sizes()``: the last sequence and each table's number of entries,
one snapshot (so a pass knows when it has seen a table whole). ``status()``: the log's size and
each durable group's progress (``group(name)``: one group's).

``consume(group, handle, partition=p)``: every entry of every table (of partition ``p``), in
order, to one member of the group at a time, at least once (acknowledged once ``handle`` returns; an exception gets it delivered again a
little later, possibly after entries that came behind it; ``Skip`` drops it for good). A handler
may return an awaitable: the entry is acknowledged once that completes (work the handler started
that must be done before the entry counts as handled, batched with other entries' — an index
write), while the next entries are handled meanwhile; if it fails, the entry is delivered again. ``follow(handle, after, table)``: every entry stored after
position ``after`` (None: from now on), in order, unacknowledged — a cache kept warm, or an
operator's tail (``table``: that table's entries only).

``LogUnavailable``: the log could not be reached, nothing was written. ``OutcomeUnknown``: an
append whose acknowledgement never came (stored or not; never sent again later).

A table id that is not one safe token (a wildcard, a dot, a space, a control character) raises
``gcbc_contract.ids.InvalidTableId`` in every method: it could reach other tables.
"""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Literal, Protocol

from msgspec import Struct, structs


class Stored(Struct, frozen=True):
    seq: int
    table: str
    data: bytes
    at: float = 0.0  # seconds since the epoch, as stored


class GroupStatus(Struct, frozen=True):
    """How far a durable group is: ``pending`` entries not delivered yet, ``ack_pending``
    delivered and not acknowledged, ``acked`` the position everything up to which is
    acknowledged, ``oldest_at`` when the oldest entry not acknowledged yet was stored (seconds
    since the epoch; None: none)."""

    name: str
    pending: int = 0
    ack_pending: int = 0
    redelivered: int = 0
    delivered: int = 0
    acked: int = 0
    oldest_at: float | None = None

    @property
    def lag(self) -> int:
        """Entries the group has not handled yet."""
        return self.pending + self.ack_pending

    def lag_seconds(self, now: float) -> float:
        return max(0.0, now - self.oldest_at) if self.oldest_at is not None else 0.0


def combined(name: str, parts: list[GroupStatus]) -> GroupStatus:
    """A group's progress over its partitions' consumers (one consumer: itself, renamed)."""
    if len(parts) == 1:
        return structs.replace(parts[0], name=name)
    behind = [g for g in parts if g.lag]
    oldest = [g.oldest_at for g in behind if g.oldest_at is not None]
    return GroupStatus(
        name=name,
        pending=sum(g.pending for g in parts),
        ack_pending=sum(g.ack_pending for g in parts),
        redelivered=sum(g.redelivered for g in parts),
        delivered=max(g.delivered for g in parts),
        # everything up to the lowest floor of a partition still behind is acknowledged
        acked=min(g.acked for g in behind) if behind else max(g.acked for g in parts),
        oldest_at=min(oldest) if oldest else None,
    )


class LogStatus(Struct, frozen=True):
    entries: int
    bytes: int
    first: int
    last: int
    last_at: float | None  # when the last entry was stored (None: empty)
    tables: int
    groups: list[GroupStatus]


class AppendResult(Struct, frozen=True):
    seq: int
    duplicate: bool = False


class WrongExpectedSequence(Exception):
    """Someone appended to the table since the writer looked (JetStream error 10071)."""

    def __init__(self, table: str, expected: int) -> None:
        super().__init__(f"table {table}: last sequence is not {expected}")
        self.table = table
        self.expected = expected


Handler = Callable[["Stored"], Awaitable[object]]
# What a handler answers for an entry: None (handled), Skip (never again), another exception
# (delivered again), or an awaitable (handled once it is done, delivered again if it fails).
Outcome = BaseException | Awaitable[object] | None
# A batch's handler answers for each entry. Entries of one table come in log order.
BatchHandler = Callable[[list["Stored"]], Awaitable[list[Outcome]]]


def one_by_one(handle: Handler) -> BatchHandler:
    """A batch handled entry by entry (a failure does not stop the ones after it: each entry is
    answered for on its own, as a consumer handling one entry at a time would)."""

    async def handle_batch(entries: list[Stored]) -> list[Outcome]:
        out: list[Outcome] = []
        for stored in entries:
            try:
                later = await handle(stored)
            except Exception as e:  # noqa: BLE001  (answered for: Skip or delivered again)
                out.append(e)
            else:
                out.append(later if inspect.isawaitable(later) else None)
        return out

    return handle_batch


class Skip(Exception):
    """Raised by a handler for an entry no retry can help (not an entry of ours): it is
    acknowledged and never delivered again."""


class Later(Exception):
    """A batch handler's answer for an entry held back because an earlier entry of its table
    failed: delivered again (after that one), never out of its table's order."""


class Subscription(Protocol):
    async def close(self) -> None: ...


class LogUnavailable(Exception):
    """The log could not be reached: nothing was written (a retry is safe)."""


def not_empty(data: bytes) -> None:
    """ValueError for an empty entry: the log keeps none (its readers take an empty message
    for the server's own, flow control or a heartbeat, and would wait on it for ever)."""
    if not data:
        raise ValueError("an entry is never empty")


class OutcomeUnknown(Exception):
    """An append was sent but its acknowledgement never came: it may or may not be stored, and
    will not be sent again by this process (retry it with the same message id)."""


# What a consumer or a follower reads (None: every entry): a table's commands and its answers
# are stored apart (JetStream: a subject each), so the rules worker gets the commands alone, and
# the projection and the table service's follower the answers alone (each carries its command).
Only = Literal["commands", "answers"] | None


class EventLog(Protocol):
    """The services' port: a table's entries appended and read, durable groups, followers."""

    partitions: int  # P: tables are divided into this many partitions (gcbc.eventlog.partitions)

    async def append(
        self,
        table: str,
        data: bytes,
        expected: int,
        msg_id: str | None = None,
        answer: bool = False,
    ) -> AppendResult:
        """``answer``: the entry answers a command (an outcome or a refusal); else a command."""
        ...

    async def last(self, table: str) -> Stored | None: ...

    async def at(self, table: str, seq: int) -> Stored | None:
        """The entry at ``seq`` if it is the table's (None: none, or another table's)."""
        ...

    async def read(self, table: str, after: int = 0, most: int | None = None) -> list[Stored]:
        """The table's entries with a sequence greater than ``after``, in order; the first
        ``most`` of them only (None: all), so a reader that refuses long logs reads one past its
        bound, not the whole log."""
        ...

    async def consume(
        self,
        group: str,
        handle: Handler,
        ack_wait: float = 30,
        partition: int | None = None,
        only: Only = None,
        in_order: bool = False,
    ) -> Subscription:
        """The group's durable consumer (it survives restarts: it goes on where it stopped);
        ``partition``: that partition's tables only, through a durable consumer of its own;
        ``only``: the commands, or the answers; ``in_order``: one entry at a time, the next
        delivered once it is acknowledged, so one delivered again (its member gone) comes before
        every later one (a handler to which order matters: the ratings). Every adapter's:
        ``consume_batches``, each batch handled entry by entry."""
        batches = one_by_one(handle)
        return await self.consume_batches(
            group, batches, ack_wait, partition=partition, only=only, in_order=in_order
        )

    async def consume_batches(
        self,
        group: str,
        handle: BatchHandler,
        ack_wait: float = 30,
        partition: int | None = None,
        only: Only = None,
        in_order: bool = False,
    ) -> Subscription:
        """The same consumer, handing over every entry already arrived at once (up to a few
        hundred): one read-model write, one flush of acknowledgements per batch instead of per
        entry. Each entry is acknowledged (or delivered again) as the handler answers for it."""
        ...

    async def follow(
        self,
        handle: Handler,
        after: int | None = None,
        table: str | None = None,
        only: Only = None,
    ) -> Subscription: ...

    async def close(self) -> None: ...


class LogAdmin(Protocol):
    """The operators' port: the whole log, its tables, its state, the groups' progress."""

    partitions: int

    def tables(self, partition: int | None = None) -> AsyncIterator[str]:
        """Every table's id (``partition``: that partition's tables only)."""
        ...

    def scan(self, after: int = 0, until: int | None = None) -> AsyncIterator[list[Stored]]:
        """Every table's entries after ``after`` up to ``until``, in order, in batches."""
        ...

    async def sizes(self, partition: int | None = None) -> tuple[int, dict[str, int]]:
        """(the last sequence, table -> its number of entries), as of one moment."""
        ...

    async def status(self) -> LogStatus: ...

    async def group(self, name: str) -> GroupStatus | None:
        """A durable group's progress, over its partitions' consumers if it has some (None: no
        such group)."""
        ...

    async def close(self) -> None: ...


class FullLog(EventLog, LogAdmin, Protocol):
    """Both ports, as every adapter implements them: for the operators' tools, and the services
    that also go through the whole log (a rebuild lists its tables, the bots scan it once)."""
