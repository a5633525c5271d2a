"""Rate limits (services/table/limits.py): over the limit is a 429 with Retry-After; a check that
is too slow lets the request go on and is let finish, never cancelled (a cancelled Redis command
costs its connection)."""

from __future__ import annotations

import asyncio
import time

import pytest

from services.table.limits import RateLimits, parse_rates
from services.table.problems import ApiError


class Stats:
    def __init__(self, reset_time: float) -> None:
        self.reset_time = reset_time


class Limiter:
    """A stand-in for the limits library's strategy: counts hits, says yes ``allow`` times."""

    def __init__(self, allow: int, delay: float = 0.0) -> None:
        self.allow, self.delay = allow, delay
        self.hits = 0
        self.finished = 0

    async def hit(self, item, *ids) -> bool:  # noqa: ANN001
        self.hits += 1
        await asyncio.sleep(self.delay)
        self.finished += 1
        return self.hits <= self.allow

    async def get_window_stats(self, item, *ids) -> Stats:  # noqa: ANN001
        return Stats(time.time() + 7.2)


def limits(limiter: Limiter) -> RateLimits:
    rates = RateLimits(None, parse_rates({"command": "2/second"}))
    rates.limiter = limiter  # type: ignore[assignment]
    return rates


def test_over_the_limit_is_a_429_with_retry_after() -> None:
    async def go() -> None:
        rates = limits(Limiter(allow=2))
        await rates.hit("command", "t:1")
        await rates.hit("command", "t:1")
        with pytest.raises(ApiError) as e:
            await rates.hit("command", "t:1")
        assert e.value.status == 429 and e.value.code == "rate_limited"
        assert e.value.headers == {"Retry-After": "8"}

    asyncio.run(go())


def test_a_slow_check_lets_the_request_go_on_and_still_counts() -> None:
    async def go() -> None:
        limiter = Limiter(allow=0, delay=RateLimits.TIMEOUT * 2)
        rates = limits(limiter)
        await rates.hit("command", "t:1")  # over the limit, but too slow to say so: goes on
        assert limiter.finished == 0
        await rates.hit("command", "t:1")  # paused: not even asked
        assert limiter.hits == 1
        await asyncio.sleep(RateLimits.TIMEOUT * 2)
        assert limiter.finished == 1  # the check was let finish, not cancelled

    asyncio.run(go())


def test_kinds_without_a_rate_are_not_counted() -> None:
    async def go() -> None:
        limiter = Limiter(allow=0)
        await limits(limiter).hit("create", "1.2.3.4")
        assert limiter.hits == 0

    asyncio.run(go())
