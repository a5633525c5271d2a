"""The distributed setup, started for real on this machine: a 3-node NATS
cluster (the stream with 3 replicas), a Redis Cluster of 3 primaries with a replica each holding
the read model, and two instances of the rules worker and the projection; bot tables play through
HTTP while the stream's leader node is killed (-9) and comes back, while a Redis primary restarts
empty, and while one is killed -9 and its replica takes over. Every table finishes, nothing
accepted is lost or recorded twice, views equal a rebuild."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import nats
import pytest
import redis
from redis.crc import key_slot

from gcbc.eventlog.jetstream import STREAM, JetStreamEventLog
from gcbc.readmodel.redis import RedisReadModel
from gcbc.readmodel.rediscluster import AT as INDEX_KEY
from tests.e2e.conftest import TEST_ENV
from tools import chaos, devservers
from tools.launcher import Stack

pytestmark = pytest.mark.timeout(600)


async def _stream(cluster: devservers.NatsCluster):
    nc = await nats.connect(cluster.url.split(","))
    try:
        return await nc.jetstream().stream_info(STREAM)
    finally:
        await nc.close()


@pytest.fixture(scope="module")
def cluster_stack(tmp_path_factory):
    data = Path(tmp_path_factory.mktemp("cluster"))
    cluster = devservers.start_nats_cluster(data / "nats", 3)
    redis_cluster = devservers.start_redis_cluster(data / "redis", 3, replicas=1)
    try:
        env = {**TEST_ENV, "GCBC_STREAM_REPLICAS": "3"}
        stack = Stack(data, nats=cluster, redis=redis_cluster, env=env).start()
        stack.start_service("rules#2")
        stack.start_service("projection#2")
        yield stack, cluster
        stack.stop()
    finally:
        cluster.stop()
        redis_cluster.stop()


def test_the_stream_is_replicated_on_every_node(cluster_stack):
    _, cluster = cluster_stack
    info = asyncio.run(_stream(cluster))
    assert info.config.num_replicas == 3
    assert info.cluster is not None and info.cluster.leader in cluster.names
    assert len(info.cluster.replicas or []) == 2


def _views_per_node(stack: Stack) -> dict[int, set[str]]:
    """Primary's port -> the tables whose views it holds (its own keys: a node answers for its
    slots; its replica holds a copy)."""
    held = {}
    for node in stack.redis.primaries():  # type: ignore[union-attr]
        r = redis.Redis.from_url(node.url)
        try:
            keys = r.scan_iter(match="gcbc:views:*", count=1000)
            held[node.port] = {k.decode()[len("gcbc:views:{") : -1] for k in keys}
        finally:
            r.close()
    return held


def _slot_map(stack: Stack) -> list[tuple[int, int, int]]:
    """The cluster's own slot map, (first slot, last slot, owner's port), as every node states it
    (CLUSTER SLOTS): no formula, since devservers.start_redis_cluster's split is not an even
    thirds' (its last node takes the remainder), and every node must state the same map."""
    maps = []
    for node in stack.redis.nodes:  # type: ignore[union-attr]
        r = redis.Redis.from_url(node.url)
        try:
            maps.append(sorted((int(s[0]), int(s[1]), int(s[2][1])) for s in r.cluster("slots")))
        finally:
            r.close()
    assert all(m == maps[0] for m in maps), maps
    return maps[0]


def _owner(slots: list[tuple[int, int, int]], table: str) -> int:
    """The port of the one node owning the table's slot in ``slots`` (``_slot_map``)."""
    slot = key_slot(f"gcbc:views:{{{table}}}".encode())
    [port] = [port for first, last, port in slots if first <= slot <= last]
    return port


async def _index(stack: Stack, ready: Callable[[Any, list[str]], bool]) -> tuple:
    """The read model's status index (its counts per status), the log's tables and the lobby's
    first page, once ``ready(status, tables)`` holds (or after 30 s, for the test to say what
    is missing): the global keys ({gcbc}, on one node) are written after each table's own."""
    live = RedisReadModel.connect(stack.redis_url)
    log = await JetStreamEventLog.connect(stack.nats_url)
    try:
        tables = [t async for t in log.tables()]
        for _ in range(300):
            status = await live.status()
            if ready(status, tables):
                break
            await asyncio.sleep(0.1)
        return status, tables, await live.open_tables(limit=100)
    finally:
        await live.close()
        await log.close()


def test_the_read_model_is_spread_over_every_redis_node(cluster_stack):
    """Each table's keys share its hash tag: tables land on every node of the Redis Cluster,
    the services' own users read and write them, and the lobby and status are whole."""
    stack, _ = cluster_stack
    assert stack.env("table")["GCBC_REDIS_URL"].startswith("redis+cluster://table:")

    async def go():
        record = chaos.Record()
        return await asyncio.gather(
            # the first table with two of the house's seats: the bot worker waits on the cluster
            *(
                chaos.play_through(stack.api, 4, 400 + i, record, (2, 3) if i == 0 else ())
                for i in range(6)
            )
        ), record

    table_ids, record = asyncio.run(go())
    findings = asyncio.run(chaos.check(stack, table_ids, record))
    assert findings.ok, findings.problems
    # each table's keys on the one node owning its hash tag's slot, nowhere else
    held, slots = _views_per_node(stack), _slot_map(stack)
    for t in table_ids:
        assert [port for port, tables in held.items() if t in tables] == [_owner(slots, t)]

    # the index's keys are written a moment after each table's: once it counts every table
    status, tables, lobby = asyncio.run(
        _index(
            stack,
            lambda status, tables: (
                sum(status.tables.values()) == len(tables)
                and status.tables.get("finished", 0) >= len(table_ids)
            ),
        )
    )
    assert set(table_ids) <= set(tables)
    assert sum(status.tables.values()) == len(tables)  # whole: every table counted, once
    assert status.tables.get("finished", 0) >= len(table_ids)  # this test's, all played out
    assert not [t for t in table_ids for listing in lobby.listings if t.encode() in listing]


