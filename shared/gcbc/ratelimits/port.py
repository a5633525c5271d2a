"""The shared request counts' port: per kind of request and client, a sliding window counter
(the ``limits`` library's) that every table-service process counts against. Every method raises
what its store raises when it cannot be reached: the caller decides on its own count then."""

from __future__ import annotations

from typing import Protocol

from limits import RateLimitItem


class SharedCounts(Protocol):
    async def hit(self, item: RateLimitItem, kind: str, who: str, cost: int = 1) -> float | None:
        """Count ``cost`` requests of ``kind`` by ``who``: None if they are within ``item``,
        else when its window resets (epoch s; requests refused are not counted)."""
        ...

    async def warm(self) -> None:
        """Returns once the store answers (connected before the first request)."""
        ...
