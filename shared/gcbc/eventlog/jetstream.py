"""The JetStream adapter of the event log: one stream; a table's commands and its answers each on a
subject of their own under its partition (``<prefix>.<partition>.<table>.c`` and ``.a``,
gcbc.eventlog.partitions), so a consumer of one kind is not handed the other (issue 13). A table
written before they were apart has every entry on ``<prefix>.<partition>.<table>``, to its end.

Optimistic concurrency is JetStream's own ``Nats-Expected-Last-Subject-Sequence``, over both of a
table's subjects (``-Subject: <prefix>.<partition>.<table>.*``; a stale expectation is refused
with error 10071), and idempotence its ``Nats-Msg-Id`` deduplication. Reads use direct gets for
short catch-ups and a push consumer of their own (the scan's, below) for long ones.

A whole-log pass (``scan``) reads through a push consumer of its own, with flow control, on a
lean path: nats-py builds a message object, parses its headers (every entry carries the append's
``Nats-Expected-Last-Subject-Sequence`` and ``Nats-Msg-Id``) and queues it for a callback, ~18 µs
an entry here; the pass needs only the subject, the data and the sequence and time that the
acknowledgement subject already names, ~6 µs (what makes ``rebuild --all`` reach 50,000 entries/s
on 2 cores). It checks the consumer sequence for gaps and starts again after the last entry it
had, so nothing is missed or seen twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import re
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import replace
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

import msgspec
import nats
from nats import errors as nats_errors
from nats.aio.client import Client as _NatsClient
from nats.js import api
from nats.js.errors import APIError, NoStreamResponseError, NotFoundError

from gcbc.contract.ids import checked
from gcbc.eventlog.partitions import PARTITIONS, group_of, partition_group, partition_of
from gcbc.eventlog.port import (
    AppendResult,
    BatchHandler,
    GroupStatus,
    Handler,
    LogStatus,
    LogUnavailable,
    Only,
    OutcomeUnknown,
    Skip,
    Stored,
    WrongExpectedSequence,
    combined,
    one_by_one,
)

STREAM = "GCBC_TABLES"
PREFIX = "gcbc.table"
WRONG_LAST_SEQUENCE = 10071
log = logging.getLogger("gcbc.eventlog")
DIRECT_READS = 16  # past this many entries, a catch-up uses a consumer of its own
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


def reader_name(owner: str) -> str:
    """A name for one of the log's readers (a consumer of its own): its user's, so an operator
    sees whose it is, and a part no other client can guess. Named in the request's subject, it
    lets NATS permissions refuse a durable's name (tools.devservers)."""
    return f"{re.sub(r'[^A-Za-z0-9_-]', '_', owner)}-{secrets.token_hex(8)}"


COMMANDS, ANSWERS = "c", "a"  # the last token of a table's commands' subject, its answers'
EXPECTED_LAST = "Nats-Expected-Last-Subject-Sequence"
EXPECTED_LAST_OF = "Nats-Expected-Last-Subject-Sequence-Subject"  # (NATS 2.11) another subject's


def subject(table: str, prefix: str = PREFIX, partitions: int = PARTITIONS) -> str:
    """The table's subject, under its partition: its commands' and its answers' are this and a
    token more (``.c``, ``.a``); a log written before they were apart has every entry here. An
    id that is not one safe token (``*``, ``>``, a dot, a space, a control character) raises
    InvalidTableId: it could read or write other tables."""
    return f"{prefix}.{partition_of(checked(table), partitions)}.{table}"


def subject_filter(prefix: str = PREFIX, partition: int | None = None) -> str:
    """Every table's subject (None), or one partition's: what a log written before commands and
    answers were apart has."""
    return f"{prefix}.{'*' if partition is None else partition}.*"


def stream_subjects(prefix: str = PREFIX) -> list[str]:
    """The stream's subjects: every table's, its commands' and its answers'."""
    return [subject_filter(prefix), f"{subject_filter(prefix)}.*"]


def filters(
    prefix: str, partition: int | None, only: Only, apart: bool = True, before: bool = True
) -> list[str]:
    """What a consumer reads: the commands' or the answers' subjects (or both), and the tables'
    own subjects where the log has tables written before commands and answers were apart.
    ``apart``: the stream has their subjects (else the tables' alone); ``before``: it may hold
    tables written before. As few as do: JetStream serves a consumer of several filters by a
    slower path (a whole-log pass: 20,000 against 84,000 entries/s here), and one without a
    filter by the fastest (none: every entry of the stream, which holds only these; a whole-log
    pass 161,000 entries/s against 112,000 with the one filter <prefix>.*.>)."""
    stem = subject_filter(prefix, partition)
    if only is None and partition is None:
        return []  # every entry of the stream
    if not apart:
        return [stem]
    if only is None:
        return [f"{prefix}.{partition}.>"]  # every kind, both ages
    kind = f"{stem}.{ANSWERS if only == 'answers' else COMMANDS}"
    return [stem, kind] if before else [kind]


def table_of(subj: str, prefix: str = PREFIX) -> str:
    """The table a subject is of (its commands', its answers', or the table's own)."""
    return subj[len(prefix) + 1 :].split(".", 2)[1]


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


Sink = Callable[[bytes, bytes, bytes, bytes | None], "str | None"]