def test_tables_finish_while_a_redis_node_restarts_empty(cluster_stack):
    """A Redis primary killed -9 comes back with its slots and no data (sooner than its replica
    could take over: the cluster's node timeout is 2 s): the projection notices (the node's epoch
    mark is gone), projects every table again, and play goes on. The node is the one holding the
    global index ({gcbc}), which is made again."""
    stack, _ = cluster_stack

    async def go():
        record = chaos.Record()
        games = asyncio.gather(
            *(chaos.play_through(stack.api, 4 + i % 2, 500 + i, record) for i in range(4))
        )

        async def strike() -> None:
            await asyncio.sleep(1.5)
            node = stack.redis.primary_of(INDEX_KEY)  # type: ignore[union-attr]
            node.stop(kill=True)
            await asyncio.sleep(1.0)
            # from this (the main) thread: a server started from a worker thread dies with it
            node.restart()  # not the cluster's restart, which would wait for a failover
            await asyncio.to_thread(stack.redis.wait_ok)  # type: ignore[union-attr]

        _, table_ids = await asyncio.gather(strike(), games)
        return table_ids, record

    table_ids, record = asyncio.run(go())
    findings = asyncio.run(chaos.check(stack, table_ids, record))
    assert findings.ok, findings.problems
    assert findings.accepted > 0

    # the projection projects every table again after the node's loss, in the background: the
    # views can be whole before the index is made again
    status, tables, _ = asyncio.run(
        _index(
            stack,
            lambda status, tables: (
                status.epoch is not None and sum(status.tables.values()) == len(tables)
            ),
        )
    )
    assert status.epoch is not None and sum(status.tables.values()) == len(tables)


def test_tables_finish_while_a_redis_primary_fails_over(cluster_stack):
    """The primary holding the read model's index killed -9: its replica takes over its slots,
    the services' cluster clients find the new owner without a restart, a new table is listed in
    the lobby again within seconds, and the node, started again, is its replica."""
    stack, _ = cluster_stack
    redis_cluster = stack.redis
    assert isinstance(redis_cluster, devservers.RedisCluster)
    killed = redis_cluster.primary_of(INDEX_KEY)
    pids = {name: proc.pid for name, proc in stack.procs.items()}
    record = chaos.Record()
    table_ids, recovered = asyncio.run(
        chaos.run_fault(stack, "kill -9 a Redis primary", 4, 600, record)
    )
    findings = asyncio.run(chaos.check(stack, table_ids, record))
    print(chaos.report_line("kill -9 a Redis primary", findings, recovered))
    assert findings.ok, findings.problems
    assert findings.accepted > 0 and recovered < 30
    assert redis_cluster.primary_of(INDEX_KEY) is not killed  # its replica took over
    [member] = [m for m in redis_cluster.members() if m["port"] == killed.port]
    assert "slave" in member["flags"]  # back as the new primary's replica
    assert {name: proc.pid for name, proc in stack.procs.items()} == pids  # no service restarted


def test_tables_finish_while_the_stream_leader_is_killed(cluster_stack):
    stack, cluster = cluster_stack

    async def go():
        record = chaos.Record()
        games = asyncio.gather(
            *(chaos.play_through(stack.api, 4 + i % 2, 300 + i, record) for i in range(4))
        )

        async def strike() -> str:
            await asyncio.sleep(1.5)
            leader = (await _stream(cluster)).cluster.leader
            cluster.node(leader).stop(kill=True)
            await asyncio.sleep(3.0)  # the others elect a new leader meanwhile
            cluster.node(leader).restart()
            return leader

        killed, table_ids = await asyncio.gather(strike(), games)
        return killed, table_ids, record

    killed, table_ids, record = asyncio.run(go())
    findings = asyncio.run(chaos.check(stack, table_ids, record))
    assert findings.ok, findings.problems
    assert findings.accepted > 0
    info = asyncio.run(_stream(cluster))
    assert info.cluster.leader in cluster.names and killed in cluster.names
    assert info.config.num_replicas == 3  # the checks' own connection left the replicas be


def test_an_existing_stream_is_updated_to_the_configured_replicas(cluster_stack):
    """A stream made with one copy gets three once an operator connects asking for three."""
    _, cluster = cluster_stack

    async def go() -> int:
        first = await JetStreamEventLog.connect(cluster.url, 1, "GCBC_R", "gcbc.r")
        await first.close()
        again = await JetStreamEventLog.connect(cluster.url, 3, "GCBC_R", "gcbc.r", configure=True)
        try:
            return (await again.js.stream_info("GCBC_R")).config.num_replicas
        finally:
            await again.js.delete_stream("GCBC_R")
            await again.close()

    assert asyncio.run(go()) == 3
