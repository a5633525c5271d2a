"""The table service's core, without HTTP: validate a command against the table's current state
(the engine's decide), append it with optimistic concurrency and idempotence, wait for its answer
and for the views that reflect it."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import random
import time
import uuid
from typing import Any

import msgspec

from gcbc.contract import commands as C
from gcbc.contract.entries import (
    CommandEntry,
    OutcomeEntry,
    RefusalEntry,
    decode_entry,
    encode_entry,
)
from gcbc.eventlog.port import EventLog, Stored, WrongExpectedSequence
from gcbc.readmodel.port import PUBLIC, ReadModel, seat_key
from gcbc.rules import RuleViolation, decide
from services.common.cache import FoldedCache
from services.common.folded import FoldedTable
from services.table.notifier import Fresh, Notifier
from services.table.problems import ApiError, from_violation

RETRIES = 8


class _Version(msgspec.Struct):
    version: int


_version = msgspec.json.Decoder(_Version)


def view_version(data: bytes) -> int:
    """A view's version, without decoding the rest of it."""
    return _version.decode(data).version


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def now_ms() -> int:
    return int(time.time() * 1000)


class Accepted(msgspec.Struct):
    command_seq: int
    answer_seq: int | None = None
    refusal: RefusalEntry | None = None
    outcome: OutcomeEntry | None = None


