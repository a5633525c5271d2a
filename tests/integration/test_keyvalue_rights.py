"""The rules worker's KV buckets (snapshots, the deadline index) under NATS permissions: its own
user creates, writes, reads and watches them; no other service's user can read or write them
(a snapshot holds secrets: the deal, the token hashes)."""

from __future__ import annotations

import asyncio
import uuid

import nats
import pytest

from gcbc.eventlog.jetstream import JetStreamEventLog
from gcbc.keyvalue.jetstream import JetStreamKeyValue
from services.common import deadlines, snapshots


def test_only_the_rules_user_reaches_its_buckets(nats_server):
    async def go():
        rules = await JetStreamEventLog.connect(nats_server.url_for("rules"))
        try:
            for bucket in (snapshots.BUCKET, deadlines.BUCKET):
                store = await JetStreamKeyValue.open(rules.nc, bucket)
                await store.put("t!odd", b"value")
                assert await store.get("t!odd") == b"value"
                seen: dict[str, bytes | None] = {}
                watch = await store.watch(lambda k, v, seen=seen: seen.__setitem__(k, v))
                await asyncio.wait_for(watch.ready.wait(), 5)
                assert seen["t!odd"] == b"value"
                await store.delete("t!odd")
                await store.close()
        finally:
            await rules.close()
        for user in ("table", "projection", "bots"):
            other = await JetStreamEventLog.connect(nats_server.url_for(user))
            try:
                for bucket in (snapshots.BUCKET, deadlines.BUCKET):
                    stream = f"KV_{bucket}"
                    with pytest.raises(nats.errors.TimeoutError):  # no right: no answer
                        await other.nc.request(
                            f"$JS.API.DIRECT.GET.{stream}.$KV.{bucket}.x", b"", timeout=0.5
                        )
                    with pytest.raises(nats.errors.TimeoutError):
                        await other.js.publish(f"$KV.{bucket}.x", b"forged", timeout=0.5)
            finally:
                await other.close()

    asyncio.run(go())


def test_the_bot_worker_holds_its_own_lease_and_no_other_services(nats_server):
    """The bot worker plays in one process at a time (services.bots.worker.play_alone): its
    user takes and renews the house's lease, and cannot take a partition of another service."""
    from gcbc.eventlog.jetstream_leases import JetStreamLeases
    from services.bots.worker import LEASE

    async def go():
        bots = await JetStreamEventLog.connect(nats_server.url_for("bots"))
        try:
            leases = await JetStreamLeases.open(bots.nc, ttl=3.0)
            # a key of its own (the server may be shared with a running bot worker's stack)
            mine = f"{LEASE}.test{uuid.uuid4().hex[:8]}.partition.0"
            revision = await leases.take(mine, "one")
            assert revision is not None
            assert await leases.renew(mine, "one", revision) is not None
            try:
                got = await leases.take("rules.partition.0", "one")
            except Exception:  # noqa: BLE001  (no right: refused or unanswered)
                got = None
            assert got is None
        finally:
            await bots.close()

    asyncio.run(go())
