"""A table's appends and reads: JetStream's ``Nats-Expected-Last-Subject-Sequence`` over both of
a table's subjects (``-Subject: <stem>.*``, NATS 2.11; a stale expectation is refused with error
10071) for optimistic concurrency, ``Nats-Msg-Id`` deduplication for idempotence, direct gets
for short catch-ups and a reader of its own (gcbc.eventlog.jetstream.scan) for long ones."""

from __future__ import annotations

import asyncio
from typing import Any

import msgspec
import nats
from nats.aio.msg import Msg
from nats.js import api
from nats.js.errors import APIError, NoStreamResponseError, NotFoundError

from gcbc.eventlog.jetstream.scan import Reader
from gcbc.eventlog.jetstream.stream import (
    ANSWERS,
    COMMANDS,
    NOT_STORED,
    UNANSWERED,
    Connected,
    stored,
    unavailable,
    unknown,
)
from gcbc.eventlog.port import (
    AppendResult,
    LogUnavailable,
    Stored,
    WrongExpectedSequence,
    not_empty,
)
from gcbc_contract.ids import checked

WRONG_LAST_SEQUENCE = 10071
EXPECTED_LAST = "Nats-Expected-Last-Subject-Sequence"
EXPECTED_LAST_OF = "Nats-Expected-Last-Subject-Sequence-Subject"  # (NATS 2.11) another subject's
DIRECT_READS = 16  # past this many entries, a catch-up uses a consumer of its own
APPEND_TIMEOUT = 5.0  # seconds an append waits for its acknowledgement before giving up
NO_RESPONDERS = "503"  # the status of an answer no subscriber gave


class PubAck(msgspec.Struct):
    """JetStream's answer to a publish: where it stored it, or why not."""

    seq: int = 0
    duplicate: bool = False
    error: dict[str, Any] | None = None


_pub_ack = msgspec.json.Decoder(PubAck)


class Acknowledgements:
    """JetStream's answers to appends, on one inbox of the client's: each append publishes with a
    reply subject under it and waits for its own answer. Not nats-py's publish_async: its reply
    handler raises JetStream's refusals (a stale expectation) instead of handing them over, so
    the append would wait until it times out."""

    def __init__(self, nc: nats.NATS) -> None:
        self.nc = nc
        self.prefix = ""
        self.waiting: dict[str, asyncio.Future[Msg]] = {}
        self.count = 0
        self._starting = asyncio.Lock()

    async def _start(self) -> None:
        async with self._starting:
            if not self.prefix:
                inbox = self.nc.new_inbox()
                await self.nc.subscribe(f"{inbox}.*", cb=self._answered)
                self.prefix = f"{inbox}."

    async def _answered(self, msg: Msg) -> None:
        future = self.waiting.pop(msg.subject[len(self.prefix) :], None)
        if future is not None and not future.done():
            future.set_result(msg)

    async def publish(
        self, subject: str, data: bytes, headers: dict[str, str], timeout: float
    ) -> PubAck:
        """Publish and wait for JetStream's acknowledgement (raised as nats-py raises: no
        stream answering, JetStream's refusal as APIError, the wait's TimeoutError)."""
        if not self.prefix:
            await self._start()
        self.count += 1
        token = str(self.count)
        future: asyncio.Future[Msg] = asyncio.get_running_loop().create_future()
        self.waiting[token] = future
        try:
            await self.nc.publish(subject, data, f"{self.prefix}{token}", headers)
            async with asyncio.timeout(timeout):
                msg = await future
        finally:
            self.waiting.pop(token, None)
        if not msg.data and (msg.headers or {}).get(api.Header.STATUS) == NO_RESPONDERS:
            raise NoStreamResponseError  # nobody answered the subject: no stream stored it
        ack = _pub_ack.decode(msg.data)
        if ack.error is not None:
            APIError.from_error(ack.error)  # (raises)
        return ack


class Appends(Connected):
    """The log's table side (mixed into JetStreamEventLog, which provides its fields)."""

    append_timeout: float
    acks: Acknowledgements

    async def append(
        self,
        table: str,
        data: bytes,
        expected: int,
        msg_id: str | None = None,
        answer: bool = False,
    ) -> AppendResult:
        """On the table's commands' or answers' subject, expecting ``expected`` as the last
        sequence of both."""
        not_empty(data)
        stem = self.subject(table)
        headers = {EXPECTED_LAST: str(expected), EXPECTED_LAST_OF: f"{stem}.*"}
        if msg_id is not None:
            headers["Nats-Msg-Id"] = msg_id
        if not self.nc.is_connected:
            raise LogUnavailable("the event log is not connected")
        subj = f"{stem}.{ANSWERS if answer else COMMANDS}"
        try:
            ack = await self.acks.publish(subj, data, headers, self.append_timeout)
        except APIError as e:
            if e.err_code == WRONG_LAST_SEQUENCE:
                raise WrongExpectedSequence(table, expected) from None
            raise LogUnavailable(str(e)) from None  # refused by JetStream: not stored
        except NOT_STORED as e:
            raise unavailable(e) from None
        except UNANSWERED as e:
            raise unknown(e) from None
        return AppendResult(seq=ack.seq, duplicate=bool(ack.duplicate))

    async def last(self, table: str) -> Stored | None:
        try:
            msg = await self.js.get_last_msg(
                self.stream, f"{self.subject(table)}.*", direct=self.direct
            )
        except NotFoundError:
            return None
        except (*NOT_STORED, *UNANSWERED) as e:
            raise unavailable(e) from None
        return stored(msg, self.prefix)

    async def at(self, table: str, seq: int) -> Stored | None:
        """The entry at ``seq`` if it is the table's (one direct get)."""
        try:
            msg = await self.js.get_msg(self.stream, seq=seq, direct=self.direct)
        except NotFoundError:
            return None
        except (*NOT_STORED, *UNANSWERED) as e:
            raise unavailable(e) from None
        got = stored(msg, self.prefix)
        return got if got.table == checked(table) else None

    async def read(self, table: str, after: int = 0, most: int | None = None) -> list[Stored]:
        try:
            return await self._read(table, after, most)
        except NotFoundError:
            return []
        except (*NOT_STORED, *UNANSWERED) as e:
            raise unavailable(e) from None

    async def _read(self, table: str, after: int, most: int | None) -> list[Stored]:
        last = await self.last(table)
        if last is None or last.seq <= after or most == 0:
            return []
        out: list[Stored] = []
        seq = after + 1
        for _ in range(DIRECT_READS):
            try:
                msg = await self.js.get_msg(
                    self.stream,
                    seq=seq,
                    subject=f"{self.subject(table)}.*",
                    next=True,
                    direct=self.direct,
                )
            except NotFoundError:
                return out
            got = stored(msg, self.prefix)
            out.append(got)
            if got.seq >= last.seq or len(out) == most:
                return out
            seq = got.seq + 1
        left = None if most is None else most - len(out)
        return out + await self._read_ordered(table, seq, last.seq, left)

    async def _read_ordered(
        self, table: str, start: int, until: int, most: int | None
    ) -> list[Stored]:
        reader = Reader(self, start - 1, until, [f"{self.subject(table)}.*"])
        out: list[Stored] = []
        try:
            async with asyncio.timeout(30):
                while (batch := await reader.next()) is not None:
                    out += batch
                    if most is not None and len(out) >= most:
                        break
        finally:
            await reader.stop()
        return [s for s in out if s.seq <= until][:most]
