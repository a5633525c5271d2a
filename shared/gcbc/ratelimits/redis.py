"""The shared request counts in the read model's Redis (or Redis Cluster): the ``limits``
library's sliding window counter, each check one atomic script run."""

from __future__ import annotations

from limits import RateLimitItem
from limits.aio.storage import RedisClusterStorage, RedisStorage
from limits.aio.strategies import SlidingWindowCounterRateLimiter

PREFIX = "gcbc:rate"  # the counters' keys


class RedisCounts:
    def __init__(self, storage: RedisStorage | RedisClusterStorage) -> None:
        self.storage = storage
        self.limiter = SlidingWindowCounterRateLimiter(storage)

    @classmethod
    def connect(cls, url: str, pool: object = None) -> RedisCounts:
        """Counters in the Redis at ``url``, through ``pool`` (the read model's connections);
        a cluster (``redis+cluster://``) through the library's own cluster client (a window's
        keys share a hash tag)."""
        if url.startswith("redis+cluster://"):
            return cls(
                RedisClusterStorage(f"async+{url}", implementation="redispy", key_prefix=PREFIX)
            )
        return cls(
            RedisStorage(
                f"async+{url}", implementation="redispy", connection_pool=pool, key_prefix=PREFIX
            )
        )

    async def hit(self, item: RateLimitItem, kind: str, who: str, cost: int = 1) -> float | None:
        if await self.limiter.hit(item, kind, who, cost=cost):
            return None
        return (await self.limiter.get_window_stats(item, kind, who)).reset_time

    async def warm(self) -> None:
        await self.storage.check()
