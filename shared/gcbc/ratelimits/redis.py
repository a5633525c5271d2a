"""The shared request counts in the read model's Redis (or Redis Cluster): the ``limits``
library's sliding window counter, each check one atomic script run."""

from __future__ import annotations

from limits.aio.storage import RedisClusterStorage, RedisStorage

from gcbc.ratelimits.port import SharedCounts

PREFIX = "gcbc:rate"  # the counters' keys


class RedisCounts(SharedCounts):
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
