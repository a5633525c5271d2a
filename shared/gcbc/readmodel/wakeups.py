"""Wake-ups of a process's waiters on one Redis: the put script publishes ``<position>
<viewers>`` on the table's channel; one pub/sub connection per process hears every table
(``Wakeups``). A wake-up names the views that changed; one read serves every waiter of them, and
they share the bytes read (and their SSE frame): a crowd of watchers costs one read and one frame
per change, not one per connection. Pub/sub may drop a message: a waiter only ever loses time
(its jittered timeout), as it always reads the view from Redis before trusting it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

import redis.asyncio as aioredis

from gcbc.readmodel.port import StoredView

log = logging.getLogger("gcbc.readmodel")

CHANNEL = "gcbc:changed:{table}"
PATTERN = CHANNEL.format(table="*")


def wake_message(position: int, changed: list[str] | None) -> str:
    """``<position> <viewer,viewer,...>``; ``*``: every viewer may have changed, ``-``: none."""
    if changed is None:
        return f"{position} *"
    return f"{position} {','.join(changed) or '-'}"


def parse_wake(message: str) -> tuple[int, list[str] | None]:
    position, _, viewers = message.partition(" ")
    if viewers in ("*", ""):
        return int(position), None
    return int(position), [] if viewers == "-" else viewers.split(",")


# (table, fields) -> the values the table's hash holds in them (None: missing)
Fields = Callable[[str, list[str]], Awaitable[list[bytes | None]]]


class Signal:
    """What the next change of one view (or the table's next position) sets, with the view read
    for every waiter of it, and how many waiters hold it (``done`` lets it go at none)."""

    __slots__ = ("event", "fresh", "users")

    def __init__(self) -> None:
        self.event = asyncio.Event()
        self.fresh: StoredView | None = None
        self.users = 0


class Wakeups:
    """The wake-ups of this process's waiters, from one pub/sub connection of its own (without
    the pool's read timeout; keep-alive and health checks find a connection gone silent)."""

    CHANNEL = CHANNEL  # a table's, ``{table}`` in it
    KEEP_LATEST = 100_000  # tables whose newest position is remembered before pruning
    KEEP_CHANGES = 10_000  # tables whose views' changes are remembered before pruning

    def __init__(self, client: aioredis.Redis, read: Fields) -> None:
        self.client = client
        self.read = read  # a table's fields, as the read model reads them (the prefetch's views)
        self.ready = asyncio.Event()  # set once subscribed
        # what comes before and after the table's id in its channel's name
        self._head, _, self._tail = self.CHANNEL.format(table="\n").partition("\n")
        self._signals: dict[str, dict[str, Signal]] = {}  # table -> viewer -> its next change
        self._latest: dict[str, int] = {}  # table -> the newest position announced
        # table -> viewer -> the newest position announced to have changed its view, for the
        # tables waited on ("*": every view may have changed there, or before, unheard)
        self._changes: dict[str, dict[str, int]] = {}
        self._moved: dict[str, Signal] = {}  # table -> set by its next announcement
        self._task: asyncio.Task | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        await self._release()

    async def _release(self) -> None:
        """The connections let go once the task stopped."""
        await self.client.aclose()

    async def _run(self) -> None:
        """The task ``start`` starts: listening to every table's channel."""
        while True:
            pubsub = self.client.pubsub()
            try:
                await pubsub.psubscribe(PATTERN)
                self.ready.set()
                async for msg in pubsub.listen():
                    if msg.get("type") == "pmessage":
                        self.heard(msg["channel"], msg["data"])
            except asyncio.CancelledError:
                raise
            except Exception as e:  # noqa: BLE001
                self.ready.clear()
                self._latest.clear()  # announcements were missed: nothing is known quiet
                self._changes.clear()
                log.warning("wake-ups reconnecting: %s", e)
                for table in list(self._signals):
                    self.wake(table)  # waiters re-read rather than miss a change
                await asyncio.sleep(0.2)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # its connection goes back

    def heard(self, channel: bytes | str, data: bytes | str) -> None:
        """A wake-up message on a table's channel (``CHANNEL``: this class's layout)."""
        if isinstance(channel, bytes):
            channel = channel.decode()
        position, viewers = parse_wake(data.decode() if isinstance(data, bytes) else data)
        self._announced(
            channel.removeprefix(self._head).removesuffix(self._tail), position, viewers
        )

    def _announced(self, table: str, position: int, viewers: list[str] | None) -> None:
        """A table's wake-up heard (its newest position, the viewers whose views changed)."""
        before = self._latest.get(table)
        if before is None or position > before:
            self._latest[table] = position
            if len(self._latest) > self.KEEP_LATEST:
                # tables nobody waits on: a waiter reads Redis before trusting anything
                self._latest = {t: p for t, p in self._latest.items() if t in self._signals}
        self._note_changes(table, position, viewers, before)
        moved = self._moved.pop(table, None)
        if moved is not None:
            moved.event.set()  # waiters for a position, whether or not their view changed
        if viewers != [] and table in self._signals:
            # one read for every waiter of the changed views, then wake them (a process hears
            # every table's wake-ups: most have nobody waiting here, and cost no task)
            asyncio.create_task(self._prefetch(table, viewers))

    def _note_changes(
        self, table: str, position: int, viewers: list[str] | None, before: int | None
    ) -> None:
        """Which views changed where, kept for the tables waited on only (a few entries each):
        a view read before a later announcement that left it as it was is still current."""
        changes = self._changes.get(table)
        if changes is None:
            if table not in self._signals:
                return  # nobody waits on it: its position alone is kept
            if len(self._changes) >= self.KEEP_CHANGES:
                self._changes = {t: c for t, c in self._changes.items() if t in self._signals}
            # what was announced before is known only as a position: any view may have changed
            # up to it (nothing heard: up to this one)
            changes = self._changes[table] = {"*": position if before is None else before}
        for viewer in ("*",) if viewers is None else viewers:
            if position > changes.get(viewer, 0):
                changes[viewer] = position

    def changed_at(self, table: str, viewer: str) -> int | None:
        """The newest position announced to have changed this view (None: nothing heard of the
        table); without a record per view, the table's newest position."""
        changes = self._changes.get(table)
        if changes is None:
            return self._latest.get(table)
        return max(changes.get(viewer, 0), changes["*"])

    def forget(self, table: str) -> None:
        """What was heard of the table no longer tells anything (announcements went unheard)."""
        self._latest.pop(table, None)
        self._changes.pop(table, None)

    async def _prefetch(self, table: str, viewers: list[str] | None) -> None:
        waiting = self._signals.get(table)
        if waiting:
            keys = list(waiting) if viewers is None else [v for v in viewers if v in waiting]
            if keys:
                try:
                    got = await self.read(table, ["position", *keys])
                except Exception as e:  # noqa: BLE001  (the waiters read Redis themselves)
                    log.warning("prefetch failed: %s", e)
                else:
                    if got[0] is not None:
                        stored = int(got[0])
                        for key, data in zip(keys, got[1:], strict=True):
                            signal = waiting.get(key)
                            if data is not None and signal is not None:
                                signal.fresh = StoredView(stored, data)
        self.wake(table, viewers)

    async def watching(self, table: str) -> None:
        """Returns once this process hears the table's wake-ups (here: always, one pattern
        subscription hears every table; a cluster's sharded ones subscribe per table)."""

    def moved(self, table: str) -> Signal:
        """The signal the table's next announced position sets (any view, changed or not);
        ``done`` with it once the wait is over."""
        signal = self._moved.get(table)
        if signal is None:
            signal = self._moved[table] = Signal()
        signal.users += 1
        return signal

    def behind(self, table: str, position: int) -> bool:
        """Whether the table is known not to have reached ``position`` yet: wake-ups are being
        heard and the newest one heard for it is older (a command just appended: reading its
        answer now would only find the view before it). Unknown tables are never behind."""
        latest = self._latest.get(table)
        return latest is not None and latest < position and self.ready.is_set()

    def quiet(self, table: str, seen: int, viewer: str) -> bool:
        """Whether no change of the viewer's view newer than position ``seen`` was announced,
        as far as wake-ups being heard tell (unknown tables, or wake-ups not heard: not known
        quiet). A change not yet announced wakes a waiter taken now when it is."""
        changed = self.changed_at(table, viewer)
        return changed is not None and changed <= seen and self.ready.is_set()

    def fresh(self, table: str, viewer: str, signal: Signal) -> StoredView | None:
        """The view the prefetch read for a woken signal, if no newer change of it was announced
        (a newer announcement that left this view as it was leaves it current)."""
        got = signal.fresh
        if got is not None and got.position >= (self.changed_at(table, viewer) or 0):
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
            return
        for viewer in viewers:
            signal = waiting.pop(viewer, None)
            if signal is not None:
                signal.event.set()
        if not waiting:
            del self._signals[table]

    def waiter(self, table: str, viewer: str) -> Signal:
        """The signal the next change of this view sets. Take it *before* reading the view, then
        wait on it: a change between the read and the wait is not lost; ``done`` with it after."""
        waiting = self._signals.get(table)
        if waiting is None:
            waiting = self._signals[table] = {}
        signal = waiting.get(viewer)
        if signal is None:
            signal = waiting[viewer] = Signal()
        signal.users += 1
        return signal

    def done(self, table: str, viewer: str | None, signal: Signal) -> None:
        """A waiter is done with ``signal`` (``waiter``'s for ``viewer``, or ``moved``'s: None):
        let go once no waiter holds it, so a wait that found its view at once leaves nothing
        behind (a finished table's next change never comes to take it away)."""
        signal.users -= 1
        if signal.users > 0:
            return
        if viewer is None:
            if self._moved.get(table) is signal:
                del self._moved[table]
            return
        waiting = self._signals.get(table)
        if waiting is not None and waiting.get(viewer) is signal:
            del waiting[viewer]
            if not waiting:
                del self._signals[table]


async def until_set(event: asyncio.Event, timeout: float) -> None:
    if event.is_set():
        return
    # (asyncio.timeout, not wait_for: no task made per wait, for thousands of streams' waits)
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(timeout):
            await event.wait()