class TableService:
    KEEP_HISTORIES = 256  # finished tables' histories kept encoded

    def __init__(
        self, events: EventLog, model: ReadModel, notifier: Notifier, noop: bool = False
    ) -> None:
        self.noop = noop  # benchmarks: game commands are not validated (the rules are a no-op)
        self.events = events
        self.model = model
        self.notifier = notifier
        self.cache = FoldedCache(events)
        self._histories: dict[str, bytes] = {}

    # --- reading ------------------------------------------------------------------------------
    async def table(self, table_id: str) -> FoldedTable:
        t = await self.cache.get(table_id)
        if t.seq == 0 or not t.state.table_id:
            raise ApiError(404, "no_table", f"there is no table {table_id}")
        return t

    def seat_of(self, t: FoldedTable, token: str | None) -> int | None:
        if not token:
            return None
        digest = token_hash(token)
        for seat, known in t.tokens.items():
            if hmac.compare_digest(known, digest):
                return seat
        return None

    async def view_after(
        self, table_id: str, seat: int | None, after: int | None, timeout: float, position: int = 0
    ) -> bytes | None:
        """The view once its version is > ``after`` and its position >= ``position``, or the
        current one when ``timeout`` runs out (long-poll)."""
        got = await self.view_at(table_id, seat, after, timeout, position)
        return got.data if got else None

    async def view_at(
        self, table_id: str, seat: int | None, after: int | None, timeout: float, position: int = 0
    ) -> Fresh | None:
        """``view_after`` with the position the returned view reflects (and its SSE frame)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        key = PUBLIC if seat is None else seat_key(seat)
        got: Fresh | None = None
        while True:
            # waiting for a position (a command's outcome): any announcement may be it, even one
            # that left this view as it was; else only a change of this view wakes the waiter
            signal = None if position else self.notifier.waiter(table_id, key)
            changed = signal.event if signal else self.notifier.moved(table_id)
            if got is None:
                stored = await self.model.get(table_id, key)
                got = Fresh(*stored) if stored else None
            if got is not None:
                if got.position >= position and (after is None or view_version(got.data) > after):
                    return got
            left = deadline - loop.time()
            if left <= 0:
                return got
            # the timeout is a safety net for a lost wake-up; jittered, so thousands of waiters
            # never read Redis together
            await self.notifier.wait(changed, min(left, random.uniform(8.0, 12.0)))
            # a view read once for this wake-up serves every waiter of it; otherwise Redis
            got = self.notifier.fresh(table_id, signal) if signal and changed.is_set() else None

    async def history(self, table_id: str) -> bytes:
        """A finished table's every event, encoded once: it never changes (and a reader must not
        make the server re-read the whole log each time)."""
        cached = self._histories.get(table_id)
        if cached is None:
            events: list[Any] = []
            for stored in await self.events.read(table_id):
                entry = decode_entry(stored.data)
                if isinstance(entry, OutcomeEntry):
                    events += entry.events
            cached = msgspec.json.encode({"table_id": table_id, "events": events})
            self._histories[table_id] = cached
            if len(self._histories) > self.KEEP_HISTORIES:
                del self._histories[next(iter(self._histories))]  # the oldest
        return cached

    # --- writing ------------------------------------------------------------------------------
    async def submit(
        self, table_id: str, command: Any, token_hash_: str | None = None, new_table: bool = False
    ) -> int:
        """Append ``command`` once the rules accept it on the table's current state: its
        sequence. Refused commands raise (and record nothing)."""
        stale = checked = False
        for _ in range(RETRIES):
            # the cache follows the log live (``follow``); a stale state only costs a retry, since
            # the append expects the sequence the validation used
            changed = self.cache.waiter(table_id)
            t = self.cache.tables.get(table_id)
            if t is None or stale or (t.seq == 0 and not new_table):
                t = await self.cache.get(table_id)
                checked = True
            stale = False
            if not new_table and t.seq == 0:
                raise ApiError(404, "no_table", f"there is no table {table_id}")
            cid = getattr(command, "command_id", None)
            if cid is not None and (command.seat, cid) in t.command_ids:
                return t.command_ids[(command.seat, cid)]  # a retry: the first one's answer
            if not t.settled:
                await self.cache.changed(table_id, 0.2, changed)
                stale = True
                continue
            try:
                if not (self.noop and isinstance(command, C.GameCommand.__args__)):
                    decide(t.state, command)
            except RuleViolation as v:
                if not checked:  # the cached state may lag the log: refuse only on the latest
                    checked = stale = True
                    continue
                raise from_violation(v) from None
            expected = t.seq
            entry = CommandEntry(
                command=command, token_hash=token_hash_, at=now_ms(), prev=expected
            )
            data = encode_entry(entry)
            msg_id = f"cmd:{table_id}:{command.seat}:{cid}" if cid else uuid.uuid4().hex
            try:
                result = await self.events.append(table_id, data, expected=expected, msg_id=msg_id)
            except WrongExpectedSequence:
                stale = True  # someone else got there first: re-read, re-validate
                continue
            if not result.duplicate and t.seq == expected:
                t.apply(Stored(seq=result.seq, table=table_id, data=data))
            return result.seq
        raise ApiError(409, "table_busy", "the table is busy: try again")

    async def answer(self, table_id: str, command_seq: int, timeout: float) -> Accepted:
        """Wait (up to ``timeout``) for the rules worker's answer to a command."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        polls = 0
        while True:
            changed = self.cache.waiter(table_id)
            t = self.cache.tables.get(table_id)
            if t is None or polls % 4 == 3:  # now and then, the log itself (a missed push)
                t = await self.cache.get(table_id)
            polls += 1
            if t.seq > command_seq:
                if command_seq in t.refusals:
                    return Accepted(
                        command_seq, t.answers.get(command_seq), t.refusals[command_seq]
                    )
                return Accepted(command_seq, t.answers.get(command_seq))
            left = deadline - loop.time()
            if left <= 0:
                return Accepted(command_seq)
            await self.cache.changed(table_id, min(left, 0.25), changed)

    async def follow(self, stop: asyncio.Event) -> None:
        """Keep the cache live: an ordered consumer pushes every new entry of every table."""
        from gcbc.eventlog.jetstream import table_of

        async def on_msg(msg) -> None:  # noqa: ANN001
            meta = msg.metadata
            stored = Stored(seq=meta.sequence.stream, table=table_of(msg.subject), data=msg.data)
            if stored.table in self.cache.tables:  # tables nobody asked about stay unloaded
                try:
                    await self.cache.deliver(stored)
                except Exception:  # noqa: BLE001  (the next request catches up from the log)
                    self.cache.drop(stored.table)

        js = self.events.js  # type: ignore[attr-defined]
        from nats.js import api

        sub = await js.subscribe(
            f"{self.events.prefix}.*",  # type: ignore[attr-defined]
            stream=self.events.stream,  # type: ignore[attr-defined]
            cb=on_msg,
            ordered_consumer=True,
            config=api.ConsumerConfig(deliver_policy=api.DeliverPolicy.NEW),
        )
        try:
            await stop.wait()
        finally:
            await sub.unsubscribe()
