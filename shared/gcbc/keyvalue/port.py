"""The keyed-value port: the latest value of each key, and a watch over all of them.

``get(key)``: the value (None: no such key, or deleted). ``put(key, value, ttl)``: replaces it;
with ``ttl``, the value goes that many seconds later (whole seconds, at least 1) unless put again
(None: kept).
``delete(key)``: the key is gone (deleting a missing key is no error). ``watch(handle)``: every
key's current value once, then every change as it is stored (``handle(key, value)``; a deleted
key comes with None), in the order they were stored; the returned watch's ``ready`` is set once
the values there were at the start have all been handed over. ``purge_deletes(older_than)``: the
deletions stored longer ago than that are forgotten (a store may keep each one, and a watch
starts by reading them: a bucket whose keys come and go purges them now and then).

Keys are any string without control characters or spaces (a table id, a name with dots): the
adapter maps them to what its store allows. ``LogUnavailable`` (gcbc.eventlog.port): the store
could not be reached.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Protocol

Change = Callable[[str, bytes | None], Awaitable[object] | object]


class Watch(Protocol):
    ready: asyncio.Event

    async def close(self) -> None: ...


class KeyValue(Protocol):
    async def get(self, key: str) -> bytes | None: ...

    async def put(self, key: str, value: bytes, ttl: float | None = None) -> None: ...

    async def delete(self, key: str) -> None: ...

    async def watch(self, handle: Change) -> Watch: ...

    async def purge_deletes(self, older_than: float) -> int:
        """Forget the deletions stored more than ``older_than`` seconds ago: how many."""
        ...

    async def close(self) -> None: ...
