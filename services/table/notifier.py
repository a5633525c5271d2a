"""Wake-ups when a table's views change: one Redis pub/sub connection for the process. A missed
signal only costs a waiter its timeout, since waiters always re-read the views from Redis.

One change is read once and sent as the same bytes to every watcher of that view: the prefetch
reads the changed views for all their waiters and hangs each on the waiters' signal, with its
Server-Sent Events frame built on first use (DESIGN property 7: a crowd of watchers costs one
read and one frame per change, not one per connection)."""

from __future__ import annotations

import asyncio
import contextlib
import logging

import redis.asyncio as aioredis

from gcbc.readmodel.redis import CHANNEL, KEY, parse_wake

log = logging.getLogger("gcbc.table")
PATTERN = CHANNEL.format(table="*")
PREFIX = CHANNEL.format(table="")


class Fresh:
    """A view as read once (position, bytes), and its SSE frame, built once when first asked."""

    __slots__ = ("position", "data", "_frame")

    def __init__(self, position: int, data: bytes) -> None:
        self.position, self.data = position, data
        self._frame: bytes | None = None

    def frame(self) -> bytes:
        if self._frame is None:
            # a view is one line of JSON: the event is written as is, no re-encoding
            self._frame = b"data: " + self.data + b"\r\n\r\n"
        return self._frame


class Signal:
    """What the next change of one view sets, with the view read for every waiter of it."""

    __slots__ = ("event", "fresh")

    def __init__(self) -> None:
        self.event = asyncio.Event()
        self.fresh: Fresh | None = None


class Notifier:
    KEEP_LATEST = 100_000  # tables whose newest position is remembered before pruning

    def __init__(self, client: aioredis.Redis) -> None:
        self.redis = client
        self.ready = asyncio.Event()  # set once the wake-ups are subscribed
        self._signals: dict[str, dict[str, Signal]] = {}  # table -> viewer -> its next change
        self._latest: dict[str, int] = {}  # table -> the newest position announced
        self._moved: dict[str, asyncio.Event] = {}  # table -> set by its next announcement
        self._task: asyncio.Task | None = None

    @classmethod
    def connect(cls, url: str) -> Notifier:
        """A client of its own: a subscription waits without a read timeout (the read model's
        pool has one), and TCP keep-alive and health checks find a connection gone silent."""
        return cls(
            aioredis.Redis.from_url(
                url, socket_keepalive=True, health_check_interval=10, socket_connect_timeout=2
            )
        )

    async def start(self) -> None:
        self._task = asyncio.create_task(self._listen())

    async def stop(self) -> None:
        if self._task:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self.redis.aclose()

    async def _listen(self) -> None:
        while True:
            pubsub = self.redis.pubsub()
            try:
                await pubsub.psubscribe(PATTERN)
                self.ready.set()
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
                        if len(self._latest) > self.KEEP_LATEST:
                            self._prune()
                    moved = self._moved.pop(table, None)
                    if moved is not None:
                        moved.set()  # waiters for a position, whether or not their view changed
                    if viewers != []:
                        # one read for every waiter of the changed views, then wake them
                        asyncio.create_task(self._prefetch(table, viewers))
            except asyncio.CancelledError:
                raise
            except Exception as e:  # noqa: BLE001
                self.ready.clear()
                log.warning("notifier reconnecting: %s", e)
                for table in list(self._signals):
                    self.wake(table)  # waiters re-read rather than miss a change
                await asyncio.sleep(0.2)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # its connection goes back to the pool

    async def _prefetch(self, table: str, viewers: list[str] | None) -> None:
        waiting = self._signals.get(table)
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
                            signal = waiting.get(key)
                            if data is not None and signal is not None:
                                signal.fresh = Fresh(stored, data)
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

    def fresh(self, table: str, signal: Signal) -> Fresh | None:
        """The view the prefetch read for a woken signal, if no newer change was announced."""
        got = signal.fresh
        if got is not None and got.position >= self._latest.get(table, 0):
            return got
        return None

    def wake(self, table: str, viewers: list[str] | None = None) -> None:
        """Wake the table's waiters: those of ``viewers`` (None: all of them)."""
        waiting = self._signals.get(table)
        if not waiting:
            return
        if viewers is None:
            del self._signals[table]
            for signal in waiting.values():
                signal.event.set()
        else:
            for viewer in viewers:
                signal = waiting.pop(viewer, None)
                if signal is not None:
                    signal.event.set()
            if waiting:
                return
            del self._signals[table]

    def _prune(self) -> None:
        """Forget the newest positions of tables nobody waits on (a waiter re-reads Redis)."""
        self._latest = {t: p for t, p in self._latest.items() if t in self._signals}

    def waiter(self, table: str, viewer: str) -> Signal:
        """The signal the next change of this view sets. Take it *before* reading the view, then
        wait on it: a change between the read and the wait is not lost."""
        waiting = self._signals.get(table)
        if waiting is None:
            waiting = self._signals[table] = {}
        signal = waiting.get(viewer)
        if signal is None:
            signal = waiting[viewer] = Signal()
        return signal

    async def wait(self, event: asyncio.Event, timeout: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), timeout)
