"""An in-memory twin of the shared request counts: the same sliding window counter as Redis,
in the ``limits`` library's memory storage (one process's only)."""

from __future__ import annotations

from limits.aio.storage import MemoryStorage

from gcbc.ratelimits.port import SharedCounts


class MemoryCounts(SharedCounts):
    def __init__(self) -> None:
        super().__init__(MemoryStorage())
