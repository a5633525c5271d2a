"""The read model on a Redis Cluster, beyond the contract: the table's write and
the global index are two steps on two nodes, so a crash between them must converge; wake-ups reach
waiters whichever node holds their table; a node restarted empty is noticed; each service's user
can do its part and no more."""

from __future__ import annotations

import asyncio
import uuid

import pytest
from redis.crc import key_slot

from gcbc.readmodel.port import ModelUnavailable, Put, Replacement
from gcbc.readmodel.redis import RedisReadModel
from gcbc.readmodel.rediscluster import KEY, RedisClusterReadModel, cluster_nodes
from gcbc.readmodel.wakeups import wake_message


def run(coro):
    return asyncio.run(coro)


async def _fresh(url: str) -> RedisClusterReadModel:
    m = RedisReadModel.connect(url)
    assert isinstance(m, RedisClusterReadModel)
    await m.redis.flushdb(target_nodes=m.redis.PRIMARIES)
    return m


def _tables_on_every_node(per_node: int = 2) -> list[str]:
    """Table ids whose slots fall in each third of the slots (each node of the test cluster)."""
    found: dict[int, list[str]] = {0: [], 1: [], 2: []}
    while any(len(ids) < per_node for ids in found.values()):
        t = uuid.uuid4().hex
        third = min(2, key_slot(KEY.format(table=t).encode()) * 3 // 16384)
        if len(found[third]) < per_node:
            found[third].append(t)
    return [t for ids in found.values() for t in ids]


def test_a_cluster_url_names_its_nodes_and_its_user():
    nodes, user, password = cluster_nodes("redis+cluster://table:p%40ss@10.0.0.1:7001,h2:7002")
    assert nodes == [("10.0.0.1", 7001), ("h2", 7002)] and (user, password) == ("table", "p@ss")
    assert cluster_nodes("redis+cluster://h:1") == ([("h", 1)], None, None)
    with pytest.raises(ValueError, match="host:port"):
        cluster_nodes("redis+cluster://h1:7001,h2")


def test_a_crash_between_the_table_write_and_the_index_is_mended_by_the_redelivery(redis_cluster):
    """Given a table written but its index step lost (the projection died between the two), when
    the same entry is delivered again, the put is a no-op for the table and brings the index up."""

    async def go():
        m = await _fresh(redis_cluster.url)
        t = uuid.uuid4().hex
        item = Replacement(t, {"public": b"v"}, 7, b"L", None, "lobby")
        await m._put(keys=[KEY.format(table=t)], args=m._table_args(item, "newer", "7 *"))
        assert (await m.open_tables()).listings == [] and (await m.status()).tables == {}
        assert not await m.put(t, {"public": b"v"}, 7, listing=b"L", status="lobby")
        assert (await m.open_tables()).listings == [b"L"]
        assert (await m.status())[1:] == (7, {"lobby": 1})
        await m.close()

    run(go())


def test_the_lobby_never_lists_a_table_that_is_gone(redis_cluster):
    """Given the index still naming a table whose hash is gone (a delete cut short, a node wiped),
    the lobby passes over it, and its pages still fill up to the limit."""

    async def go():
        m = await _fresh(redis_cluster.url)
        tables = [uuid.uuid4().hex for _ in range(5)]
        for i, t in enumerate(tables):
            await m.put(t, {"public": b"v"}, 10 + i, listing=t.encode(), status="lobby")
        await m.redis.delete(KEY.format(table=tables[0]), KEY.format(table=tables[2]))
        page = await m.open_tables(limit=2)
        assert page.listings == [tables[1].encode(), tables[3].encode()]
        rest = await m.open_tables(limit=2, after=page.next)
        assert rest.listings == [tables[4].encode()] and rest.next is None
        await m.close()

    run(go())


def test_waiters_are_woken_whichever_node_holds_their_table(redis_cluster):
    """Sharded pub/sub: each table's channel is subscribed on its own node; a put there wakes its
    waiters (long before the safety-net timeout of 8 to 12 s)."""

    async def go():
        m = await _fresh(redis_cluster.url)
        tables = _tables_on_every_node()
        for t in tables:
            await m.put(t, {"public": b'{"version":1}'}, 1)
        waiters = [asyncio.create_task(m.wait(t, "public", after=1, timeout=30)) for t in tables]
        await asyncio.sleep(0.3)
        assert not any(w.done() for w in waiters)
        for t in tables:
            await m.put(t, {"public": b'{"version":2}'}, 2, changed=["public"])
        got = await asyncio.wait_for(asyncio.gather(*waiters), 5)
        assert [g.data for g in got] == [b'{"version":2}'] * len(tables)
        assert len({m.wakeups._channels[t] for t in tables}) == 3  # every node
        await m.close()

    run(go())


def test_each_service_user_does_its_part_on_the_cluster(redis_cluster):
    """The projection's user writes; the table service's reads and waits (sharded channels
    included) and may not write the views."""

    async def go():
        await (await _fresh(redis_cluster.url)).close()
        writer = RedisReadModel.connect(redis_cluster.url_for("projection"))
        reader = RedisReadModel.connect(redis_cluster.url_for("table"))
        t = uuid.uuid4().hex
        waiter = asyncio.create_task(reader.wait(t, "public", position=3, timeout=20))
        await asyncio.sleep(0.3)
        assert await writer.put(t, {"public": b'{"version":1}'}, 3, listing=b"L", status="lobby")
        assert (await asyncio.wait_for(waiter, 5)).position == 3
        assert (await reader.open_tables()).listings == [b"L"]
        assert await writer.claim_epoch()
        assert (await reader.status()).tables == {"lobby": 1}
        with pytest.raises(Exception, match="(?i)permission"):
            await reader.put(t, {"public": b"x"}, 9)
        await writer.close()
        await reader.close()

    run(go())


def test_a_node_restarted_empty_is_noticed_and_the_index_made_again(redis_cluster):
    """Given tables on every node and the epoch claimed, when the node holding the index restarts
    empty, the next claim says so and the index is made again from the hashes that survived."""

    async def go(step: str):
        m = RedisReadModel.connect(redis_cluster.url)
        assert isinstance(m, RedisClusterReadModel)
        try:
            if step == "before":
                await m.redis.flushdb(target_nodes=m.redis.PRIMARIES)
                for i, t in enumerate(tables):
                    await m.put(t, {"public": b"v"}, 10 + i, listing=t.encode(), status="lobby")
                assert await m.claim_epoch() and not await m.claim_epoch()
                node = m.redis.get_node_from_key("gcbc:{gcbc}:at")
                return node.port, {
                    t for t in tables if m.redis.get_node_from_key(KEY.format(table=t)) != node
                }
            assert (await m.status()).epoch is None  # a node without its mark
            assert await m.claim_epoch()
            status = await m.status()
            assert status.epoch is not None and status.tables == {"lobby": len(survivors)}
            listed = set((await m.open_tables(limit=100)).listings)
            assert listed == {t.encode() for t in survivors}
            # the restarted node lost its scripts too: loaded again, every table written
            puts = [Put(Replacement(t, {"public": b"w"}, 100, status="playing")) for t in tables]
            assert await m.put_many(puts) == [True] * len(tables)
            assert (await m.status()).tables == {"playing": len(tables)}
            return None
        finally:
            await m.close()

    tables = _tables_on_every_node()
    port, survivors = run(go("before"))
    assert 0 < len(survivors) < len(tables)
    node = next(n for n in redis_cluster.nodes if n.port == port)
    node.stop(kill=True)
    redis_cluster.restart()  # the same port, its nodes.conf: its slots, and no data
    run(go("after"))


def test_a_cluster_away_is_model_unavailable():
    async def go():
        m = RedisReadModel.connect("redis+cluster://127.0.0.1:1")
        with pytest.raises(ModelUnavailable):
            await m.get(uuid.uuid4().hex, "public")
        await m.close()

    run(go())


def test_wake_messages_are_the_single_redis_ones():
    assert wake_message(3, ["public"]) == "3 public"


def test_a_channel_nobody_watches_any_more_is_let_go(redis_cluster):
    """A process does not stay subscribed to every table it ever watched."""

    async def go():
        m = await _fresh(redis_cluster.url)
        m.wakeups.LINGER = 0.4
        t = uuid.uuid4().hex
        await m.put(t, {"public": b'{"version":1}'}, 1)
        await m.wait(t, "public", after=1, timeout=0.1)
        assert t in m.wakeups._channels
        for _ in range(50):
            if t not in m.wakeups._channels:
                break
            await asyncio.sleep(0.1)
        assert t not in m.wakeups._channels
        waiter = asyncio.create_task(m.wait(t, "public", after=1, timeout=30))  # watched again
        await asyncio.sleep(0.3)
        await m.put(t, {"public": b'{"version":2}'}, 2)
        assert (await asyncio.wait_for(waiter, 5)).data == b'{"version":2}'
        await m.close()

    run(go())


def test_an_index_rebuild_cut_short_is_done_again_and_drops_tables_gone(redis_cluster):
    """The index's epoch mark is set only once the index is made again: a claim that failed
    half-way leaves it unset, and the next claim rebuilds; a table the index names but whose hash
    is gone is dropped from the counts and the lobby."""

    async def go():
        m = await _fresh(redis_cluster.url)
        a, b = uuid.uuid4().hex, uuid.uuid4().hex
        await m.put(a, {"public": b"v"}, 3, listing=b"A", status="lobby")
        await m.put(b, {"public": b"v"}, 4, listing=b"B", status="lobby")
        await m.redis.delete(KEY.format(table=b))  # b's hash lost, the index still names it
        calls = 0
        rebuild = m.reindex

        async def cut_short() -> int:
            nonlocal calls
            calls += 1
            raise ModelUnavailable("a node went away")

        m.reindex = cut_short  # type: ignore[method-assign]
        with pytest.raises(ModelUnavailable):
            await m.claim_epoch()
        assert (await m.status()).epoch is None  # the index's mark not set
        m.reindex = rebuild  # type: ignore[method-assign]
        assert await m.claim_epoch() and calls == 1
        assert (await m.status()).tables == {"lobby": 1}
        assert (await m.open_tables()).listings == [b"A"]
        assert not await m.claim_epoch()
        await m.close()

    run(go())


def test_an_index_rebuild_keeps_a_finished_table_whose_views_expired(redis_cluster):
    """Its hash is gone but its seated record stays: the index still counts it, and its
    status is still known, whatever node rebuilt the index."""

    async def go():
        m = await _fresh(redis_cluster.url)
        m.finished_ttl = 0.2
        done, gone = uuid.uuid4().hex, uuid.uuid4().hex
        await m.replace([Replacement(done, {"public": b"v"}, 3, status="finished", seated=b"{}")])
        await m.put(gone, {"public": b"v"}, 4, status="playing")
        await m.redis.delete(KEY.format(table=gone))  # a hash lost, no record: dropped
        await asyncio.sleep(0.4)
        assert await m.get(done, "public") is None
        assert await m.reindex() == 0
        assert (await m.status()).tables == {"finished": 1}
        assert await m.seated([done]) == [b"{}"]
        await m.close()

    run(go())
