"""The shared request counts' port: per kind of request and client, a sliding window counter
(the ``limits`` library's) that every table-service process counts against. Every method raises
what its store raises when it cannot be reached: the caller decides on its own count then."""

from __future__ import annotations

from limits import RateLimitItem
from limits.aio.storage import Storage
from limits.aio.strategies import SlidingWindowCounterRateLimiter


class SharedCounts:
    """The counter over the library's ``storage``: each adapter is this, over its own storage
    (Redis shared by every process, or one process's memory for the twin)."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.limiter = SlidingWindowCounterRateLimiter(storage)

    async def hit(self, item: RateLimitItem, kind: str, who: str, cost: int = 1) -> float | None:
        """Count ``cost`` requests of ``kind`` by ``who``: None if they are within ``item``,
        else when its window resets (epoch s; requests refused are not counted)."""
        if await self.limiter.hit(item, kind, who, cost=cost):
            return None
        return (await self.limiter.get_window_stats(item, kind, who)).reset_time

    async def warm(self) -> None:
        """Returns once the store answers (connected before the first request)."""
        await self.storage.check()
