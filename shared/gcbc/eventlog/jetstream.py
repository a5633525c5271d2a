"""The JetStream adapter of the event log: one stream, one subject per table.

Optimistic concurrency is JetStream's own ``Nats-Expected-Last-Subject-Sequence`` (a stale
expectation is refused with error 10071) and idempotence its ``Nats-Msg-Id`` deduplication.
Reads use direct gets for short catch-ups and an ordered consumer for long ones.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from dataclasses import replace
from urllib.parse import urlsplit

import nats
from nats import errors as nats_errors
from nats.js import api
from nats.js.errors import APIError, NoStreamResponseError, NotFoundError

from gcbc.contract.ids import checked
from gcbc.eventlog.port import (
    AppendResult,
    Handler,
    LogUnavailable,
    OutcomeUnknown,
    Skip,
    Stored,
    WrongExpectedSequence,
)

STREAM = "GCBC_TABLES"
PREFIX = "gcbc.table"
WRONG_LAST_SEQUENCE = 10071
log = logging.getLogger("gcbc.eventlog")
DIRECT_READS = 16  # past this many entries, a catch-up uses an ordered consumer
APPEND_TIMEOUT = 5.0  # seconds an append waits for its acknowledgement before giving up
# errors after which nothing was stored: raised before sending, or the server's own refusal …
_NOT_STORED = (
    nats_errors.ConnectionClosedError,
    nats_errors.OutboundBufferLimitError,
    nats_errors.NoServersError,
    nats_errors.ConnectionDrainingError,
    nats_errors.MaxPayloadError,
    nats_errors.BadSubjectError,
    nats_errors.NoRespondersError,  # no JetStream answered: nothing was stored
    NoStreamResponseError,
    APIError,  # JetStream answered with an error (limits, storage): it stored nothing
)
# … any other failure once the append was sent leaves its fate unknown
_UNANSWERED = (nats_errors.Error, TimeoutError, OSError)


def inbox_prefix(url: str) -> str:
    """Replies to a user's requests come on an inbox of its own (``_INBOX_<user>``): with NATS
    permissions, no service can read another's replies (tools.devservers)."""
    user = urlsplit(url).username
    return f"_INBOX_{user}" if user else "_INBOX"


def subject(table: str, prefix: str = PREFIX) -> str:
    """The table's subject; an id that is not one safe token (``*``, ``>``, a dot, a space, a
    control character) raises InvalidTableId: it could read or write other tables."""
    return f"{prefix}.{checked(table)}"


def table_of(subj: str) -> str:
    return subj.rsplit(".", 1)[1]


def forget_unsent(nc: nats.NATS) -> None:
    """On a lost connection, drop what nats-py had not written yet: it would send it after
    reconnecting, and an append whose caller already gave up must never land later. (Acks and
    flow-control replies dropped with it are redelivered; harmless.) The buffer is nats-py's own;
    if a release renames it, the connection must still come back, so a failure is only logged."""
    try:
        nc._pending.clear()  # noqa: SLF001
        nc._pending_data_size = 0  # noqa: SLF001
    except Exception as e:  # noqa: BLE001
        log.error("could not drop unsent data after a disconnect: %s", e)


def stream_config(
    replicas: int = 1, stream: str = STREAM, prefix: str = PREFIX
) -> api.StreamConfig:
    return api.StreamConfig(
        name=stream,
        subjects=[f"{prefix}.*"],
        storage=api.StorageType.FILE,
        retention=api.RetentionPolicy.LIMITS,
        num_replicas=replicas,
        duplicate_window=120.0,
        allow_direct=True,
    )


