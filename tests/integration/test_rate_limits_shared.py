"""Rate limits across table-service processes (services/table/limits.py), on a real Redis: each
process decides at once on its own count, and a client that spreads its requests over several
processes is refused once their shared count in Redis is over its budget."""

from __future__ import annotations

import asyncio
import uuid

import pytest
import redis.asyncio as aioredis

from services.table.limits import RateLimits
from services.table.problems import ApiError


def test_a_client_spread_over_processes_meets_one_budget(redis_url: str) -> None:
    async def go() -> None:
        clients = [aioredis.from_url(redis_url) for _ in range(2)]
        rates = {"command": "4/minute"}
        first, second = (RateLimits.on_redis(redis_url, c.connection_pool, rates) for c in clients)
        who = f"t-{uuid.uuid4().hex[:8]}:1"  # a client of its own, whatever ran before
        for process in (first, second, first, second):  # two each: within either's own count
            await process.hit("command", who)
            await asyncio.sleep(0.05)  # the shared count lands
        # the budget is spent across both: the next request is refused, wherever it goes
        for process in (first, second):
            await process.hit("command", who)  # one more is counted (its process said yes) ...
            await asyncio.sleep(0.05)
            with pytest.raises(ApiError) as e:  # ... and Redis said over: refused from now on
                await process.hit("command", who)
            assert e.value.status == 429 and int(e.value.headers["Retry-After"]) >= 1
        for c in clients:
            await c.aclose()

    asyncio.run(go())
