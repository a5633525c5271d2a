"""Durable groups: a durable push consumer shared by the group's members (a deliver group), so
entries come as they are stored (no polling delay), in order, each acknowledged once handled.

A push consumer, not a pull one: the services' NATS rights let each create and read its own
durables (DURABLE.CREATE, INFO, ACK: tools.devservers), not request batches from one. Its
deliveries are taken raw (gcbc.eventlog.jetstream.lean), for the CPU per entry nats-py's message
objects cost (measured: docs/benchmarks.md)."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
from collections.abc import Awaitable

from nats import errors as nats_errors
from nats.aio.subscription import Subscription as NatsSubscription
from nats.js import api
from nats.js.errors import NotFoundError

from gcbc.eventlog.jetstream.lean import LeanClient, acked, table_at
from gcbc.eventlog.jetstream.stream import (
    NOT_STORED,
    UNANSWERED,
    Connected,
    filters,
    subjects_config,
    unavailable,
)
from gcbc.eventlog.partitions import partition_group
from gcbc.eventlog.port import BatchHandler, Only, Outcome, Skip, Stored

log = logging.getLogger("gcbc.eventlog")
NAK_SOON = b'-NAK {"delay": 500000000}'  # delivered again in half a second
MOST = 256  # entries handed over at once, at most
MAX_ACK_PENDING = 20_000  # a durable group's entries unacknowledged at once (in_order: one)


class _Group:
    """One member's side of a durable consumer: deliveries queued as they come, handed over in
    batches by one task, each acknowledged (or delivered again) as the handler answers for it."""

    def __init__(self, log: Connected, group: str, durable: str, handle: BatchHandler) -> None:
        self.nc, self.group, self.handle = log.nc, group, handle
        self.skip = len(log.prefix) + 1
        # its own consumer's deliveries name it in their acknowledgement subject: another client
        # may point a consumer of its own at this deliver subject (its name is no secret)
        self.ours = f".{log.stream}.{durable}.".encode()
        self.queue: asyncio.Queue[tuple[Stored, str]] = asyncio.Queue()
        self.acking: set[asyncio.Task] = set()

    def delivered(self, subject: bytes, reply: bytes, data: bytes, headers: bytes | None) -> None:
        if not data or not reply or self.ours not in reply:
            return None  # a status message (this consumer asks for no heartbeats), or not ours
        at = acked(reply)
        if at is not None:  # (else not a JetStream delivery)
            got = Stored(seq=at[0], table=table_at(subject, self.skip), data=data, at=at[2] / 1e9)
            self.queue.put_nowait((got, reply.decode()))
        return None

    async def run(self, most: int) -> None:
        while True:
            got = [await self.queue.get()]
            while len(got) < most and not self.queue.empty():
                got.append(self.queue.get_nowait())
            entries = [stored for stored, _ in got]
            try:
                results = await self.handle(entries)
            except Exception as e:  # noqa: BLE001  (logged; the batch is delivered again)
                results = [e] * len(entries)
            waiting: dict[int, tuple[Awaitable[object], list[str]]] = {}
            for (stored, reply), result in zip(got, results, strict=True):
                if inspect.isawaitable(result):  # acknowledged once it is done
                    waiting.setdefault(id(result), (result, []))[1].append(reply)
                    continue
                try:
                    await self._answer(stored, reply, result)
                except nats_errors.Error as e:  # unacked: delivered again after ack_wait
                    log.warning("%s: entry %s not acknowledged: %s", self.group, stored.seq, e)
            for later, held in waiting.values():  # the next batch goes on meanwhile
                task = asyncio.create_task(self._ack_after(later, held))
                self.acking.add(task)
                task.add_done_callback(self.acking.discard)

    async def _answer(self, stored: Stored, reply: str, result: Outcome) -> None:
        if result is None:
            await self.nc.publish(reply)
        elif isinstance(result, Skip):  # no retry would help: logged, acknowledged
            log.error(
                "%s: entry %s of %s skipped: %s", self.group, stored.seq, stored.table, result
            )
            await self.nc.publish(reply)
        else:
            log.error(
                "%s: entry %s failed: %s (%s)",
                self.group,
                stored.seq,
                result,
                getattr(result, "err_code", ""),
                exc_info=result,  # type: ignore[arg-type]
            )
            await self.nc.publish(reply, NAK_SOON)

    async def _ack_after(self, later: Awaitable[object], replies: list[str]) -> None:
        """Acknowledge once the work the handler returned for them is done."""
        try:
            # (shielded: the work may be shared with other entries, which a close must not cancel)
            await asyncio.shield(later)
        except Exception as e:  # noqa: BLE001  (not acknowledged: delivered again)
            log.warning("%s: %d entries not acknowledged: %s", self.group, len(replies), e)
            acks = [self.nc.publish(reply, NAK_SOON) for reply in replies]
        else:
            acks = [self.nc.publish(reply) for reply in replies]
        for done in await asyncio.gather(*acks, return_exceptions=True):
            if isinstance(done, Exception):  # unacked: delivered again after ack_wait
                log.warning("%s: an entry not acknowledged: %s", self.group, done)


class Subscription:
    def __init__(self, nc: LeanClient, sub: NatsSubscription, member: _Group, most: int) -> None:
        self._nc, self._sub, self._member = nc, sub, member
        self._task = asyncio.create_task(member.run(most))  # the member's batches

    async def close(self) -> None:
        """Stop taking deliveries, and acknowledge none of those still waiting on the handler's
        work (the entries go to whoever consumes next: a handover must not acknowledge what
        this member's handler let go of unfinished)."""
        try:
            await self._nc.unsubscribe_raw(self._sub)
        except nats_errors.Error as e:  # the connection is gone: nothing left to stop
            log.info("unsubscribing: %s", e)
        for task in (self._task, *self._member.acking):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


class Consumers(Connected):
    """The log's durable groups (mixed into JetStreamEventLog, which provides its fields)."""

    async def consume_batches(
        self,
        group: str,
        handle: BatchHandler,
        ack_wait: float = 30,
        most: int = MOST,
        partition: int | None = None,
        only: Only = None,
        in_order: bool = False,
    ) -> Subscription:
        """As ``consume``, every entry already arrived handed over at once (up to ``most``)."""
        durable = group if partition is None else partition_group(group, partition)
        member = _Group(self, group, durable, handle)
        subjects = filters(self.prefix, partition, only)
        pending = 1 if in_order else MAX_ACK_PENDING
        deliver = await self._durable(durable, subjects, ack_wait, pending)
        sub = await self.nc.subscribe_raw(deliver, member.delivered, queue=durable)
        return Subscription(self.nc, sub, member, most)

    async def _durable(
        self, durable: str, subjects: list[str], ack_wait: float, pending: int
    ) -> str:
        """The durable push consumer of ``subjects`` (its deliver group: its own name) with at
        most ``pending`` entries unacknowledged, made if missing, brought up to these if it had
        other subjects or another most; its deliver subject."""
        config = api.ConsumerConfig(
            durable_name=durable,
            deliver_group=durable,
            ack_policy=api.AckPolicy.EXPLICIT,
            max_ack_pending=pending,
            ack_wait=ack_wait,
            deliver_policy=api.DeliverPolicy.ALL,
            **subjects_config(subjects),
        )
        try:
            try:
                info = await self.js.consumer_info(self.stream, durable)
            except NotFoundError:
                config.deliver_subject = self.nc.new_inbox()
                info = await self.js.add_consumer(self.stream, config)
            else:
                one = info.config.filter_subject
                had = info.config.filter_subjects or ([one] if one else [])
                if sorted(had) != sorted(subjects) or info.config.max_ack_pending != pending:
                    config.deliver_subject = info.config.deliver_subject
                    info = await self.js.add_consumer(self.stream, config)
                    log.warning(
                        "consumer %s now reads %s, %d pending at most (it read %s)",
                        durable,
                        subjects,
                        pending,
                        had,
                    )
        except (*NOT_STORED, *UNANSWERED) as e:
            raise unavailable(e) from None
        assert info.config.deliver_subject is not None
        return info.config.deliver_subject
