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
        return RedisReadModel.connect(redis_url)

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
        assert b'{"table_id": "x"}' in await m.open_tables()
        assert not await m.put(t, {"public": b"old"}, 2, listing=b'{"stale": 1}')
        assert b'{"stale": 1}' not in await m.open_tables()  # a redelivery relists nothing
        await m.put(t, {"public": b"b"}, 5, listing=None)
        assert b'{"table_id": "x"}' not in await m.open_tables()

    run(go())
