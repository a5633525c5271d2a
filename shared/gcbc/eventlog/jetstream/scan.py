"""Whole-log passes and followers: one reader, a push consumer of its own with flow control and no
acknowledgements, its deliveries taken raw (gcbc.eventlog.jetstream.lean). It checks the consumer
sequence for gaps and starts again after the last entry it had, so nothing is missed or seen
twice.

Not nats-py's ordered consumer: it makes (and remakes) its consumers unnamed, which the services'
NATS rights refuse (a reader's name is in the request's subject, tools.devservers).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

from nats import errors as nats_errors
from nats.aio.subscription import Subscription
from nats.js import api
from nats.js.errors import NotFoundError

from gcbc.eventlog.jetstream.lean import acked, table_at
from gcbc.eventlog.jetstream.stream import (
    NOT_STORED,
    UNANSWERED,
    Connected,
    filters,
    reader_name,
    subjects_config,
    unavailable,
)
from gcbc.eventlog.port import Handler, LogUnavailable, Only, Stored

log = logging.getLogger("gcbc.eventlog")
STALLED = b"Nats-Consumer-Stalled:"  # a heartbeat's header naming a flow control reply not answered


class Reader:
    """One pass over the log. Entries are kept in batches; past ``HIGH`` kept, flow control
    replies wait, so JetStream sends no more than the reader takes. ``until`` None: the pass
    never ends (a follower: ``after`` None, from the entries stored from now on); ``subjects``:
    those of these subjects only (None: every table's entries)."""

    BATCH = 2000
    HIGH = 20_000
    HEARTBEAT = 5.0  # seconds between the consumer's heartbeats while it has nothing to send
    SILENCE = 15.0  # seconds without a message: start again

    def __init__(
        self,
        log: Connected,
        after: int | None,
        until: int | None,
        subjects: list[str] | None = None,
    ) -> None:
        self.log, self.until = log, until
        self.subjects = subjects or filters(log.prefix, None, None)
        self.last = after  # the last entry handed over or kept (None: none yet, from now on)
        self.kept: list[Stored] = []
        self.ready = asyncio.Event()
        self.done = False
        self.gap = False
        self.withheld: str | None = None  # a flow control reply waiting for the reader
        self.sub: Subscription | None = None
        self.skip = len(log.prefix) + 1
        self.consumer: str | None = None
        self.expected = 1  # the next consumer sequence
        self.silence: asyncio.Timeout | None = None  # the wait for entries, while one waits

    async def start(self) -> None:
        nc = self.log.nc
        inbox = nc.new_inbox()
        self.sub = await nc.subscribe_raw(inbox, self._sink)
        self.expected, self.gap = 1, False
        config = api.ConsumerConfig(
            name=reader_name(self.log.owner),
            deliver_subject=inbox,
            ack_policy=api.AckPolicy.NONE,
            deliver_policy=api.DeliverPolicy.NEW
            if self.last is None
            else api.DeliverPolicy.BY_START_SEQUENCE,
            opt_start_seq=None if self.last is None else self.last + 1,
            **subjects_config(self.subjects),
            flow_control=True,
            idle_heartbeat=self.HEARTBEAT,
            mem_storage=True,
            inactive_threshold=30.0,
        )
        try:
            info = await self.log.js.add_consumer(self.log.stream, config)
        except (*NOT_STORED, *UNANSWERED) as e:
            await self.stop()
            raise unavailable(e) from None
        self.consumer = info.name

    async def stop(self) -> None:
        sub, self.sub = self.sub, None
        if sub is not None:
            with contextlib.suppress(nats_errors.Error):
                await self.log.nc.unsubscribe_raw(sub)
        if self.consumer is not None:
            name, self.consumer = self.consumer, None
            # (one not deleted goes by itself once inactive)
            with contextlib.suppress(*NOT_STORED, *UNANSWERED, NotFoundError):
                await self.log.js.delete_consumer(self.log.stream, name)

    def _sink(self, subject: bytes, reply: bytes, data: bytes, headers: bytes | None) -> str | None:
        if not data:  # flow control, or a heartbeat (maybe naming a stalled flow control)
            return self._control(reply, headers)
        if self.done or self.gap:
            return None
        at = acked(reply)
        if at is not None:  # (else not a JetStream delivery)
            self._keep(subject, data, *at)
        return None

    def _control(self, reply: bytes, headers: bytes | None) -> str | None:
        silence = self.silence
        if silence is not None and not silence.expired():
            # the consumer is there with nothing to send: no reason to start again
            silence.reschedule(asyncio.get_running_loop().time() + self.SILENCE)
        if not reply and headers and STALLED in headers:
            reply = headers.split(STALLED, 1)[1].split(b"\r\n", 1)[0].strip()
        if not reply:
            return None
        if len(self.kept) < self.HIGH:
            return reply.decode()
        self.withheld = reply.decode()
        return None

    def _keep(self, subject: bytes, data: bytes, sseq: int, dseq: int, ts: int, left: int) -> None:
        if dseq != self.expected:
            self.gap = True  # something was lost on the way: start again after self.last
            self.ready.set()
            return
        self.expected += 1
        until = self.until
        if until is not None and sseq > until:
            self.done = True
            self.ready.set()
            return
        self.kept.append(
            Stored(seq=sseq, table=table_at(subject, self.skip), data=data, at=ts / 1e9)
        )
        self.last = sseq
        if until is None:
            self.ready.set()  # a follower hands each entry over as it comes
        elif sseq >= until or left == 0:
            self.done = True
            self.ready.set()
        elif len(self.kept) >= self.BATCH:
            self.ready.set()

    async def _wait(self) -> None:
        self.ready.clear()
        try:
            async with asyncio.timeout(self.SILENCE) as self.silence:
                await self.ready.wait()
        except TimeoutError:
            if not self.log.nc.is_connected:
                raise LogUnavailable("the event log is not connected") from None
            self.gap = True
        finally:
            self.silence = None

    async def next(self) -> list[Stored] | None:
        while True:
            if self.consumer is None and not self.done:
                await self.start()
            if not self.kept and not self.done:
                await self._wait()
            if self.gap:  # start again after the last entry kept
                await self.stop()
                if self.kept:
                    break
                continue
            if self.kept or self.done:
                break
        batch, self.kept = self.kept, []
        if self.withheld is not None:
            reply, self.withheld = self.withheld, None
            await self.log.nc.publish(reply)
        return batch or None


class Following:
    """A follower: its reader and the task handing its entries over."""

    def __init__(self, reader: Reader, task: asyncio.Task) -> None:
        self._reader, self._task = reader, task

    async def close(self) -> None:
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        try:
            await self._reader.stop()
        except (LogUnavailable, nats_errors.Error) as e:  # the connection is gone: nothing left
            log.info("stopping a follower: %s", e)


async def _hand_over(reader: Reader, handle: Handler) -> None:
    """A follower's entries to its handler, for good: its reader started again on a lost
    connection."""
    while True:
        try:
            batch = await reader.next()
        except LogUnavailable as e:
            log.info("following: %s; starting again", e)
            await reader.stop()
            await asyncio.sleep(0.5)
            continue
        for got in batch or ():
            try:
                await handle(got)
            except Exception as e:  # noqa: BLE001  (a follower's reader catches up)
                log.warning("following: entry %s not handled: %s", got.seq, e)


class Scans(Connected):
    """The log's whole-log readers (mixed into JetStreamEventLog, which provides its fields)."""

    async def scan(self, after: int = 0, until: int | None = None) -> AsyncIterator[list[Stored]]:
        if until is None:
            until = (await self.stream_info()).state.last_seq
        if until <= after:
            return
        reader = Reader(self, after, until)
        try:
            while (batch := await reader.next()) is not None:
                yield batch
        finally:
            await reader.stop()

    async def follow(
        self,
        handle: Handler,
        after: int | None = None,
        table: str | None = None,
        only: Only = None,
    ) -> Following:
        """A reader never ending (started again after the last entry handed over on a gap, a
        silence or a lost connection); its consumer exists once this returns. ``table``: its
        entries of every kind; ``only``: every table's commands, or answers."""
        if table is None:
            subjects = filters(self.prefix, None, only)
        else:
            subjects = [f"{self.subject(table)}.*"]
        reader = Reader(self, after, None, subjects)
        # a restarted server forgets the consumer: heard sooner than a scan's silence
        reader.HEARTBEAT, reader.SILENCE = 2.0, 6.0
        await reader.start()
        return Following(reader, asyncio.create_task(_hand_over(reader, handle)))
