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
        self._events: dict[str, asyncio.Event] = {}
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

    def wake(self, table: str) -> None:
        event = self._events.pop(table, None)
        if event is not None:
            event.set()

    def waiter(self, table: str) -> asyncio.Event:
        """The event the table's next change sets. Take it *before* reading the views, then
        wait on it: a change between the read and the wait is not lost."""
        event = self._events.get(table)
        if event is None:
            event = self._events[table] = asyncio.Event()
        return event

    async def wait(self, table: str, timeout: float, event: asyncio.Event | None = None) -> None:
        event = event or self.waiter(table)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), timeout)