class JetStreamEventLog:
    def __init__(self, nc: nats.NATS, stream: str = STREAM, prefix: str = PREFIX) -> None:
        self.nc = nc
        self.js = nc.jetstream()
        self.stream = stream
        self.prefix = prefix
        self.append_timeout = APPEND_TIMEOUT

    @classmethod
    async def connect(
        cls, url: str, replicas: int = 1, stream: str = STREAM, prefix: str = PREFIX
    ) -> JetStreamEventLog:
        servers = [u.strip() for u in url.split(",") if u.strip()]  # a cluster: several URLs
        nc = nats.NATS()

        async def disconnected() -> None:
            forget_unsent(nc)

        await nc.connect(
            servers,
            max_reconnect_attempts=-1,
            reconnect_time_wait=0.2,
            pending_size=0,  # no buffering while disconnected: an append fails at once instead
            disconnected_cb=disconnected,
            inbox_prefix=inbox_prefix(servers[0]),
        )
        log = cls(nc, stream, prefix)
        await log.ensure_stream(replicas)
        return log

    def subject(self, table: str) -> str:
        return subject(table, self.prefix)

    async def ensure_stream(self, replicas: int = 1) -> None:
        """The stream exists, with ``replicas`` copies: created if missing; an existing one with
        another count is updated where this user may (the operator's; services may not change
        the stream, so they say so and go on with what is there)."""
        try:
            info = await self.js.stream_info(self.stream)
        except NotFoundError:
            await self.js.add_stream(stream_config(replicas, self.stream, self.prefix))
            return
        if info.config.num_replicas != replicas:
            try:
                await self.js.update_stream(replace(info.config, num_replicas=replicas))
            except nats.errors.Error as e:
                log.warning(
                    "stream %s has %s replicas, %s configured; not updated (%s): an operator"
                    " updates it (python -m tools.launcher does with the admin user)",
                    self.stream,
                    info.config.num_replicas,
                    replicas,
                    e,
                )

    async def close(self) -> None:
        try:
            await asyncio.wait_for(self.nc.drain(), 2)
        except (TimeoutError, nats.errors.Error):
            await self.nc.close()

    async def append(
        self, table: str, data: bytes, expected: int, msg_id: str | None = None
    ) -> AppendResult:
        headers = {"Nats-Expected-Last-Subject-Sequence": str(expected)}
        if msg_id is not None:
            headers["Nats-Msg-Id"] = msg_id
        subj = self.subject(table)
        if not self.nc.is_connected:
            raise LogUnavailable("the event log is not connected")
        try:
            ack = await self.js.publish(subj, data, headers=headers, timeout=self.append_timeout)
        except APIError as e:
            if e.err_code == WRONG_LAST_SEQUENCE:
                raise WrongExpectedSequence(table, expected) from None
            raise LogUnavailable(str(e)) from None  # refused by JetStream: not stored
        except _NOT_STORED as e:
            raise LogUnavailable(str(e) or type(e).__name__) from None
        except _UNANSWERED as e:
            raise OutcomeUnknown(str(e) or type(e).__name__) from None
        return AppendResult(seq=ack.seq, duplicate=bool(ack.duplicate))

    async def last(self, table: str) -> Stored | None:
        subj = self.subject(table)
        try:
            msg = await self.js.get_last_msg(self.stream, subj, direct=True)
        except NotFoundError:
            return None
        except (*_NOT_STORED, *_UNANSWERED) as e:
            raise LogUnavailable(str(e) or type(e).__name__) from None
        return _stored(msg)

    async def read(self, table: str, after: int = 0) -> list[Stored]:
        try:
            return await self._read(table, after)
        except NotFoundError:
            return []
        except (*_NOT_STORED, *_UNANSWERED) as e:
            raise LogUnavailable(str(e) or type(e).__name__) from None

    async def _read(self, table: str, after: int) -> list[Stored]:
        last = await self.last(table)
        if last is None or last.seq <= after:
            return []
        out: list[Stored] = []
        seq = after + 1
        for _ in range(DIRECT_READS):
            try:
                msg = await self.js.get_msg(
                    self.stream, seq=seq, subject=self.subject(table), next=True, direct=True
                )
            except NotFoundError:
                return out
            stored = _stored(msg)
            out.append(stored)
            if stored.seq >= last.seq:
                return out
            seq = stored.seq + 1
        return out + await self._read_ordered(table, seq, last.seq)

    async def _read_ordered(self, table: str, start: int, until: int) -> list[Stored]:
        out: list[Stored] = []
        done = asyncio.get_running_loop().create_future()

        async def on_msg(msg: nats.aio.msg.Msg) -> None:
            meta = msg.metadata
            out.append(
                Stored(
                    seq=meta.sequence.stream,
                    table=table,
                    data=msg.data,
                    at=meta.timestamp.timestamp(),
                )
            )
            if meta.sequence.stream >= until and not done.done():
                done.set_result(None)

        sub = await self.js.subscribe(
            self.subject(table),
            stream=self.stream,  # named: no lookup by subject (and no right to list streams)
            cb=on_msg,
            ordered_consumer=True,
            config=api.ConsumerConfig(
                deliver_policy=api.DeliverPolicy.BY_START_SEQUENCE,
                opt_start_seq=start,
            ),
        )
        try:
            await asyncio.wait_for(done, timeout=30)
        finally:
            await sub.unsubscribe()
        return [s for s in out if s.seq <= until]

    async def consume(self, group: str, handle: Handler, ack_wait: float = 30) -> _Subscription:
        """A durable push consumer shared by the group's members (a deliver group): entries come
        as they are stored (no polling delay), one at a time in order, acked once handled."""

        async def on_msg(msg: nats.aio.msg.Msg) -> None:
            stored = _delivered(msg)
            try:
                await handle(stored)
            except Skip as e:  # no retry would help: logged, acknowledged
                log.error("%s: entry %s of %s skipped: %s", group, stored.seq, stored.table, e)
            except Exception as e:  # noqa: BLE001  (logged; the entry is delivered again)
                log.exception(
                    "%s: entry %s failed: %s (%s)", group, stored.seq, e, getattr(e, "err_code", "")
                )
                await msg.nak(delay=0.5)
                return
            await msg.ack()

        sub = await self.js.subscribe(
            f"{self.prefix}.*",
            queue=group,
            durable=group,
            stream=self.stream,
            cb=on_msg,
            manual_ack=True,
            pending_msgs_limit=100_000,
            config=api.ConsumerConfig(
                ack_policy=api.AckPolicy.EXPLICIT,
                max_ack_pending=20_000,
                ack_wait=ack_wait,
                deliver_policy=api.DeliverPolicy.ALL,
            ),
        )
        return _Subscription(sub)

    async def follow(self, handle: Handler, after: int | None = None) -> _Subscription:
        """An ordered consumer (unacknowledged, recreated by nats-py after a gap)."""

        async def on_msg(msg: nats.aio.msg.Msg) -> None:
            try:
                await handle(_delivered(msg))
            except Exception as e:  # noqa: BLE001  (a follower's reader catches up by itself)
                log.warning("following: entry %s not handled: %s", msg.metadata.sequence, e)

        config = (
            api.ConsumerConfig(deliver_policy=api.DeliverPolicy.NEW)
            if after is None
            else api.ConsumerConfig(
                deliver_policy=api.DeliverPolicy.BY_START_SEQUENCE, opt_start_seq=after + 1
            )
        )
        sub = await self.js.subscribe(
            f"{self.prefix}.*",
            stream=self.stream,  # named: no lookup by subject (and no right to list streams)
            cb=on_msg,
            ordered_consumer=True,
            config=config,
        )
        return _Subscription(sub)

    async def tables(self) -> AsyncIterator[str]:
        info = await self.js.stream_info(self.stream, subjects_filter=f"{self.prefix}.*")
        for subj in sorted((info.state.subjects or {}).keys()):
            yield table_of(subj)


class _Subscription:
    def __init__(self, sub: object) -> None:
        self._sub = sub

    async def close(self) -> None:
        try:
            await self._sub.unsubscribe()  # type: ignore[attr-defined]
        except nats_errors.Error as e:  # the connection is gone: nothing left to stop
            log.info("unsubscribing: %s", e)


def _delivered(msg: nats.aio.msg.Msg) -> Stored:
    meta = msg.metadata
    return Stored(
        seq=meta.sequence.stream,
        table=table_of(msg.subject),
        data=msg.data,
        at=meta.timestamp.timestamp(),
    )


def _stored(msg: api.RawStreamMsg) -> Stored:
    at = msg.time.timestamp() if getattr(msg, "time", None) else 0.0
    return Stored(seq=msg.seq, table=table_of(msg.subject), data=msg.data or b"", at=at)
