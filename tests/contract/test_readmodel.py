"""One contract for every read model adapter: the in-memory twin and Redis behave alike
(DESIGN property 1 and 4: atomic updates stamped with a position; redelivery is harmless)."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from gcbc.readmodel.memory import MemoryReadModel
from gcbc.readmodel.redis import RedisReadModel


@pytest.fixture(params=["memory", "redis"])
def model_factory(request, redis_url):
    def make():
        if request.param == "memory":
            return MemoryReadModel()
        # a database of its own: the services' read model (db 0) never sees these test keys
        return RedisReadModel.connect(redis_url.rsplit("/", 1)[0] + "/15")

    return make


def run(coro):
    return asyncio.run(coro)


def test_views_are_written_together_with_their_position(model_factory):
    async def go():
        m = model_factory()
        t = uuid.uuid4().hex
        assert await m.get(t, "public") is None
        assert await m.position(t) == 0
        assert await m.put(t, {"public": b"p1", "seat:0": b"s1"}, 5)
        assert await m.get(t, "public") == (5, b"p1")
        assert await m.get(t, "seat:0") == (5, b"s1")
        assert await m.get(t, "seat:1") is None

    run(go())


def test_an_older_or_equal_position_is_skipped(model_factory):
    async def go():
        m = model_factory()
        t = uuid.uuid4().hex
        await m.put(t, {"public": b"new"}, 9)
        assert not await m.put(t, {"public": b"old"}, 9)
        assert not await m.put(t, {"public": b"older"}, 3)
        assert await m.get(t, "public") == (9, b"new")
        assert await m.put(t, {"public": b"newer", "seat:2": b"x"}, 10)
        assert await m.get(t, "seat:2") == (10, b"x")

    run(go())


def test_delete_then_rebuild(model_factory):
    async def go():
        m = model_factory()
        t = uuid.uuid4().hex
        await m.put(t, {"public": b"a"}, 4)
        await m.delete(t)
        assert await m.get(t, "public") is None
        assert await m.put(t, {"public": b"a"}, 4)

    run(go())


def test_the_lobby_listing_moves_with_the_views(model_factory):
    async def go():
        m = model_factory()
        t = uuid.uuid4().hex
        await m.put(t, {"public": b"a"}, 3, listing=b'{"table_id": "x"}')
        assert b'{"table_id": "x"}' in (await m.open_tables()).listings
        assert not await m.put(t, {"public": b"old"}, 2, listing=b'{"stale": 1}')
        assert b'{"stale": 1}' not in (await m.open_tables()).listings  # a redelivery: nothing
        await m.put(t, {"public": b"b"}, 5, listing=None)
        assert b'{"table_id": "x"}' not in (await m.open_tables()).listings

    run(go())


@pytest.mark.parametrize("hostile", ["*", "a.b", "a b", "a\x01b", "", "x>"])
def test_an_id_that_could_reach_other_keys_is_refused(model_factory, hostile):
    """DESIGN property 3: ids are checked, never passed raw into keys or channels."""
    from gcbc.contract.ids import InvalidTableId

    async def go():
        model = model_factory()
        for call in (
            lambda: model.get(hostile, "public"),
            lambda: model.position(hostile),
            lambda: model.delete(hostile),
            lambda: model.put(hostile, {"public": b"{}"}, 1),
        ):
            with pytest.raises(InvalidTableId):
                await call()

    run(go())


def test_the_lobby_is_listed_in_pages_oldest_first(model_factory):
    """GET /tables is paginated: a cursor walks the lobby in the order tables were listed, a
    table listed again (a seat taken) keeps its place, and one that leaves the lobby is gone."""

    async def go():
        m = model_factory()
        if isinstance(m, RedisReadModel):
            await m.redis.flushdb()  # db 15: this suite's own
        tables = [uuid.uuid4().hex for _ in range(7)]
        for i, t in enumerate(tables):
            await m.put(t, {"public": b"v"}, 10 + i, listing=t.encode())
        await m.put(tables[1], {"public": b"v"}, 30, listing=tables[1].encode() + b"+")
        await m.put(tables[2], {"public": b"v"}, 31, listing=None)
        seen, after, pages = [], 0, 0
        while True:
            page = await m.open_tables(limit=2, after=after)
            seen += page.listings
            pages += 1
            if page.next is None:
                break
            after = page.next
        expected = [t.encode() for t in tables]
        expected[1] += b"+"
        del expected[2]
        assert seen == expected and pages == 3

    run(go())
