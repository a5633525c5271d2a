"""What one client may ask (DESIGN property 7): request rates, and open streams and long-polls.

Rates use the ``limits`` library (the one behind slowapi and Flask-Limiter) on the read model's
Redis, so every table-service process counts against the same budget; each check is one atomic
script run (a sliding window counter). Litestar's own rate limiter was not used: it reads and then
writes its counter (two processes can both pass) and speaks no ``Retry-After``.

Open streams and long-polls are counted per process (they live in it): per table and per client
address.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections import Counter
from collections.abc import Callable

from limits import RateLimitItem, parse
from limits.aio.storage import RedisClusterStorage, RedisStorage
from limits.aio.strategies import SlidingWindowCounterRateLimiter

from services.common import metrics
from services.table.problems import ApiError

log = logging.getLogger("gcbc.table")
KINDS = ("create", "seat", "chat", "command")


def parse_rates(rates: dict[str, str]) -> dict[str, RateLimitItem]:
    """``{"create": "20/minute", "chat": ""}`` -> the limits that are set ("": none)."""
    return {kind: parse(text) for kind, text in rates.items() if text.strip()}


class RateLimits:
    TIMEOUT = 0.25  # seconds a check may take before the request goes on unchecked
    PAUSE = 2.0  # seconds without checks after a failure (Redis away must not slow every request)

    def __init__(
        self, storage: RedisStorage | RedisClusterStorage | None, rates: dict[str, RateLimitItem]
    ) -> None:
        self.limiter = SlidingWindowCounterRateLimiter(storage) if storage else None
        self.rates = rates
        self._paused_until = 0.0

    @classmethod
    def on_redis(cls, url: str, pool: object, rates: dict[str, str]) -> RateLimits:
        """Counters in the read model's Redis (``url``), through its connection pool."""
        items = parse_rates(rates)
        if not items:
            return cls(None, {})
        storage: RedisStorage | RedisClusterStorage
        if url.startswith("redis+cluster://"):
            # a cluster: the library's own cluster client (a window's keys share a hash tag)
            storage = RedisClusterStorage(
                f"async+{url}", implementation="redispy", key_prefix="gcbc:rate"
            )
        else:
            storage = RedisStorage(
                f"async+{url}",
                implementation="redispy",
                connection_pool=pool,
                key_prefix="gcbc:rate",
            )
        return cls(storage, items)

    async def warm(self) -> None:
        """Connect before the first request (a cluster client learns its slots first, longer
        than a check may take), so the first requests are counted too."""
        if self.limiter is not None:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(5):
                    await self.limiter.storage.check()

    async def hit(self, kind: str, who: str) -> None:
        """Count one request of ``kind`` by ``who``; 429 with Retry-After once over the limit.
        If Redis cannot count, the request goes on: limits protect, they never decide."""
        item = self.rates.get(kind)
        if item is None or self.limiter is None or time.monotonic() < self._paused_until:
            return
        check = asyncio.ensure_future(self._check(item, kind, who))
        try:
            # shielded: a check that is too slow is let finish (the count still counts), not
            # cancelled: redis-py drops a connection whose command was cancelled, and under load
            # reconnecting cost more than the checks themselves
            over = await asyncio.wait_for(asyncio.shield(check), self.TIMEOUT)
        except Exception as e:  # noqa: BLE001
            check.add_done_callback(_retrieve)
            self._paused_until = time.monotonic() + self.PAUSE
            log.warning("rate limits not checked for %.0f s: %r", self.PAUSE, e)
            return
        if over is None:
            return
        retry = max(1, math.ceil(over - time.time()))
        raise ApiError(
            429,
            "rate_limited",
            f"too many {kind} requests ({item}): retry in {retry} s",
            headers={"Retry-After": str(retry)},
        )

    async def _check(self, item: RateLimitItem, kind: str, who: str) -> float | None:
        """None if the request is within the limit, else when the window resets (epoch s)."""
        assert self.limiter is not None
        if await self.limiter.hit(item, kind, who):
            return None
        return (await self.limiter.get_window_stats(item, kind, who)).reset_time


def _retrieve(task: asyncio.Future) -> None:
    if not task.cancelled():
        task.exception()  # a late failure is already reported by the pause: not again


class OpenStreams:
    """Streams and long-polls open in this process (0: no cap): a table's spectators, each seat's
    own (so spectators never crowd a player out), and one client address's."""

    RETRY = 5  # seconds a refused watcher is told to wait

    def __init__(self, per_table: int, per_seat: int, per_client: int) -> None:
        self.per_table, self.per_seat, self.per_client = per_table, per_seat, per_client
        self.viewers: Counter[tuple[str, int | None]] = Counter()  # (table, seat or None)
        self.clients: Counter[str] = Counter()

    def open(
        self, table: str, client: str, seat: int | None, kind: str = "long_poll"
    ) -> Callable[[], None]:
        """Take a place (429 if none is left); the returned function gives it back (once).
        ``kind``: sse or long_poll (the open watchers' gauge)."""
        viewer = (table, seat)
        cap = self.per_table if seat is None else self.per_seat
        if cap and self.viewers[viewer] >= cap:
            who = "this table's spectators have" if seat is None else "your seat has"
            self._refuse(f"{who} {cap} streams and long-polls open")
        if self.per_client and self.clients[client] >= self.per_client:
            self._refuse(f"you have {self.per_client} streams and long-polls open")
        self.viewers[viewer] += 1
        self.clients[client] += 1
        gauge = metrics.WATCHERS.labels(kind)
        gauge.inc()
        done = False

        def close() -> None:
            nonlocal done
            if done:
                return
            done = True
            gauge.dec()
            for counter, key in ((self.viewers, viewer), (self.clients, client)):
                counter[key] -= 1
                if counter[key] <= 0:
                    del counter[key]  # nothing is kept for a table nobody watches

        return close

    def _refuse(self, why: str) -> None:
        raise ApiError(
            429,
            "too_many_streams",
            f"{why}: close one first",
            headers={"Retry-After": str(self.RETRY)},
        )
