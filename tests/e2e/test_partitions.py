"""Tables divided among instances, started for real: two rules workers and two
projections on NATS and Redis of their own. Each service's partitions are divided between its
two instances (leases in the GCBC_LEASES bucket); bot tables play through HTTP while one
instance of each is killed -9; its partitions move to the other within seconds, every table
finishes, nothing accepted is lost or recorded twice, and the views equal a rebuild."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import httpx
import nats
import pytest

from gcbc.eventlog.jetstream import JetStreamEventLog
from gcbc.eventlog.jetstream_leases import BUCKET, JetStreamLeases
from gcbc.eventlog.leases import LEASE_TTL
from gcbc.eventlog.partitions import CLUSTER_PARTITIONS as PARTITIONS
from gcbc.eventlog.partitions import partition_of
from gcbc_contract.entries import OutcomeEntry, decode_entry
from tests.e2e.conftest import TEST_ENV
from tools import chaos
from tools.launcher import Stack

pytestmark = [pytest.mark.timeout(600), pytest.mark.timed]
FAILOVER = 10.0  # seconds a dead instance's partitions may take to move (leases: 3 s TTL)
# a dead instance's table answered by the survivor: its leases lapse (at most the lease time
# after the kill), the survivor sees it within a fifth of a round, and a loaded machine's margin
TAKEOVER = LEASE_TTL + 1.5


@pytest.fixture(scope="module")
def two_of_each(tmp_path_factory):
    env = {**TEST_ENV, "GCBC_PARTITIONS": str(PARTITIONS)}  # several instances divide them
    stack = Stack(Path(tmp_path_factory.mktemp("partitions")), env=env).start()
    try:
        stack.start_service("rules#2")
        stack.start_service("projection#2")
        yield stack
    finally:
        stack.stop()


async def _holders(url: str, service: str) -> dict[int, str]:
    """partition -> the instance holding its lease."""
    nc = await nats.connect(url)
    try:
        leases = JetStreamLeases(nc, BUCKET)
        held = await leases.holders(f"{service}.partition")
        return {int(name.rsplit(".", 1)[1]): holder for name, holder in held.items()}
    finally:
        await nc.close()


async def _divided(url: str, service: str, instances: int, patience: float = 30) -> dict[int, str]:
    """Wait until every partition is held and ``instances`` instances share them evenly."""
    deadline = time.monotonic() + patience
    while True:
        held = await _holders(url, service)
        shares = sorted(list(held.values()).count(h) for h in set(held.values()))
        if len(held) == PARTITIONS and len(shares) == instances and shares[-1] - shares[0] <= 1:
            return held
        if time.monotonic() > deadline:
            raise AssertionError(f"{service}: partitions not divided: {held}")
        await asyncio.sleep(0.2)


def test_each_service_divides_its_partitions_between_its_instances(two_of_each):
    stack = two_of_each
    for service, names in (
        ("rules", ("rules", "rules#2")),
        ("projection", ("projection", "projection#2")),
    ):
        held = asyncio.run(_divided(stack.nats_url, service, 2))
        assert set(held.values()) == {stack.instance(n) for n in names}  # the launcher's slots
        assert sorted(list(held.values()).count(h) for h in set(held.values())) == [8, 8]


def test_a_killed_instances_partitions_move_and_every_table_finishes(two_of_each):
    stack = two_of_each
    asyncio.run(_divided(stack.nats_url, "rules", 2))
    asyncio.run(_divided(stack.nats_url, "projection", 2))
    moved: dict[str, float] = {}

    async def go():
        record = chaos.Record()
        games = asyncio.gather(
            *(chaos.play_through(stack.api, 4 + i % 2, 500 + i, record) for i in range(6))
        )

        async def strike() -> None:
            await asyncio.sleep(2.0)  # the games are under way
            killed_at = time.monotonic()
            stack.kill("rules#2")  # kill -9
            stack.kill("projection#2")
            survivors = {
                "rules": stack.instance("rules"),
                "projection": stack.instance("projection"),
            }
            waiting = set(survivors)
            while waiting:
                for service in list(waiting):
                    held = await _holders(stack.nats_url, service)
                    if len(held) == PARTITIONS and set(held.values()) == {survivors[service]}:
                        moved[service] = time.monotonic() - killed_at
                        waiting.discard(service)
                if time.monotonic() - killed_at > 60:
                    raise AssertionError(f"partitions did not move: {waiting}")
                await asyncio.sleep(0.1)

        _, table_ids = await asyncio.gather(strike(), games)
        return table_ids, record

    table_ids, record = asyncio.run(go())
    print(f"partitions moved after kill -9 in: {moved}")
    assert all(seconds < FAILOVER for seconds in moved.values()), moved
    findings = asyncio.run(chaos.check(stack, table_ids, record))
    assert findings.ok, findings.problems
    assert findings.accepted > 0
    # the survivors go on alone; an instance started again takes its share back
    stack.start_service("rules#2")
    asyncio.run(_divided(stack.nats_url, "rules", 2))


async def _answered_at(url: str, table_id: str, entries: int, patience: float = 30) -> float:
    """When (time.time()) the table's log grew to ``entries`` with an answer last."""
    log = await JetStreamEventLog.connect(url)
    try:
        deadline = time.monotonic() + patience
        while time.monotonic() < deadline:
            stored = await log.read(table_id)
            if len(stored) >= entries and isinstance(decode_entry(stored[-1].data), OutcomeEntry):
                return stored[-1].at
            await asyncio.sleep(0.02)
    finally:
        await log.close()
    raise AssertionError(f"{table_id}: no answer within {patience} s")


def test_the_survivor_answers_a_dead_instances_table_within_the_lease_time(two_of_each):
    """kill -9 one of two rules workers, nobody starting it again: a command on a table of its
    partitions is answered by the other once the dead one's leases lapse."""
    stack = two_of_each
    held = asyncio.run(_divided(stack.nats_url, "rules", 2))
    theirs = {p for p, h in held.items() if h == stack.instance("rules#2")}
    with httpx.Client(base_url=stack.api, timeout=30) as http:
        for _ in range(100):
            table_id = http.post("/tables", json={"seats": 4}).json()["table_id"]
            if partition_of(table_id, PARTITIONS) in theirs:
                break
        time.sleep(1.0)  # its leases renewed since: the kill falls anywhere in a round
        killed = time.time()
        stack.kill("rules#2")
        r = http.post(f"/tables/{table_id}/seats", json={"name": "after the kill"})
        assert r.status_code in (201, 202), r.text
    took = asyncio.run(_answered_at(stack.nats_url, table_id, 4)) - killed
    print(f"the survivor answered a dead instance's table {took:.2f} s after the kill")
    assert took < TAKEOVER
    stack.start_service("rules#2")
    asyncio.run(_divided(stack.nats_url, "rules", 2))
