"""The in-memory twin of the keyed-value store: the same answers as JetStream KV, for tests and
service loops on their twins."""

from __future__ import annotations

import asyncio
import contextlib
import inspect

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
    def __init__(self) -> None:
        self.values: dict[str, bytes] = {}
        self.watches: list[_Watch] = []
        self.puts = 0  # values stored (tests count the writes)

    async def get(self, key: str) -> bytes | None:
        return self.values.get(key)

    async def put(self, key: str, value: bytes) -> None:
        self.values[key] = value
        self.puts += 1
        self._changed(key, value)

    async def delete(self, key: str) -> None:
        if self.values.pop(key, None) is not None:
            self._changed(key, None)

    async def purge_deletes(self, older_than: float) -> int:
        return 0  # a deleted key leaves nothing behind here

    def _changed(self, key: str, value: bytes | None) -> None:
        for watch in self.watches:
            watch.queue.put_nowait((key, value))

    async def watch(self, handle: Change) -> _Watch:
        watch = _Watch(self, handle)
        self.watches.append(watch)
        return watch

    async def close(self) -> None:
        for watch in list(self.watches):
            await watch.close()
