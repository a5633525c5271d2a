"""This instance's share of a service's partitions: each partition of the tables is
processed by exactly one rules-worker instance and one projection instance at a time.

Three times per lease time (``GCBC_LEASE_SECONDS``) an instance renews its membership lease
(``<service>.member.<instance>``) and its partition leases (``<service>.partition.<p>``), reads
who the live members are, and computes the same assignment as every other member
(``assignment``: each member about P / members, stable for a given set of members). It hands over
what is no longer its own (stops consuming, then releases the lease) and takes what is (takes the
lease, then starts consuming). A lease it could not renew within two thirds of its TTL is given
up (consuming stopped) before it lapses and another instance may take it; a dead instance's
leases lapse, and the others divide its partitions. Between rounds it looks at the members five
times, so a member gone (or come) starts a round at once; a partition of its own it could not
take yet (its previous holder's lease not lapsed) is tried again soon, not a round later.

A supervisor that runs one process per slot at a time names each slot's instance for good
(``GCBC_INSTANCE``, e.g. the launcher's ``rules-2-…``): a slot's process started again after a
crash holds its predecessor's name, so it takes back that one's leases at once
(gcbc.eventlog.leases) instead of waiting for them to lapse.

Two instances may still overlap on a table for a moment (a handler in flight when its partition
moves, an entry redelivered after its ack wait): the rules worker's append expecting the table's
sequence and the projection's newer-position-only write make that harmless.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import time
import uuid
import zlib
from collections.abc import Awaitable, Callable, Iterable

from gcbc.eventlog.leases import Leases
from gcbc.eventlog.partitions import partition_of
from gcbc.eventlog.port import Subscription
from services.common import metrics

log = logging.getLogger("gcbc.partitions")
RENEWALS = 3  # rounds of renewals per lease time: one or two late still keep the leases


def instance_name() -> str:
    """A name for this process among a service's instances (a KV key token)."""
    host = "".join(c if c.isalnum() or c in "-_" else "-" for c in socket.gethostname())
    return f"{host[:40]}-{os.getpid()}-{uuid.uuid4().hex[:6]}"


