"""Wake-ups when a table's views change: one Redis pub/sub connection for the process. A missed
signal only costs a waiter its timeout, since waiters always re-read the views from Redis."""

from __future__ import annotations

import asyncio
import contextlib
import logging

import redis.asyncio as aioredis

from gcbc.readmodel.redis import CHANNEL

log = logging.getLogger("gcbc.table")
PATTERN = CHANNEL.format(table="*")
PREFIX = CHANNEL.format(table="")


class Notifier:
    def __init__(self, client: aioredis.Redis) -> None:
        self.redis = client
        self._events: dict[str, dict[str, asyncio.Event]] = {}  # table -> viewer -> event
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
                    self.wake(channel[len(PREFIX) :])
            except asyncio.CancelledError:
                raise
            except Exception as e:  # noqa: BLE001
                log.warning("notifier reconnecting: %s", e)
                for table in list(self._events):
                    self.wake(table)  # waiters re-read rather than miss a change
                await asyncio.sleep(0.2)

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
