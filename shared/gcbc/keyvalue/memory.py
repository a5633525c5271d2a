"""The in-memory twin of the keyed-value store: the same answers as JetStream KV, for tests and
service loops on their twins."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import math
import time
from collections.abc import Callable

from gcbc.keyvalue.port import Change


class _Watch:
    def __init__(self, store: MemoryKeyValue, handle: Change) -> None:
        self.store = store
        self.handle = handle
        self.ready = asyncio.Event()
        self.queue: asyncio.Queue[tuple[str, bytes | None] | None] = asyncio.Queue()
        for key, value in store.values.items():
            self.queue.put_nowait((key, value))
        self.queue.put_nowait(None)  # the values there were: all handed over
        self.task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        while True:
            change = await self.queue.get()
            if change is None:
                self.ready.set()
                continue
            done = self.handle(*change)
            if inspect.isawaitable(done):
                await done

    async def close(self) -> None:
        if self in self.store.watches:
            self.store.watches.remove(self)
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task


class MemoryKeyValue:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.values: dict[str, bytes] = {}
        self.watches: list[_Watch] = []
        self.puts = 0  # values stored (tests count the writes)
        self.clock = clock
        self._expires: dict[str, float] = {}  # key -> when its value goes (one put with a ttl)

    async def get(self, key: str) -> bytes | None:
        self._expire()
        return self.values.get(key)

    def _expire(self) -> None:
        """Values past their ttl go (as JetStream's do: with no deletion to watch)."""
        now = self.clock()
        for key in [k for k, when in self._expires.items() if when <= now]:
            del self._expires[key]
            self.values.pop(key, None)

    async def put(self, key: str, value: bytes, ttl: float | None = None) -> None:
        self.values[key] = value
        self.puts += 1
        if ttl is None:
            self._expires.pop(key, None)
        else:
            self._expires[key] = self.clock() + max(1, math.ceil(ttl))  # (as JetStream's)
        self._changed(key, value)

    async def delete(self, key: str) -> None:
        self._expires.pop(key, None)
        if self.values.pop(key, None) is not None:
            self._changed(key, None)

    async def purge_deletes(self, older_than: float) -> int:
        return 0  # a deleted key leaves nothing behind here

    def _changed(self, key: str, value: bytes | None) -> None:
        for watch in self.watches:
            watch.queue.put_nowait((key, value))

    async def watch(self, handle: Change) -> _Watch:
        self._expire()
        watch = _Watch(self, handle)
        self.watches.append(watch)
        return watch

    async def close(self) -> None:
        for watch in list(self.watches):
            await watch.close()