def assignment(partitions: int, members: Iterable[str]) -> dict[int, str]:
    """partition -> member: each member gets P // n or one more; each partition goes to the member
    that ranks it highest (a hash of both) among those with room left. Every member computes the
    same from the same set."""
    ranked = sorted(set(members))
    if not ranked:
        return {}
    n = len(ranked)
    room = {m: partitions // n + (1 if i < partitions % n else 0) for i, m in enumerate(ranked)}
    out: dict[int, str] = {}
    for p in range(partitions):
        for m in sorted(ranked, key=lambda m: (zlib.crc32(f"{p}/{m}".encode()), m), reverse=True):
            if room[m]:
                room[m] -= 1
                out[p] = m
                break
    return out


class _Held:
    def __init__(self, revision: int, renewed: float) -> None:
        self.revision, self.renewed = revision, renewed
        self.subscription: Subscription | None = None


Start = Callable[[int], Awaitable[Subscription]]
Stopped = Callable[[int], object]
Parting = Callable[[int], Awaitable[object]]


class Partitions:
    """``start(p)``: begin processing partition p (its consumer's subscription); ``stopped(p)``:
    it is no longer processed here (forget its tables); ``parting(p)``: it is handed over while
    still surely held (a clean stop, or another member's share), its consumer stopped: what the
    next holder is owed (the rules worker's snapshots). ``owns(table)``: is it processed here."""

    def __init__(
        self,
        leases: Leases,
        service: str,
        partitions: int,
        start: Start,
        stopped: Stopped | None = None,
        instance: str | None = None,
        clock: Callable[[], float] = time.monotonic,
        gauged: bool = True,
        parting: Parting | None = None,
    ) -> None:
        self.leases, self.service, self.partitions = leases, service, partitions
        # whether the gauges of the tables' partitions are this one's (not a lone consumer's)
        self.gauged = gauged
        self.start, self.stopped, self.parting = start, stopped, parting
        self.instance = instance or instance_name()
        self.clock = clock
        self.held: dict[int, _Held] = {}
        # partitions stopped because a renewal was late, with the revision last held: if it is
        # still the lease's, nobody took it meanwhile, and it is renewed instead of waiting for it
        # to lapse (NATS back after a blip)
        self._late: dict[int, int] = {}
        self.members: list[str] = []
        self._member_revision: int | None = None

    def owns(self, table: str) -> bool:
        return partition_of(table, self.partitions) in self.held

    def _gauge(self) -> None:
        if self.gauged:
            metrics.PARTITIONS_HELD.set(len(self.held))
            metrics.MEMBERS.set(len(self.members))

    def lease(self, partition: int) -> str:
        return f"{self.service}.partition.{partition}"

    @property
    def member(self) -> str:
        return f"{self.service}.member.{self.instance}"

    @property
    def margin(self) -> float:
        """How long after its last renewal a lease is still surely ours."""
        return self.leases.ttl * 2 / 3

    async def step(self) -> bool:
        """One round: membership, renewals, then hand over and take (tests call it directly).
        False if a partition of its own is not taken yet."""
        await self._renew_membership()
        for p, held in list(self.held.items()):
            sent = self.clock()
            revision = await self.leases.renew(self.lease(p), self.instance, held.revision)
            if revision is None:
                log.warning("partition %d: lease lost", p, extra={"partition": p})
                await self._stop(p)
            else:
                held.revision, held.renewed = revision, sent
        live = await self.leases.holders(f"{self.service}.member")
        self.members = sorted(set(live.values()) | {self.instance})
        mine = {
            p for p, m in assignment(self.partitions, self.members).items() if m == self.instance
        }
        for p in sorted(set(self.held) - mine):  # another member's now: stop, then let it go
            held = self.held.get(p)
            if held is None:
                continue
            await self._stop(p, parting=True)
            await self.leases.release(self.lease(p), held.revision)
        for p in sorted(mine - set(self.held)):
            sent = self.clock()
            late = self._late.pop(p, None)
            revision = None
            if late is not None:
                revision = await self.leases.renew(self.lease(p), self.instance, late)
            if revision is None:
                revision = await self.leases.take(self.lease(p), self.instance)
            if revision is None:
                continue  # its previous holder has not let it go yet: next round
            held = self.held[p] = _Held(revision, sent)
            try:
                held.subscription = await self.start(p)
            except Exception:
                del self.held[p]
                await self.leases.release(self.lease(p), revision)
                raise
            log.info("partition %d taken", p, extra={"partition": p})
        self._gauge()
        return mine <= set(self.held)

    async def _renew_membership(self) -> None:
        if self._member_revision is not None:
            self._member_revision = await self.leases.renew(
                self.member, self.instance, self._member_revision
            )
        if self._member_revision is None:
            self._member_revision = await self.leases.take(self.member, self.instance)

    async def expire(self) -> None:
        """Stop every partition whose lease may lapse before it could be renewed."""
        now = self.clock()
        for p, held in list(self.held.items()):
            if now - held.renewed > self.margin:
                log.warning("partition %d: lease not renewed in time", p, extra={"partition": p})
                self._late[p] = held.revision
                await self._stop(p)

    async def _stop(self, p: int, parting: bool = False) -> None:
        held = self.held.pop(p, None)
        if held is None:
            return
        if held.subscription is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(held.subscription.close(), self.margin / 2)
        if parting and self.parting is not None:
            try:
                await asyncio.wait_for(self.parting(p), self.margin / 2)
            except Exception as e:  # noqa: BLE001  (what it owes saves work: none is needed)
                log.warning("partition %d: handed over owing: %s", p, e or type(e).__name__)
        if self.stopped is not None:
            self.stopped(p)
        self._gauge()
        log.info("partition %d handed over", p, extra={"partition": p})

    async def run(self, stop: asyncio.Event, every: float | None = None) -> None:
        """Rounds every ``every`` seconds (a third of the lease time) until ``stop``; then
        everything is handed over. A watchdog beside them stops a partition whose renewal is
        late, even while a round hangs (NATS away)."""
        every = every or self.leases.ttl / RENEWALS
        watchdog = asyncio.create_task(self._watch(stop))
        try:
            while not stop.is_set():
                pause = every
                try:
                    if not await asyncio.wait_for(self.step(), self.leases.ttl):
                        pause = every / 5  # a lease about to lapse: take it as soon as it has
                except Exception as e:  # noqa: BLE001  (NATS away: the leases lapse, we stop)
                    log.warning("partition leases: %s", str(e) or type(e).__name__)
                    pause = every / 5  # try again soon: NATS may be back already
                await self._look_until(stop, pause, every / 5)
        finally:
            watchdog.cancel()
            await self.leave()

    async def _look_until(self, stop: asyncio.Event, pause: float, every: float) -> None:
        """Wait ``pause`` seconds, looking at the members every ``every``: one gone (its lease
        lapsed) or come starts the next round at once, not up to a round later."""
        until = time.monotonic() + pause
        while not stop.is_set() and (left := until - time.monotonic()) > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), min(left, every))
            if stop.is_set() or time.monotonic() >= until:
                return
            try:
                live = await asyncio.wait_for(self.leases.holders(f"{self.service}.member"), every)
            except Exception:  # noqa: BLE001  (NATS away: the round says so)
                continue
            if sorted(set(live.values()) | {self.instance}) != self.members:
                return

    async def _watch(self, stop: asyncio.Event, every: float = 0.2) -> None:
        while not stop.is_set():
            await self.expire()
            await asyncio.sleep(every)

    async def leave(self) -> None:
        """Hand every partition over at once (a clean stop), instead of letting leases lapse."""
        for p, held in list(self.held.items()):
            revision = held.revision
            await self._stop(p, parting=True)
            with contextlib.suppress(Exception):
                await self.leases.release(self.lease(p), revision)
        if self._member_revision is not None:
            with contextlib.suppress(Exception):
                await self.leases.release(self.member, self._member_revision)
            self._member_revision = None