class _Client(_NatsClient):
    """nats-py's client, with a lean path for the subscriptions that register a sink: their
    messages go straight to it (no message object, no header parsing, no queue). A sink may
    return a subject to publish an empty reply to (flow control)."""

    def __init__(self) -> None:
        super().__init__()
        self.sinks: dict[int, Sink] = {}

    async def _process_msg(  # type: ignore[override]
        self, sid: int, subject: bytes, reply: bytes, data: bytes, headers: bytes | None
    ) -> None:
        sink = self.sinks.get(sid) if self.sinks else None
        if sink is None:
            await super()._process_msg(sid, subject, reply, data, headers)
            return
        answer = sink(subject, reply, data, headers)
        if answer:
            await self.publish(answer)


class _PubAck(msgspec.Struct):
    """JetStream's answer to a publish: where it stored it, or why not."""

    seq: int = 0
    duplicate: bool = False
    error: dict[str, Any] | None = None


_pub_ack = msgspec.json.Decoder(_PubAck)


class _Appends:
    """Appends and their acknowledgements on the client's lean path: each append publishes with
    a reply subject under one inbox of this client's, whose replies go straight to the future
    waiting for them. nats-py's ``js.publish`` makes a request (a future in its map, a task of
    ``wait_for`` per request, the reply as a message object) and decodes the answer into a
    dataclass: 46 us of CPU per append here, against about half that this way. The table
    service appends once per command, the rules worker once more."""

    def __init__(self, nc: _Client) -> None:
        self.nc = nc
        self.prefix = ""
        self.waiting: dict[bytes, asyncio.Future[tuple[bytes, bytes | None]]] = {}
        self.count = 0
        self._starting: asyncio.Lock | None = None

    async def _start(self) -> None:
        if self._starting is None:
            self._starting = asyncio.Lock()
        async with self._starting:
            if self.prefix:
                return
            inbox = self.nc.new_inbox()
            sub = await self.nc.subscribe(f"{inbox}.*")
            self.nc.sinks[sub._id] = self._answered  # noqa: SLF001
            self.prefix = f"{inbox}."

    def _answered(self, subject: bytes, reply: bytes, data: bytes, headers: bytes | None) -> None:
        future = self.waiting.pop(subject[subject.rfind(b".") + 1 :], None)
        if future is not None and not future.done():
            future.set_result((data, headers))

    async def publish(
        self, subject: str, data: bytes, headers: dict[str, str], timeout: float
    ) -> _PubAck:
        """Publish and wait for JetStream's acknowledgement (raised as nats-py raises: no
        stream answering, JetStream's refusal as APIError, the wait's TimeoutError)."""
        if not self.prefix:
            await self._start()
        self.count += 1
        token = b"%d" % self.count
        future = asyncio.get_running_loop().create_future()
        self.waiting[token] = future
        try:
            await self.nc.publish(subject, data, f"{self.prefix}{self.count}", headers)
            async with asyncio.timeout(timeout):
                body, status = await future
        finally:
            self.waiting.pop(token, None)
        if not body and status and status.startswith(b"NATS/1.0 503"):
            raise NoStreamResponseError  # nobody answered the subject: no stream stored it
        ack = _pub_ack.decode(body)
        if ack.error is not None:
            APIError.from_error(ack.error)
        return ack


async def _quiet(e: Exception) -> None:
    """nats-py's asynchronous errors, one line each (its default logs a traceback per retry)."""
    log.warning("nats: %s", str(e) or type(e).__name__)


def _when(text: str | None) -> float | None:
    """An RFC 3339 time as JetStream writes it (nanoseconds) in seconds since the epoch."""
    if not text or text.startswith("0001-"):
        return None
    head, _, rest = text.partition(".")
    fraction = rest.rstrip("Z")[:6] if rest else "0"
    base = datetime.fromisoformat((head if rest else text.rstrip("Z")) + "+00:00")
    return base.timestamp() + (int(fraction.ljust(6, "0")) / 1e6 if rest else 0.0)


_json = msgspec.json.Decoder()


PARTITIONS_KEY = "gcbc_partitions"  # the stream's metadata: its P, fixed for its life
# the stream's metadata: its last sequence when its commands and answers were first stored apart
# (0: always were); a table with entries up to it keeps its one subject to the end
APART_KEY = "gcbc_apart_after"


def stream_config(
    replicas: int = 1, stream: str = STREAM, prefix: str = PREFIX, partitions: int = PARTITIONS
) -> api.StreamConfig:
    return api.StreamConfig(
        name=stream,
        subjects=stream_subjects(prefix),
        metadata={PARTITIONS_KEY: str(partitions), APART_KEY: "0"},
        storage=api.StorageType.FILE,
        retention=api.RetentionPolicy.LIMITS,
        num_replicas=replicas,
        duplicate_window=120.0,
        allow_direct=True,
    )


