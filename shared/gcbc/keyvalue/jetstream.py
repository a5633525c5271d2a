"""The JetStream KV adapter of the keyed-value port: one bucket (a stream keeping the last value
of each key), sharing the event log's connection (the same NATS user).

Keys outside what KV allows (``[-/_=.A-Za-z0-9]``; a table id may hold ``!`` or ``~``, a name
may hold a dot) are stored hex-encoded behind ``_x.``, which no plain key can start with (plain
keys hold no dot). The watch is an ordered consumer delivering the last value of each key, then
every change."""

from __future__ import annotations

import asyncio
import inspect
import logging
import math
import re
from datetime import UTC, datetime

import nats
from nats.js import api
from nats.js.errors import BucketNotFoundError, KeyNotFoundError, NotFoundError

from gcbc.eventlog.jetstream.stream import UNANSWERED, unavailable
from gcbc.eventlog.port import LogUnavailable
from gcbc.keyvalue.port import Change

log = logging.getLogger("gcbc.keyvalue")
_PLAIN = re.compile(r"[-_=A-Za-z0-9]+")
_HEX = "_x."
KV_OPERATION = "KV-Operation"
TIMEOUT = 5.0


def stored_key(key: str) -> str:
    return key if _PLAIN.fullmatch(key) else _HEX + key.encode().hex()


def key_of(stored: str) -> str:
    return bytes.fromhex(stored[len(_HEX) :]).decode() if stored.startswith(_HEX) else stored


class _Watch:
    def __init__(self) -> None:
        self.ready = asyncio.Event()
        self.sub: object = None

    async def close(self) -> None:
        if self.sub is not None:
            try:
                await self.sub.unsubscribe()  # type: ignore[attr-defined]
            except nats.errors.Error as e:
                log.info("unwatching: %s", e)


class JetStreamKeyValue:
    def __init__(self, nc: nats.NATS, bucket: str) -> None:
        self.nc = nc
        self.js = nc.jetstream()
        self.bucket = bucket
        self.stream = f"KV_{bucket}"
        self.prefix = f"$KV.{bucket}."
        self.watches: list[_Watch] = []

    @classmethod
    async def open(cls, nc: nats.NATS, bucket: str, replicas: int = 1) -> JetStreamKeyValue:
        """The bucket, created if missing (one value a key, direct gets)."""
        store = cls(nc, bucket)
        try:
            try:
                await store.js.key_value(bucket)
            except BucketNotFoundError:
                await store.js.create_key_value(
                    api.KeyValueConfig(bucket=bucket, history=1, replicas=replicas, direct=True)
                )
        except UNANSWERED as e:
            raise LogUnavailable(f"bucket {bucket}: {e or type(e).__name__}") from None
        return store

    async def get(self, key: str) -> bytes | None:
        subject = self.prefix + stored_key(key)
        try:
            msg = await self.js.get_last_msg(self.stream, subject, direct=True)
        except (NotFoundError, KeyNotFoundError):
            return None
        except UNANSWERED as e:
            raise unavailable(e) from None
        if msg.headers and msg.headers.get(KV_OPERATION) in ("DEL", "PURGE"):
            return None
        return msg.data or b""

    async def put(self, key: str, value: bytes, ttl: float | None = None) -> None:
        # JetStream takes whole seconds, one at least
        await self._publish(key, value, None, None if ttl is None else max(1, math.ceil(ttl)))

    async def delete(self, key: str) -> None:
        await self._publish(key, b"", {KV_OPERATION: "DEL"})

    async def _publish(
        self, key: str, value: bytes, headers: dict[str, str] | None, ttl: float | None = None
    ) -> None:
        try:
            await self.js.publish(
                self.prefix + stored_key(key), value, TIMEOUT, headers=headers, msg_ttl=ttl
            )
        except UNANSWERED as e:
            raise unavailable(e) from None

    async def watch(self, handle: Change) -> _Watch:
        watch = _Watch()
        skip = len(self.prefix)

        async def on_msg(msg: nats.aio.msg.Msg) -> None:
            operation = msg.headers.get(KV_OPERATION) if msg.headers else None
            value = None if operation in ("DEL", "PURGE") else msg.data
            try:
                done = handle(key_of(msg.subject[skip:]), value)
                if inspect.isawaitable(done):
                    await done
            except Exception:  # noqa: BLE001  (one bad value never stops the watch)
                log.exception("%s: a change of %s not handled", self.bucket, msg.subject)
            if msg.metadata.num_pending == 0:
                watch.ready.set()

        try:
            info = await self.js.stream_info(self.stream)
            watch.sub = await self.js.subscribe(
                self.prefix + ">",
                stream=self.stream,  # named: no lookup by subject (and no right to list streams)
                cb=on_msg,
                ordered_consumer=True,
                deliver_policy=api.DeliverPolicy.LAST_PER_SUBJECT,
            )
        except UNANSWERED as e:
            raise unavailable(e) from None
        if not info.state.messages:
            watch.ready.set()  # nothing stored: nothing to wait for
        self.watches.append(watch)
        return watch

    async def purge_deletes(self, older_than: float) -> int:
        """Each deletion marker older than ``older_than`` seconds purged from its key's subject
        with what came before it, never a value put after it (a purge up to its sequence)."""
        try:
            kv = await self.js.key_value(self.bucket)
            watcher = await kv.watchall()
            old: list[tuple[str, int]] = []
            try:
                now = datetime.now(UTC)
                async for update in watcher:
                    if update is None:
                        break  # every key's latest handed over
                    deleted = update.operation in ("DEL", "PURGE")
                    age = (now - update.created).total_seconds() if update.created else 0.0
                    if deleted and age > older_than:
                        old.append((update.key, update.revision))
            finally:
                await watcher.stop()
            for key, revision in old:
                await self.js.purge_stream(self.stream, seq=revision + 1, subject=self.prefix + key)
        except UNANSWERED as e:
            raise unavailable(e) from None
        return len(old)

    async def close(self) -> None:
        """The watches stop (the connection is the event log's: it closes it)."""
        for watch in self.watches:
            await watch.close()
        self.watches.clear()
