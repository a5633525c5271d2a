"""An in-memory twin of the shared request counts: the same sliding window counter as Redis,
in the ``limits`` library's memory storage (one process's only)."""

from __future__ import annotations

from limits import RateLimitItem
from limits.aio.storage import MemoryStorage
from limits.aio.strategies import SlidingWindowCounterRateLimiter


class MemoryCounts:
    def __init__(self) -> None:
        self.limiter = SlidingWindowCounterRateLimiter(MemoryStorage())

    async def hit(self, item: RateLimitItem, kind: str, who: str, cost: int = 1) -> float | None:
        if await self.limiter.hit(item, kind, who, cost=cost):
            return None
        return (await self.limiter.get_window_stats(item, kind, who)).reset_time

    async def warm(self) -> None:
        pass