class JetStreamEventLog:
    def __init__(
        self,
        nc: nats.NATS,
        stream: str = STREAM,
        prefix: str = PREFIX,
        partitions: int = PARTITIONS,
    ) -> None:
        self.nc = nc
        self.js = nc.jetstream()
        self.owner = "reader"  # its readers' names begin with it: the connection's user
        # appends on the client's lean path (a client made elsewhere: nats-py's own)
        self._appends = _Appends(nc) if isinstance(nc, _Client) else None
        self.stream = stream
        self.prefix = prefix
        self.partitions = partitions  # the stream's own, once connected
        self.append_timeout = APPEND_TIMEOUT
        # direct gets may be answered by any replica, one not caught up yet included: a table's
        # reads (a catch-up after a stale append, above all) go through the leader unless the
        # stream has one copy
        self.direct = True
        # the stream stores a table's commands and its answers apart (a subject each), so a
        # consumer of one kind is not handed the other (issue 13); the tables written before
        # (entries up to ``apart_after``; None: not known) keep their one subject to the end
        self.apart = True
        self.apart_after: int | None = 0
        self._one_subject: set[str] = set()  # tables found written before: their one subject

    @classmethod
    async def connect(
        cls,
        url: str,
        replicas: int = 1,
        stream: str = STREAM,
        prefix: str = PREFIX,
        patient: bool = True,
        create: bool = True,
        partitions: int = PARTITIONS,
    ) -> JetStreamEventLog:
        """``patient``: a service waits for NATS as long as it takes; a tool (``patient=False``)
        gives up within seconds with LogUnavailable. ``create``: make the stream if missing,
        with ``partitions`` (an existing stream keeps its own, recorded in it)."""
        servers = [u.strip() for u in url.split(",") if u.strip()]  # a cluster: several URLs
        nc = _Client()

        async def disconnected() -> None:
            forget_unsent(nc)

        try:
            await nc.connect(
                servers,
                max_reconnect_attempts=-1 if patient else 1,
                reconnect_time_wait=0.2 if patient else 0.5,
                connect_timeout=2,
                pending_size=0,  # no buffering while disconnected: an append fails at once
                disconnected_cb=disconnected,
                error_cb=_quiet,
                inbox_prefix=inbox_prefix(servers[0]),
            )
        except (nats_errors.Error, OSError, TimeoutError) as e:
            await nc.close()
            raise LogUnavailable(str(e) or type(e).__name__) from None
        log = cls(nc, stream, prefix, partitions)
        log.owner = urlsplit(servers[0]).username or log.owner
        try:
            if create:
                info = await log.ensure_stream(replicas)
            else:
                info = await log.js.stream_info(stream)
                log.direct = info.config.num_replicas == 1
            log.partitions = stream_partitions(info.config, partitions)
            log.layout(info.config)
        except NotFoundError:
            await log.close()
            raise LogUnavailable(f"no stream {stream}") from None
        except (*_NOT_STORED, *_UNANSWERED) as e:
            await log.close()
            raise LogUnavailable(str(e) or type(e).__name__) from None
        return log

    def subject(self, table: str) -> str:
        return subject(table, self.prefix, self.partitions)

    def layout(self, config: api.StreamConfig) -> None:
        """Whether the stream stores commands and answers apart, and since when."""
        self.apart = set(stream_subjects(self.prefix)) <= set(config.subjects or ())
        recorded = (config.metadata or {}).get(APART_KEY)
        self.apart_after = int(recorded) if recorded is not None else None

    def _one(self, table: str) -> bool:
        """Whether the table's entries are all on its one subject (a stream or a table from
        before commands and answers were apart)."""
        return not self.apart or table in self._one_subject

    def _may_be_one(self, table: str) -> bool:
        """Whether the table may have been written on its one subject."""
        return not self.apart or self.apart_after != 0 or table in self._one_subject

    def _of_table(self, table: str) -> str:
        """What a table's entries are read by: its one subject, or its commands' and answers'."""
        stem = self.subject(table)
        return stem if self._one(table) else f"{stem}.*"

    def _filters(self, partition: int | None, only: Only) -> list[str]:
        return filters(self.prefix, partition, only, self.apart, self.apart_after != 0)

    async def ensure_stream(self, replicas: int = 1) -> api.StreamInfo:
        """The stream exists, with ``replicas`` copies: created if missing; an existing one with
        another count is updated where this user may (the operator's; services may not change
        the stream, so they say so and go on with what is there)."""
        try:
            info = await self.js.stream_info(self.stream)
        except NotFoundError:
            config = stream_config(replicas, self.stream, self.prefix, self.partitions)
            self.direct = replicas == 1
            try:
                return await self.js.add_stream(config)
            except APIError:  # another process created it meanwhile: take what it made
                return await self.js.stream_info(self.stream)
        self.direct = replicas == 1 and info.config.num_replicas == 1
        info = await self._give_subjects(info)
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
        return info

    async def _give_subjects(self, info: api.StreamInfo) -> api.StreamInfo:
        """The stream with today's subjects: a stream made before partitions (subjects
        <prefix>.<table>), or before commands and answers were apart, is given them where this
        user may (the operator's). Its tables are not moved (their entries stay where they are:
        each keeps its one subject to its end), and where the old log ends is recorded."""
        wanted = stream_subjects(self.prefix)
        if info.config.subjects == wanted:
            return info
        partitioned = info.config.subjects == [subject_filter(self.prefix)]
        metadata = {**(info.config.metadata or {})}
        if not partitioned:
            metadata[PARTITIONS_KEY] = str(self.partitions)
        metadata.setdefault(APART_KEY, str(info.state.last_seq))
        try:
            info = await self.js.update_stream(
                replace(info.config, subjects=wanted, metadata=metadata)
            )
        except nats.errors.Error as e:
            log.error(
                "stream %s keeps its subjects %s (%s): an operator updates it (gcbc-ops upgrade)",
                self.stream,
                info.config.subjects,
                e,
            )
            return info
        log.warning("stream %s given the subjects %s", self.stream, wanted)
        if not partitioned:
            await self._drop_unpartitioned_consumers()
        return info

    async def upgrade(self) -> list[str]:
        """The operator's: the stream brought up to this code's subjects (services restarted
        afterwards use them); what changed."""
        try:
            before = await self.js.stream_info(self.stream)
            after = await self._give_subjects(before)
        except (*_NOT_STORED, *_UNANSWERED) as e:
            raise LogUnavailable(str(e) or type(e).__name__) from None
        self.layout(after.config)
        if after.config.subjects == before.config.subjects:
            if not self.apart:
                raise LogUnavailable(f"stream {self.stream}: its subjects could not be changed")
            return []
        return [
            f"stream {self.stream}: subjects {before.config.subjects} -> {after.config.subjects};"
            f" the tables written up to #{self.apart_after} keep their one subject"
        ]

    async def _drop_unpartitioned_consumers(self) -> None:
        """The durable consumers of the subjects before partitions see nothing any more, and
        would stand for their group (``group``) in place of its partitions' consumers."""
        old = f"{self.prefix}.*"
        page = await self._api(f"CONSUMER.LIST.{self.stream}", {"offset": 0})
        for info in page.get("consumers") or []:
            config = info.get("config") or {}
            if config.get("durable_name") and config.get("filter_subject") == old:
                await self.js.delete_consumer(self.stream, config["durable_name"])
                log.warning("consumer %s (of the subjects before partitions) deleted", info["name"])

    async def close(self) -> None:
        try:
            await asyncio.wait_for(self.nc.drain(), 2)
        except (TimeoutError, nats.errors.Error):
            await self.nc.close()

    async def append(
        self,
        table: str,
        data: bytes,
        expected: int,
        msg_id: str | None = None,
        answer: bool = False,
    ) -> AppendResult:
        """On the table's commands' or answers' subject, expecting ``expected`` as the last
        sequence of both (JetStream checks another subject's last sequence: NATS 2.11)."""
        stem = self.subject(table)
        headers = {EXPECTED_LAST: str(expected)}
        if self._one(table):
            subj = stem
        else:
            subj = f"{stem}.{ANSWERS if answer else COMMANDS}"
            headers[EXPECTED_LAST_OF] = f"{stem}.*"
        if msg_id is not None:
            headers["Nats-Msg-Id"] = msg_id
        if not self.nc.is_connected:
            raise LogUnavailable("the event log is not connected")
        try:
            if self._appends is not None:
                ack = await self._appends.publish(subj, data, headers, self.append_timeout)
            else:
                ack = await self.js.publish(
                    subj, data, headers=headers, timeout=self.append_timeout
                )
        except APIError as e:
            if e.err_code == WRONG_LAST_SEQUENCE:
                if expected and not self._one(table) and await self._written_before(table):
                    return await self.append(table, data, expected, msg_id, answer)
                raise WrongExpectedSequence(table, expected) from None
            raise LogUnavailable(str(e)) from None  # refused by JetStream: not stored
        except _NOT_STORED as e:
            raise LogUnavailable(str(e) or type(e).__name__) from None
        except _UNANSWERED as e:
            raise OutcomeUnknown(str(e) or type(e).__name__) from None
        return AppendResult(seq=ack.seq, duplicate=bool(ack.duplicate))

    async def last(self, table: str) -> Stored | None:
        if self._one(table):
            return await self._last_on(self.subject(table))
        got = await self._last_on(f"{self.subject(table)}.*")
        if got is None and await self._written_before(table):
            return await self._last_on(self.subject(table))
        return got

    async def at(self, table: str, seq: int) -> Stored | None:
        """The entry at ``seq`` if it is the table's (one direct get)."""
        try:
            msg = await self.js.get_msg(self.stream, seq=seq, direct=self.direct)
        except NotFoundError:
            return None
        except (*_NOT_STORED, *_UNANSWERED) as e:
            raise LogUnavailable(str(e) or type(e).__name__) from None
        stored = _stored(msg, self.prefix)
        return stored if stored.table == checked(table) else None

    async def _written_before(self, table: str) -> bool:
        """Whether the table was written before commands and answers were apart (then its
        entries are all on its one subject, to its end: noted)."""
        if self.apart_after == 0:
            return False  # the stream always had them apart
        if await self._last_on(self.subject(table)) is None:
            return False
        self._one_subject.add(table)
        return True

    async def _last_on(self, subj: str) -> Stored | None:
        try:
            msg = await self.js.get_last_msg(self.stream, subj, direct=self.direct)
        except NotFoundError:
            return None
        except (*_NOT_STORED, *_UNANSWERED) as e:
            raise LogUnavailable(str(e) or type(e).__name__) from None
        return _stored(msg, self.prefix)

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
                    self.stream,
                    seq=seq,
                    subject=self._of_table(table),  # (after last(): the table's layout known)
                    next=True,
                    direct=self.direct,
                )
            except NotFoundError:
                return out
            stored = _stored(msg, self.prefix)
            out.append(stored)
            if stored.seq >= last.seq:
                return out
            seq = stored.seq + 1
        return out + await self._read_ordered(table, seq, last.seq)

    async def _read_ordered(self, table: str, start: int, until: int) -> list[Stored]:
        # the log's own reader, not nats-py's ordered consumer: that one starts again unnamed
        reader = _Scan(self, start - 1, until, [self._of_table(table)])
        out: list[Stored] = []
        try:
            async with asyncio.timeout(30):
                while (batch := await reader.next()) is not None:
                    out += batch
        finally:
            await reader.close()
        return [s for s in out if s.seq <= until]

    async def consume(
        self,
        group: str,
        handle: Handler,
        ack_wait: float = 30,
        partition: int | None = None,
        only: Only = None,
    ) -> _Subscription:
        """A durable push consumer shared by the group's members (a deliver group): entries come
        as they are stored (no polling delay), in order, each acked once handled.
        ``partition``: that partition's tables only, through its own durable consumer
        (``<group>-p<partition>``); ``only``: the commands' or the answers' subjects (and the
        tables' own, of the tables written before they were apart)."""
        return await self.consume_batches(
            group, one_by_one(handle), ack_wait, partition=partition, only=only
        )

    async def consume_batches(
        self,
        group: str,
        handle: BatchHandler,
        ack_wait: float = 30,
        most: int = 256,
        partition: int | None = None,
        only: Only = None,
    ) -> _Subscription:
        """As ``consume``, every entry already arrived handed over at once (up to ``most``).
        Deliveries take the client's lean path (``_Client``: no message object, no header
        parsing, no queue of nats-py's own): the entry's sequence and time are read from the
        acknowledgement subject, and the entry is queued here with it; one task hands the queue
        over in batches and acks (or naks) them together: one write of acknowledgements per
        batch."""
        durable = group if partition is None else partition_group(group, partition)
        queue: asyncio.Queue[tuple[Stored, str]] = asyncio.Queue()
        publish = self.nc.publish

        acking: set[asyncio.Task] = set()

        async def ack_after(later: Awaitable[object], replies: list[str]) -> None:
            """Acknowledge once the work the handler returned for them is done."""
            try:
                await later
            except Exception as e:  # noqa: BLE001  (not acknowledged: delivered again)
                log.warning("%s: %d entries not acknowledged: %s", group, len(replies), e)
                acks = [publish(reply, NAK_SOON) for reply in replies]
            else:
                acks = [publish(reply) for reply in replies]
            for done in await asyncio.gather(*acks, return_exceptions=True):
                if isinstance(done, Exception):  # unacked: delivered again after ack_wait
                    log.warning("%s: an entry not acknowledged: %s", group, done)

        skip = len(self.prefix) + 1  # a subject's tokens after the prefix: <p>.<table>[.<kind>]
        # its own consumer's deliveries name it in their acknowledgement subject: another client
        # may point a consumer of its own at this deliver subject (its name is no secret)
        ours = f".{self.stream}.{durable}.".encode()

        def sink(subject: bytes, reply: bytes, data: bytes, headers: bytes | None) -> None:
            if not data or not reply:
                return None  # a status message (this consumer asks for no heartbeats)
            if ours not in reply:
                return None  # not its consumer's delivery
            at = _acked(reply)
            if at is None:
                return None  # not a JetStream delivery
            table = _table_at(subject, skip)
            queue.put_nowait(
                (Stored(seq=at[0], table=table, data=data, at=at[2] / 1e9), reply.decode())
            )
            return None

        async def run() -> None:
            while True:
                got = [await queue.get()]
                while len(got) < most and not queue.empty():
                    got.append(queue.get_nowait())
                entries = [stored for stored, _ in got]
                try:
                    results = await handle(entries)
                except Exception as e:  # noqa: BLE001  (logged; the batch is delivered again)
                    results = [e] * len(entries)
                waiting: dict[int, tuple[Awaitable[object], list[str]]] = {}
                for (stored, reply), result in zip(got, results, strict=True):
                    try:
                        if result is None:
                            await publish(reply)
                            continue
                        if inspect.isawaitable(result):  # acknowledged once it is done
                            waiting.setdefault(id(result), (result, []))[1].append(reply)
                            continue
                        if isinstance(result, Skip):  # no retry would help: logged, acknowledged
                            log.error(
                                "%s: entry %s of %s skipped: %s",
                                group,
                                stored.seq,
                                stored.table,
                                result,
                            )
                            await publish(reply)
                            continue
                        log.error(
                            "%s: entry %s failed: %s (%s)",
                            group,
                            stored.seq,
                            result,
                            getattr(result, "err_code", ""),
                            exc_info=result,
                        )
                        await publish(reply, NAK_SOON)
                    except nats_errors.Error as e:  # unacked: delivered again after ack_wait
                        log.warning("%s: entry %s not acknowledged: %s", group, stored.seq, e)
                for later, held in waiting.values():  # the next batch goes on meanwhile
                    task = asyncio.create_task(ack_after(later, held))
                    acking.add(task)
                    task.add_done_callback(acking.discard)

        async def on_msg(msg: nats.aio.msg.Msg) -> None:
            # nats-py's own path: only what came before the sink was in place
            if ours in msg.reply.encode():
                queue.put_nowait((_delivered(msg, self.prefix), msg.reply))

        deliver = await self._durable(durable, self._filters(partition, only), ack_wait)
        sub = await self.nc.subscribe(deliver, queue=durable, cb=on_msg, pending_msgs_limit=100_000)
        self.nc.sinks[sub._id] = sink  # type: ignore[attr-defined]  # noqa: SLF001
        return _Subscription(sub, asyncio.create_task(run()), self.nc)

    async def _durable(self, durable: str, subjects: list[str], ack_wait: float) -> str:
        """The durable push consumer of ``subjects`` (its deliver group: its own name), made if
        missing, its subjects brought up to these if it had others (a consumer made before
        commands and answers were apart reads them all); its deliver subject."""
        config = api.ConsumerConfig(
            durable_name=durable,
            deliver_group=durable,
            ack_policy=api.AckPolicy.EXPLICIT,
            max_ack_pending=20_000,
            ack_wait=ack_wait,
            deliver_policy=api.DeliverPolicy.ALL,
            **_subjects_config(subjects),
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
                if sorted(had) != sorted(subjects):
                    config.deliver_subject = info.config.deliver_subject
                    info = await self.js.add_consumer(self.stream, config)
                    log.warning("consumer %s now reads %s (it read %s)", durable, subjects, had)
        except (*_NOT_STORED, *_UNANSWERED) as e:
            raise LogUnavailable(str(e) or type(e).__name__) from None
        assert info.config.deliver_subject is not None
        return info.config.deliver_subject

    async def follow(
        self,
        handle: Handler,
        after: int | None = None,
        table: str | None = None,
        only: Only = None,
    ) -> _Following:
        """A push consumer of its own, unacknowledged, on the client's lean path (the scan's
        reader, never ending: started again after the last entry handed over on a gap, a
        silence or a lost connection). The consumer exists once this returns. ``table``: its
        entries of every kind; ``only``: every table's commands, or answers."""
        if table is None:
            subjects = self._filters(None, only)
        else:
            stem = self.subject(table)
            if not self.apart:
                subjects = [stem]
            else:
                subjects = [f"{stem}.*", stem] if self._may_be_one(table) else [f"{stem}.*"]
        reader = _Scan(self, after, None, subjects)
        # a restarted server forgets the consumer: heard sooner than a scan's silence
        reader.HEARTBEAT, reader.SILENCE = 2.0, 6.0
        await reader._start()  # noqa: SLF001

        async def run() -> None:
            while True:
                try:
                    batch = await reader.next()
                except LogUnavailable as e:
                    log.info("following: %s; starting again", e)
                    await reader._stop()  # noqa: SLF001
                    await asyncio.sleep(0.5)
                    continue
                for stored in batch or ():
                    try:
                        await handle(stored)
                    except Exception as e:  # noqa: BLE001  (a follower's reader catches up)
                        log.warning("following: entry %s not handled: %s", stored.seq, e)

        return _Following(reader, asyncio.create_task(run()))

    async def tables(self, partition: int | None = None) -> AsyncIterator[str]:
        _, sizes = await self.sizes(partition)
        for table in sorted(sizes):
            yield table

    # --- operators: the whole log, its state, the groups' progress ------------------------------
    async def _api(self, subject: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        """A JetStream API request, its answer decoded (NotFoundError: no such stream or
        consumer; LogUnavailable: no answer, or another error)."""
        try:
            msg = await self.nc.request(
                f"$JS.API.{subject}", msgspec.json.encode(body) if body else b"", timeout=5
            )
        except (*_NOT_STORED, *_UNANSWERED) as e:
            raise LogUnavailable(str(e) or type(e).__name__) from None
        got = _json.decode(msg.data)
        error = got.get("error")
        if error:
            if error.get("code") == 404:
                raise NotFoundError(description=error.get("description"))
            raise LogUnavailable(f"{error.get('description')} ({error.get('err_code')})")
        return got

    async def sizes(self, partition: int | None = None) -> tuple[int, dict[str, int]]:
        """One snapshot of the stream's subjects (``partition``: that one's), page by page
        (JetStream pages them): a table's commands and answers counted together."""
        out: dict[str, int] = {}
        last = seen = 0
        body: dict[str, Any] = {"subjects_filter": self._everything(partition)}
        while True:
            got = await self._api(f"STREAM.INFO.{self.stream}", body)
            state = got.get("state", {})
            if not seen:
                last = state.get("last_seq", 0)
            subjects = state.get("subjects") or {}
            for subj, count in subjects.items():
                table = table_of(subj, self.prefix)
                out[table] = out.get(table, 0) + count
            seen += len(subjects)
            total = got.get("total", 0)
            if not subjects or seen >= total:
                return last, out
            body = {**body, "offset": seen}

    def _everything(self, partition: int | None) -> str:
        """One filter for every entry of every table (of ``partition``), of any kind."""
        return f"{self.prefix}.{'*' if partition is None else partition}.>"

    async def _entry_at(self, seq: int, partition: int | None = None) -> float | None:
        """When the first entry at or after ``seq`` was stored (None: none)."""
        try:
            msg = await self.js.get_msg(
                self.stream,
                seq=seq,
                subject=self._everything(partition),
                next=True,
                direct=True,
            )
        except NotFoundError:
            return None
        return _stored(msg, self.prefix).at or None

    def _group(self, info: dict[str, Any]) -> GroupStatus:
        return GroupStatus(
            name=info.get("name", ""),
            pending=info.get("num_pending", 0),
            ack_pending=info.get("num_ack_pending", 0),
            redelivered=info.get("num_redelivered", 0),
            delivered=(info.get("delivered") or {}).get("stream_seq", 0),
            acked=(info.get("ack_floor") or {}).get("stream_seq", 0),
        )

    async def _with_oldest(self, g: GroupStatus) -> GroupStatus:
        if not g.lag:
            return g
        partition = group_of(g.name)[1]
        return msgspec.structs.replace(g, oldest_at=await self._entry_at(g.acked + 1, partition))

    async def group(self, name: str) -> GroupStatus | None:
        """A durable consumer's progress, or a group's over its partitions' consumers."""
        try:
            info = await self._api(f"CONSUMER.INFO.{self.stream}.{name}")
        except NotFoundError:
            pass
        else:
            return await self._with_oldest(self._group(info))
        parts: list[GroupStatus] = []
        for p in range(self.partitions):
            try:
                info = await self._api(f"CONSUMER.INFO.{self.stream}.{partition_group(name, p)}")
            except NotFoundError:
                continue
            parts.append(await self._with_oldest(self._group(info)))
        return combined(name, parts) if parts else None

    async def status(self) -> LogStatus:
        got = await self._api(f"STREAM.INFO.{self.stream}")
        state = got.get("state", {})
        groups: list[GroupStatus] = []
        offset = 0
        while True:
            page = await self._api(f"CONSUMER.LIST.{self.stream}", {"offset": offset})
            consumers = page.get("consumers") or []
            for info in consumers:
                if (info.get("config") or {}).get("durable_name"):  # ephemeral readers: not groups
                    groups.append(await self._with_oldest(self._group(info)))
            offset += len(consumers)
            if not consumers or offset >= page.get("total", 0):
                break
        by_group: dict[str, list[GroupStatus]] = {}
        for g in groups:  # a group's partitions are shown as the group
            by_group.setdefault(group_of(g.name)[0], []).append(g)
        return LogStatus(
            entries=state.get("messages", 0),
            bytes=state.get("bytes", 0),
            first=state.get("first_seq", 0),
            last=state.get("last_seq", 0),
            last_at=_when(state.get("last_ts")) if state.get("messages") else None,
            # a table has a subject, or its commands' and its answers' (counted as one)
            tables=len((await self.sizes())[1]) if self.apart else state.get("num_subjects", 0),
            groups=[combined(name, parts) for name, parts in sorted(by_group.items())],
        )

    async def scan(self, after: int = 0, until: int | None = None) -> AsyncIterator[list[Stored]]:
        if until is None:
            until = (
                (await self._api(f"STREAM.INFO.{self.stream}")).get("state", {}).get("last_seq", 0)
            )
        if until <= after:
            return
        reader = _Scan(self, after, until)
        try:
            while True:
                batch = await reader.next()
                if batch is None:
                    return
                yield batch
        finally:
            await reader.close()


class _Scan:
    """One pass over the log through a push consumer of its own (flow control, no acks), on the
    client's lean path. Entries are kept in batches; past ``HIGH`` kept, flow control replies
    wait, so JetStream sends no more than the reader takes. ``until`` None: the pass never ends
    (a follower: ``after`` None, from the entries stored from now on); ``subjects``: those of
    these subjects only (None: every table's entries)."""

    BATCH = 2000
    HIGH = 20_000
    HEARTBEAT = 5.0  # seconds between the consumer's heartbeats while it has nothing to send
    SILENCE = 15.0  # seconds without a message: start again

    def __init__(
        self,
        log: JetStreamEventLog,
        after: int | None,
        until: int | None,
        subjects: list[str] | None = None,
    ) -> None:
        self.log, self.until = log, until
        self.subjects = subjects or log._filters(None, None)  # noqa: SLF001
        self.skip = len(log.prefix) + 1
        self.last = after  # the last entry handed over or kept (None: none yet, from now on)
        self.kept: list[Stored] = []
        self.ready = asyncio.Event()
        self.done = False
        self.gap = False
        self.withheld: str | None = None  # a flow control reply waiting for the reader
        self.sid: int | None = None
        self.consumer: str | None = None
        self.expected = 1  # the next consumer sequence
        self.silence: asyncio.Timeout | None = None  # the wait for entries, while one waits

    async def _start(self) -> None:
        nc = self.log.nc
        inbox = nc.new_inbox()
        sub = await nc.subscribe(inbox)
        self.sid = sub._id  # noqa: SLF001
        nc.sinks[self.sid] = self._sink  # type: ignore[attr-defined]
        self.expected, self.gap = 1, False
        config = api.ConsumerConfig(
            name=reader_name(self.log.owner),
            deliver_subject=inbox,
            ack_policy=api.AckPolicy.NONE,
            deliver_policy=api.DeliverPolicy.NEW
            if self.last is None
            else api.DeliverPolicy.BY_START_SEQUENCE,
            opt_start_seq=None if self.last is None else self.last + 1,
            **_subjects_config(self.subjects),
            flow_control=True,
            idle_heartbeat=self.HEARTBEAT,
            mem_storage=True,
            inactive_threshold=30.0,
        )
        try:
            info = await self.log.js.add_consumer(self.log.stream, config)
        except (*_NOT_STORED, *_UNANSWERED) as e:
            await self._stop()
            raise LogUnavailable(str(e) or type(e).__name__) from None
        self.consumer = info.name

    async def _stop(self) -> None:
        nc = self.log.nc
        if self.sid is not None:
            nc.sinks.pop(self.sid, None)  # type: ignore[attr-defined]
            sub = nc._subs.get(self.sid)  # noqa: SLF001
            self.sid = None
            if sub is not None:
                try:
                    await sub.unsubscribe()
                except nats_errors.Error:
                    pass
        if self.consumer is not None:
            name, self.consumer = self.consumer, None
            try:
                await self.log.js.delete_consumer(self.log.stream, name)
            except (*_NOT_STORED, *_UNANSWERED, NotFoundError):
                pass  # it goes by itself once inactive

    def _sink(self, subject: bytes, reply: bytes, data: bytes, headers: bytes | None) -> str | None:
        if not data:  # flow control, or a heartbeat (maybe naming a stalled flow control)
            silence = self.silence
            if silence is not None and not silence.expired():
                # the consumer is there with nothing to send: no reason to start again
                silence.reschedule(asyncio.get_running_loop().time() + self.SILENCE)
            if reply:
                return self._flow(reply.decode())
            if headers and b"Nats-Consumer-Stalled:" in headers:
                stalled = headers.split(b"Nats-Consumer-Stalled:", 1)[1].split(b"\r\n", 1)[0]
                return self._flow(stalled.strip().decode())
            return None
        if self.done or self.gap:
            return None
        at = _acked(reply)
        if at is None:
            return None  # not a JetStream delivery
        sseq, dseq, ts, pending = at
        if dseq != self.expected:
            self.gap = True  # something was lost on the way: start again after self.last
            self.ready.set()
            return None
        self.expected += 1
        until = self.until
        if until is not None and sseq > until:
            self.done = True
            self.ready.set()
            return None
        table = _table_at(subject, self.skip)
        self.kept.append(Stored(seq=sseq, table=table, data=data, at=ts / 1e9))
        self.last = sseq
        if until is None:
            self.ready.set()  # a follower hands each entry over as it comes
        elif sseq >= until or pending == 0:
            self.done = True
            self.ready.set()
        elif len(self.kept) >= self.BATCH:
            self.ready.set()
        return None

    def _flow(self, reply: str) -> str | None:
        if len(self.kept) < self.HIGH:
            return reply
        self.withheld = reply
        return None

    async def next(self) -> list[Stored] | None:
        while True:
            if self.consumer is None and not self.done:
                await self._start()
            if not self.kept and not self.done:
                self.ready.clear()
                try:
                    async with asyncio.timeout(self.SILENCE) as self.silence:  # (no task made)
                        await self.ready.wait()
                except TimeoutError:
                    if not self.log.nc.is_connected:
                        raise LogUnavailable("the event log is not connected") from None
                    self.gap = True
                finally:
                    self.silence = None
            if self.gap:  # start again after the last entry kept
                await self._stop()
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

    async def close(self) -> None:
        await self._stop()


class _Following:
    """A follower: its reader and the task handing its entries over."""

    def __init__(self, reader: _Scan, task: asyncio.Task) -> None:
        self._reader, self._task = reader, task

    async def close(self) -> None:
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        try:
            await self._reader.close()
        except (LogUnavailable, nats_errors.Error) as e:  # the connection is gone: nothing left
            log.info("stopping a follower: %s", e)


class _Subscription:
    def __init__(
        self, sub: object, task: asyncio.Task | None = None, nc: _Client | None = None
    ) -> None:
        self._sub = sub
        self._task = task  # a consumer's batches (None: nats-py calls the handler itself)
        self._nc = nc  # the client whose lean path it takes (None: nats-py's own)

    async def close(self) -> None:
        if self._nc is not None:
            self._nc.sinks.pop(self._sub._id, None)  # type: ignore[attr-defined]  # noqa: SLF001
        try:
            await self._sub.unsubscribe()  # type: ignore[attr-defined]
        except nats_errors.Error as e:  # the connection is gone: nothing left to stop
            log.info("unsubscribing: %s", e)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


NAK_SOON = b'-NAK {"delay": 500000000}'  # delivered again in half a second


def _acked(reply: bytes) -> tuple[int, int, int, int] | None:
    """A JetStream delivery's stream sequence, consumer sequence, time (ns) and pending count,
    from its acknowledgement subject:
    ``$JS.ACK.<stream>.<consumer>.<delivered>.<sseq>.<dseq>.<ts>.<pending>``, or with a domain
    and an account hash before the stream (and maybe a token after). None: not a delivery."""
    t = reply.split(b".")
    if len(t) == 9:
        return int(t[5]), int(t[6]), int(t[7]), int(t[8])
    if len(t) >= 11 and t[0] == b"$JS" and t[1] == b"ACK":
        return int(t[7]), int(t[8]), int(t[9]), int(t[10])
    return None


def _table_at(subject: bytes, skip: int) -> str:
    """``table_of`` for a subject as the client's lean path gets it (``skip``: the prefix's
    length and its dot)."""
    rest = subject[skip:]
    start = rest.find(b".") + 1
    end = rest.find(b".", start)
    return (rest[start:] if end < 0 else rest[start:end]).decode()


def _subjects_config(subjects: list[str]) -> dict[str, Any]:
    """A consumer's filter: none (every entry), one subject, or several (NATS 2.10)."""
    if not subjects:
        return {}
    if len(subjects) == 1:
        return {"filter_subject": subjects[0]}
    return {"filter_subjects": list(subjects)}


def _delivered(msg: nats.aio.msg.Msg, prefix: str) -> Stored:
    meta = msg.metadata
    return Stored(
        seq=meta.sequence.stream,
        table=table_of(msg.subject, prefix),
        data=msg.data,
        at=meta.timestamp.timestamp(),
    )


def _stored(msg: api.RawStreamMsg, prefix: str) -> Stored:
    at = msg.time.timestamp() if getattr(msg, "time", None) else 0.0
    return Stored(seq=msg.seq, table=table_of(msg.subject, prefix), data=msg.data or b"", at=at)


def stream_partitions(config: api.StreamConfig, default: int) -> int:
    """The stream's P as recorded in it (``default`` for a stream that records none)."""
    recorded = (config.metadata or {}).get(PARTITIONS_KEY)
    if recorded is None:
        return default
    if int(recorded) != default:
        log.warning(
            "stream %s has %s partitions (%s configured): using its own",
            config.name,
            recorded,
            default,
        )
    return int(recorded)
