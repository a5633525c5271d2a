"""One contract for the shared request counts (gcbc.ratelimits): the in-memory twin and Redis
(one server, and a cluster) count a sliding window alike: within the limit, over it with the
window's reset, a refused request not counted, each kind and client apart."""

from __future__ import annotations

import asyncio
import time
import uuid

import pytest
from limits import parse

from gcbc.ratelimits.memory import MemoryCounts
from gcbc.ratelimits.redis import RedisCounts


@pytest.fixture(params=["memory", "redis", "redis-cluster"])
def counts_factory(request):
    def make():
        if request.param == "memory":
            return MemoryCounts()
        if request.param == "redis-cluster":
            return RedisCounts.connect(request.getfixturevalue("redis_cluster").url)
        return RedisCounts.connect(request.getfixturevalue("redis_url"))

    return make


def run(coro):
    return asyncio.run(coro)


def test_requests_within_the_limit_then_over_until_the_window_resets(counts_factory):
    async def go():
        counts = counts_factory()
        await counts.warm()
        item = parse("3/minute")
        who = f"t-{uuid.uuid4().hex[:8]}:1"
        assert [await counts.hit(item, "command", who) for _ in range(3)] == [None] * 3
        reset = await counts.hit(item, "command", who)
        # when a request may pass again: within the minute (the library's sliding estimate)
        assert reset is not None and time.time() - 1 <= reset <= time.time() + 60
        assert await counts.hit(item, "command", who) is not None  # still over
        assert await counts.hit(item, "chat", who) is None  # another kind: a budget of its own
        assert await counts.hit(item, "command", who + "0") is None  # another client too

    run(go())


def test_a_cost_counts_as_that_many_requests_and_a_refused_one_is_not_counted(counts_factory):
    async def go():
        counts = counts_factory()
        item = parse("10/minute")
        who = f"t-{uuid.uuid4().hex[:8]}:2"
        assert await counts.hit(item, "command", who, cost=8) is None
        assert await counts.hit(item, "command", who, cost=3) is not None  # 11: refused
        assert await counts.hit(item, "command", who, cost=2) is None  # the refused 3 not counted
        assert await counts.hit(item, "command", who) is not None

    run(go())
