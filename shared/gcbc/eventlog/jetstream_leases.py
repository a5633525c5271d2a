"""The lease port on a JetStream KV bucket (``GCBC_LEASES``): a lease is a key whose value is its
holder. ``take`` is a create (the key's last sequence must be none, or a delete marker), or an
update at the key's revision if it holds the taker's own name (a slot's process again), ``renew``
an update at the holder's revision, ``release`` a delete marker at it; the bucket's TTL (its
stream's max age) makes a lease nobody renews lapse. Each key keeps one revision, on disk: after
a NATS restart the holders go on renewing what they held. A bucket found missing (NATS started
again empty) is made again, so the instances take their partitions back.

The bucket is bound without nats-py's stream lookup, so a service needs only the rights its own
keys take (tools.devservers): publishing to ``$KV.GCBC_LEASES.<service>.>``, direct gets of the
bucket, its stream's info (the names of the keys held) and, for the first one up, its creation.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

import nats
from nats.errors import NoRespondersError
from nats.js import api
from nats.js.errors import (
    APIError,
    KeyDeletedError,
    KeyNotFoundError,
    KeyWrongLastSequenceError,
    NoStreamResponseError,
    NotFoundError,
)
from nats.js.kv import KeyValue

from gcbc.eventlog.leases import LEASE_TTL

BUCKET = "GCBC_LEASES"
REQUEST_TIMEOUT = 1.0  # seconds a lease request waits for its answer
STREAM_NOT_FOUND = 10059  # JetStream's "stream not found"
T = TypeVar("T")
log = logging.getLogger("gcbc.leases")


class JetStreamLeases:
    def __init__(
        self, nc: nats.NATS, bucket: str = BUCKET, ttl: float = LEASE_TTL, replicas: int = 1
    ) -> None:
        self.nc, self.bucket, self.ttl, self.replicas = nc, bucket, ttl, replicas
        self.asked = ttl  # a bucket made here (again) gets this TTL; an existing one keeps its own
        # a request lost with a connection fails within a second (not nats-py's 5 s), so the
        # next round renews before the leases are given up
        self.js = nc.jetstream(timeout=REQUEST_TIMEOUT)
        self.stream = f"KV_{bucket}"
        self.kv = KeyValue(
            name=bucket, stream=self.stream, pre=f"$KV.{bucket}.", js=self.js, direct=True
        )

    @classmethod
    async def open(
        cls, nc: nats.NATS, bucket: str = BUCKET, ttl: float = LEASE_TTL, replicas: int = 1
    ) -> JetStreamLeases:
        """The bucket, created if missing; an existing bucket's TTL is the one used."""
        leases = cls(nc, bucket, ttl, replicas)
        await leases._ensure()
        return leases

    async def _ensure(self) -> None:
        """The bucket exists (made if missing); its TTL is the one used."""
        try:
            info = await self.js.stream_info(self.stream)
        except NotFoundError:
            config = api.KeyValueConfig(
                bucket=self.bucket,
                history=1,
                ttl=self.asked,
                replicas=self.replicas,
                storage=api.StorageType.FILE,
                direct=True,
                description="who processes which partition (gcbc.eventlog.leases)",
            )
            try:
                await self.js.create_key_value(config)
            except APIError as e:  # another instance made it meanwhile
                log.info("lease bucket: %s", e)
            info = await self.js.stream_info(self.stream)
        if info.config.max_age:
            if abs(info.config.max_age - self.asked) > 0.001:
                # one TTL for every instance: the bucket's, set by the first one up
                log.warning(
                    "lease bucket: its TTL is %.1f s, not the %.1f s asked (made so earlier;"
                    " docs/deploying.md says how to change it)",
                    info.config.max_age,
                    self.asked,
                )
            self.ttl = float(info.config.max_age)

    async def _again_if_missing(self, call: Callable[[], Awaitable[T]]) -> T:
        """``call``, once more after making the bucket again if it is missing."""
        try:
            return await call()
        except (NoRespondersError, NoStreamResponseError, NotFoundError) as e:
            if isinstance(e, NotFoundError) and getattr(e, "err_code", None) != STREAM_NOT_FOUND:
                raise
            log.warning("lease bucket missing (%s): making it again", e)
            await self._ensure()
            return await call()

    async def take(self, name: str, holder: str) -> int | None:
        try:
            return await self._again_if_missing(lambda: self.kv.create(name, holder.encode()))
        except KeyWrongLastSequenceError:
            pass
        try:
            entry = await self.kv.get(name)
        except (KeyNotFoundError, KeyDeletedError):
            return None  # lapsed meanwhile: the next round creates it
        if entry.value != holder.encode() or entry.revision is None:
            return None
        try:
            return await self.kv.update(name, holder.encode(), last=entry.revision)
        except KeyWrongLastSequenceError:
            return None

    async def renew(self, name: str, holder: str, revision: int) -> int | None:
        try:
            return await self._again_if_missing(
                lambda: self.kv.update(name, holder.encode(), last=revision)
            )
        except KeyWrongLastSequenceError:
            return None

    async def release(self, name: str, revision: int) -> None:
        try:
            await self.kv.delete(name, last=revision)
        except APIError as e:  # not ours any more: nothing to give up
            log.debug("releasing %s: %s", name, e)

    async def holders(self, prefix: str) -> dict[str, str]:
        """The keys under ``prefix`` (the stream's subjects), each read for its holder (a delete
        marker, or a lease lapsed since, is not held)."""
        pre = f"$KV.{self.bucket}."
        info = await self._again_if_missing(
            lambda: self.js.stream_info(self.stream, subjects_filter=f"{pre}{prefix}.>")
        )
        out: dict[str, str] = {}
        for subject in info.state.subjects or {}:
            name = subject[len(pre) :]
            try:
                entry = await self.kv.get(name)
            except (KeyNotFoundError, KeyDeletedError):
                continue
            out[name] = (entry.value or b"").decode()
        return out
