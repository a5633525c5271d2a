"""One contract for every lease adapter: the twin (its clock moved by the test) and the JetStream
KV bucket (a bucket of its own with a short TTL; lapsing takes real seconds there)."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from gcbc.eventlog.jetstream import JetStreamEventLog
from gcbc.eventlog.jetstream_leases import JetStreamLeases
from gcbc.eventlog.leases import MemoryLeases

TTL = 1.0


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(params=["memory", "jetstream"])
def leases_factory(request, nats_url):
    """make() -> (leases, lapse): ``lapse()`` lets every lease not renewed since lapse."""

    async def make():
        if request.param == "memory":
            clock = _Clock()

            async def lapse() -> None:
                clock.now += TTL + 0.01

            return MemoryLeases(TTL, clock), lapse
        log = await JetStreamEventLog.connect(nats_url)
        bucket = f"TEST_LEASES_{uuid.uuid4().hex[:10]}"
        leases = await JetStreamLeases.open(log.nc, bucket, ttl=TTL)

        async def lapse() -> None:
            await asyncio.sleep(TTL + 1.5)  # the server's expiry runs about once per TTL

        return leases, lapse

    return make


async def close(leases) -> None:
    if isinstance(leases, JetStreamLeases):
        await leases.nc.close()


def run(coro):
    return asyncio.run(coro)


def test_a_lease_has_one_holder_until_released(leases_factory):
    async def go():
        leases, _ = await leases_factory()
        first = await leases.take("rules.partition.3", "a")
        assert first is not None
        assert await leases.take("rules.partition.3", "b") is None
        assert await leases.holders("rules.partition") == {"rules.partition.3": "a"}
        await leases.release("rules.partition.3", first)
        assert await leases.holders("rules.partition") == {}
        assert await leases.take("rules.partition.3", "b") is not None
        assert await leases.holders("rules.partition") == {"rules.partition.3": "b"}
        await close(leases)

    run(go())


def test_renewing_needs_the_current_revision(leases_factory):
    async def go():
        leases, _ = await leases_factory()
        first = await leases.take("rules.partition.1", "a")
        second = await leases.renew("rules.partition.1", "a", first)
        assert second is not None and second != first
        assert await leases.renew("rules.partition.1", "a", first) is None  # a stale revision
        await leases.release("rules.partition.1", first)  # a stale release gives nothing up
        assert await leases.holders("rules.partition") == {"rules.partition.1": "a"}
        await close(leases)

    run(go())


def test_a_lease_not_renewed_lapses_and_its_holder_cannot_renew_it(leases_factory):
    async def go():
        leases, lapse = await leases_factory()
        kept = await leases.take("rules.member.a", "a")
        dropped = await leases.take("rules.member.b", "b")
        assert dropped is not None
        await asyncio.sleep(0)
        for _ in range(2):  # "a" renews, "b" does not
            await lapse_half(leases, lapse)
            kept = await leases.renew("rules.member.a", "a", kept)
            assert kept is not None
        await lapse()
        assert await leases.holders("rules.member") == {}
        kept = await leases.take("rules.member.a", "a")
        assert await leases.renew("rules.member.b", "b", dropped) is None
        assert await leases.take("rules.member.b", "c") is not None
        assert await leases.holders("rules.member") == {
            "rules.member.a": "a",
            "rules.member.b": "c",
        }
        await close(leases)

    run(go())


async def lapse_half(leases, lapse) -> None:
    """Half a TTL (the twin's clock, or real time)."""
    if isinstance(leases, MemoryLeases):
        leases.clock.now += TTL / 2  # type: ignore[attr-defined]
    else:
        await asyncio.sleep(TTL / 2)


def test_a_holders_own_name_takes_its_lease_back_at_once(leases_factory):
    """A supervisor's slot started again (a stable name): no waiting for the dead one's lapse."""

    async def go():
        leases, _ = await leases_factory()
        dead = await leases.take("rules.partition.2", "rules-1")
        assert dead is not None
        again = await leases.take("rules.partition.2", "rules-1")
        assert again is not None and again != dead
        assert await leases.renew("rules.partition.2", "rules-1", dead) is None  # the old one's
        assert await leases.renew("rules.partition.2", "rules-1", again) is not None
        assert await leases.take("rules.partition.2", "rules-2") is None  # another name waits
        assert await leases.holders("rules.partition") == {"rules.partition.2": "rules-1"}
        await close(leases)

    run(go())


def test_two_takers_at_once_exactly_one_gets_it(leases_factory):
    async def go():
        leases, _ = await leases_factory()
        got = await asyncio.gather(*(leases.take("projection.partition.0", h) for h in "abcd"))
        assert sum(r is not None for r in got) == 1
        winner = "abcd"[next(i for i, r in enumerate(got) if r is not None)]
        assert await leases.holders("projection") == {"projection.partition.0": winner}
        assert await leases.holders("rules") == {}  # another service's leases are apart
        await close(leases)

    run(go())


def test_the_bucket_ttl_is_the_leases_ttl(nats_url):
    async def go():
        log = await JetStreamEventLog.connect(nats_url)
        bucket = f"TEST_LEASES_{uuid.uuid4().hex[:10]}"
        made = await JetStreamLeases.open(log.nc, bucket, ttl=2.5)
        again = await JetStreamLeases.open(log.nc, bucket, ttl=9.0)  # an existing bucket's TTL
        assert made.ttl == again.ttl == 2.5
        assert await again.take("x.member.y", "y") is not None
        await log.js.delete_stream(f"KV_{bucket}")  # an operator's way to change it
        assert await again.take("x.member.z", "z") is not None  # made again, at the TTL asked
        assert again.ttl == 9.0
        await log.close()

    run(go())


def test_a_bucket_found_missing_is_made_again(nats_url):
    """NATS started again empty: the instances take their partitions back instead of stopping."""

    async def go():
        log = await JetStreamEventLog.connect(nats_url)
        bucket = f"TEST_LEASES_{uuid.uuid4().hex[:10]}"
        leases = await JetStreamLeases.open(log.nc, bucket, ttl=TTL)
        first = await leases.take("rules.partition.0", "a")
        await log.js.delete_stream(f"KV_{bucket}")
        assert await leases.renew("rules.partition.0", "a", first) is None  # lost with the bucket
        assert await leases.holders("rules.partition") == {}
        assert await leases.take("rules.partition.0", "a") is not None
        assert await leases.holders("rules.partition") == {"rules.partition.0": "a"}
        await log.close()

    run(go())
