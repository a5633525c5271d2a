"""Wake-ups when a table's views change: one Redis pub/sub connection for the process. A missed
signal only costs a waiter its timeout, since waiters always re-read the views from Redis."""

from __future__ import annotations

import asyncio
import contextlib
import logging

import redis.asyncio as aioredis

from gcbc.readmodel.redis import CHANNEL, KEY, parse_wake

log = logging.getLogger("gcbc.table")
PATTERN = CHANNEL.format(table="*")
PREFIX = CHANNEL.format(table="")


class Notifier:
    def __init__(self, client: aioredis.Redis) -> None:
        self.redis = client
        self._events: dict[str, dict[str, asyncio.Event]] = {}  # table -> viewer -> event
        self._fresh: dict[tuple[str, str], tuple[int, bytes]] = {}  # prefetched views
        self._latest: dict[str, int] = {}  # table -> the newest position announced
        self._moved: dict[str, asyncio.Event] = {}  # table -> set by its next announcement
        self._task: asyncio.Task | None = None

    async def start(self) -> None:
        self._task = asyncio.create_task(self._listen())

    async def stop(self) -> None:
        if self._task:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _listen(self) -> None:
        while True:
            try:
                pubsub = self.redis.pubsub()
                await pubsub.psubscribe(PATTERN)
                async for msg in pubsub.listen():
                    if msg.get("type") != "pmessage":
                        continue
                    channel = msg["channel"]
                    if isinstance(channel, bytes):
                        channel = channel.decode()
                    data = msg["data"]
                    position, viewers = parse_wake(
                        data.decode() if isinstance(data, bytes) else data
                    )
                    table = channel[len(PREFIX) :]
                    if position > self._latest.get(table, 0):
                        self._latest[table] = position
                    moved = self._moved.pop(table, None)
                    if moved is not None:
                        moved.set()  # waiters for a position, whether or not their view changed
                    if viewers != []:
                        # one read for every waiter of the changed views, then wake them
                        asyncio.create_task(self._prefetch(table, position, viewers))
            except asyncio.CancelledError:
                raise
            except Exception as e:  # noqa: BLE001
                log.warning("notifier reconnecting: %s", e)
                for table in list(self._events):
                    self.wake(table)  # waiters re-read rather than miss a change
                await asyncio.sleep(0.2)

    async def _prefetch(self, table: str, position: int, viewers: list[str] | None) -> None:
        waiting = self._events.get(table)
        if waiting:
            keys = list(waiting) if viewers is None else [v for v in viewers if v in waiting]
            if keys:
                try:
                    got = await self.redis.hmget(KEY.format(table=table), ["position", *keys])
                except Exception as e:  # noqa: BLE001  (the waiters read Redis themselves)
                    log.warning("prefetch failed: %s", e)
                else:
                    if got[0] is not None:
                        stored = int(got[0])
                        for key, data in zip(keys, got[1:], strict=True):
                            if data is not None:
                                if len(self._fresh) > 50_000:
                                    self._fresh.clear()
                                self._fresh[(table, key)] = (stored, data)
        self.wake(table, viewers)

    def moved(self, table: str) -> asyncio.Event:
        """The event the table's next announced position sets (any view, changed or not)."""
        event = self._moved.get(table)
        if event is None:
            event = self._moved[table] = asyncio.Event()
        return event

    def latest(self, table: str) -> int:
        """The newest position announced for the table (0: none heard of)."""
        return self._latest.get(table, 0)

    def fresh(self, table: str, viewer: str) -> tuple[int, bytes] | None:
        """A view a prefetch read, if no newer change of the table was announced since."""
        got = self._fresh.get((table, viewer))
        if got is not None and got[0] >= self._latest.get(table, 0):
            return got
        return None

    def wake(self, table: str, viewers: list[str] | None = None) -> None:
        """Wake the table's waiters: those of ``viewers`` (None: all of them)."""
        waiting = self._events.get(table)
        if not waiting:
            return
        if viewers is None:
            del self._events[table]
            for event in waiting.values():
                event.set()
            return
        for viewer in viewers:
            event = waiting.pop(viewer, None)
            if event is not None:
                event.set()
        if not waiting:
            del self._events[table]

    def waiter(self, table: str, viewer: str) -> asyncio.Event:
        """The event the next change of this view sets. Take it *before* reading the view, then
        wait on it: a change between the read and the wait is not lost."""
        waiting = self._events.get(table)
        if waiting is None:
            waiting = self._events[table] = {}
        event = waiting.get(viewer)
        if event is None:
            event = waiting[viewer] = asyncio.Event()
        return event

    async def wait(self, event: asyncio.Event, timeout: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), timeout)
