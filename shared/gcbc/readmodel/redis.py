"""The Redis adapter of the read model: one hash per table (position, every view, the recent
answers per viewer), replaced by one Lua script run (atomic), which refuses a position not newer
than the stored one and then publishes a wake-up on the table's channel.

Waiting: one pub/sub connection per process hears every wake-up (``Wakeups``). A wake-up names
the views that changed; one read serves every waiter of them, and they share the bytes read (and
their SSE frame): a crowd of watchers costs one read and one frame per change, not one per
connection. Pub/sub may drop a message: a waiter only ever loses time (its jittered timeout), as
it always reads the view from Redis before trusting it."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from gcbc.contract.ids import checked
from gcbc.readmodel.pipelined import PipelinedRedis
from gcbc.readmodel.port import (
    ANSWERS_PREFIX,
    LobbyPage,
    ModelStatus,
    ModelUnavailable,
    Put,
    Replacement,
    StoredView,
    TableSnapshot,
)

F = TypeVar("F", bound=Callable[..., Awaitable[Any]])
log = logging.getLogger("gcbc.readmodel")

KEY = "gcbc:views:{table}"
LOBBY = "gcbc:lobby"  # table id -> summary of a table waiting for players
LOBBY_ORDER = "gcbc:lobby:order"  # the same ids, scored by the position they were first listed at
EPOCH = "gcbc:epoch"  # set by the projection: gone means the read model was wiped
STATUS = "gcbc:tables"  # table id -> lobby | playing | finished
COUNTS = "gcbc:tables:count"  # status -> its number of tables
POSITION = "gcbc:position"  # the newest position written
CHANNEL = "gcbc:changed:{table}"
PATTERN = CHANNEL.format(table="*")
PREFIX = CHANNEL.format(table="")
ANSWERS = ANSWERS_PREFIX + "{viewer}"  # a viewer's recent answers, a field of the table's hash

# KEYS[1] = the table's hash, KEYS[2] = the lobby, KEYS[3] = its order, KEYS[4] = the status
# index, KEYS[5] = its counts, KEYS[6] = the newest position; ARGV[1] = position; ARGV[2] =
# channel; ARGV[3] = the wake-up message; ARGV[4] = the table id; ARGV[5] = its lobby summary
# ("": not listed); ARGV[6] = its status ("": as it is); ARGV[7] = when to write: "newer" (put),
# "not older" (replace), "always", or "on <base>" (a put of the views changed since the writer's
# own put at position <base>: written only if that is still what the hash holds, and only over
# those fields); ARGV[8..] = field, value, ... The views, the listing, the index and the wake-up:
# one atomic step.
_PUT = """
local stored = tonumber(redis.call('HGET', KEYS[1], 'position') or '0')
local position = tonumber(ARGV[1])
if ARGV[7] == 'newer' and stored >= position then return 0 end
if ARGV[7] == 'not older' and stored > position then return 0 end
local base = string.match(ARGV[7], '^on (%d+)$')
if base then
  if stored ~= tonumber(base) or stored >= position then return 0 end
else
  redis.call('DEL', KEYS[1])
end
redis.call('HSET', KEYS[1], 'position', ARGV[1], unpack(ARGV, 8))
if ARGV[6] ~= '' then
  local old = redis.call('HGET', KEYS[4], ARGV[4])
  if old ~= ARGV[6] then
    redis.call('HSET', KEYS[4], ARGV[4], ARGV[6])
    if old then redis.call('HINCRBY', KEYS[5], old, -1) end
    redis.call('HINCRBY', KEYS[5], ARGV[6], 1)
  end
end
if position > tonumber(redis.call('GET', KEYS[6]) or '0') then
  redis.call('SET', KEYS[6], ARGV[1])
end
if ARGV[5] == '' then
  redis.call('HDEL', KEYS[2], ARGV[4])
  redis.call('ZREM', KEYS[3], ARGV[4])
else
  redis.call('HSET', KEYS[2], ARGV[4], ARGV[5])
  redis.call('ZADD', KEYS[3], 'NX', position, ARGV[4])
end
redis.call('PUBLISH', ARGV[2], ARGV[3])
return 1
"""


# KEYS as _PUT's; ARGV[1] = the table id: its views, listing and place in the index, gone
_DELETE = """
redis.call('DEL', KEYS[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
local old = redis.call('HGET', KEYS[4], ARGV[1])
if old then
  redis.call('HDEL', KEYS[4], ARGV[1])
  redis.call('HINCRBY', KEYS[5], old, -1)
end
return 1
"""


def _key(table: str) -> str:
    return KEY.format(table=checked(table))  # a wildcard or space could reach other keys


def wake_message(position: int, changed: list[str] | None) -> str:
    """``<position> <viewer,viewer,...>``; ``*``: every viewer may have changed, ``-``: none."""
    if changed is None:
        return f"{position} *"
    return f"{position} {','.join(changed) or '-'}"


def when_of(base: int | None) -> str:
    """The put script's when to write for a ``Put.base``: over a newer position, or only over
    the writer's own put at ``base``."""
    return "newer" if base is None else f"on {int(base)}"


def parse_wake(message: str) -> tuple[int, list[str] | None]:
    position, _, viewers = message.partition(" ")
    if viewers in ("*", ""):
        return int(position), None
    return int(position), [] if viewers == "-" else viewers.split(",")


UNREACHABLE: tuple[type[Exception], ...] = (RedisConnectionError, RedisTimeoutError, OSError)


def _unavailable(method: F) -> F:
    """Connection failures (once the pool's retries are spent) as ModelUnavailable: those of the
    read model's class (``UNREACHABLE``: a cluster's has more)."""

    @functools.wraps(method)
    async def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return await method(self, *args, **kwargs)
        except self.UNREACHABLE as e:
            raise ModelUnavailable(str(e) or type(e).__name__) from None

    return wrapper  # type: ignore[return-value]


def connection_pool(url: str, connections: int = 64) -> aioredis.BlockingConnectionPool:
    """A bounded pool that waits for a free connection (thousands of long-polls share it). A
    connection found dead (a restarted Redis) is retried on a new one, briefly, before an error."""
    return aioredis.BlockingConnectionPool.from_url(
        url,
        max_connections=connections,
        timeout=5,
        decode_responses=False,
        retry=Retry(ExponentialBackoff(cap=0.25, base=0.02), 3),
        retry_on_error=[RedisConnectionError, RedisTimeoutError],
        socket_connect_timeout=2,
        socket_timeout=5,  # a connection gone silent (a partition) fails instead of hanging
        health_check_interval=15,
    )


class Signal:
    """What the next change of one view sets, with the view read for every waiter of it."""

    __slots__ = ("event", "fresh")

    def __init__(self) -> None:
        self.event = asyncio.Event()
        self.fresh: StoredView | None = None


class Wakeups:
    """The wake-ups of this process's waiters, from one pub/sub connection of its own (without
    the pool's read timeout; keep-alive and health checks find a connection gone silent)."""

    KEEP_LATEST = 100_000  # tables whose newest position is remembered before pruning
    KEEP_CHANGES = 10_000  # tables whose views' changes are remembered before pruning
    KEY = KEY  # a table's hash (the prefetch reads its changed views there)

    def __init__(
        self, client: aioredis.Redis, reader: aioredis.Redis, fast: PipelinedRedis | None = None
    ) -> None:
        self.client, self.reader, self.fast = client, reader, fast
        self.ready = asyncio.Event()  # set once subscribed
        self._signals: dict[str, dict[str, Signal]] = {}  # table -> viewer -> its next change
        self._latest: dict[str, int] = {}  # table -> the newest position announced
        # table -> viewer -> the newest position announced to have changed its view, for the
        # tables waited on ("*": every view may have changed there, or before, unheard)
        self._changes: dict[str, dict[str, int]] = {}
        self._moved: dict[str, asyncio.Event] = {}  # table -> set by its next announcement
        self._task: asyncio.Task | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._listen())

    async def stop(self) -> None:
        if self._task:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        await self.client.aclose()

    async def _listen(self) -> None:
        while True:
            pubsub = self.client.pubsub()
            try:
                await pubsub.psubscribe(PATTERN)
                self.ready.set()
                async for msg in pubsub.listen():
                    if msg.get("type") == "pmessage":
                        self._heard(msg["channel"], msg["data"])
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

    def _heard(self, channel: bytes | str, data: bytes | str) -> None:
        if isinstance(channel, bytes):
            channel = channel.decode()
        position, viewers = parse_wake(data.decode() if isinstance(data, bytes) else data)
        self._announced(channel[len(PREFIX) :], position, viewers)

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
            moved.set()  # waiters for a position, whether or not their view changed
        if viewers != []:
            # one read for every waiter of the changed views, then wake them
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
                key = self.KEY.format(table=table)
                try:
                    if self.fast is not None:
                        got = await self.fast.call("HMGET", key, "position", *keys)
                    else:
                        got = await self.reader.hmget(key, ["position", *keys])
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

    def moved(self, table: str) -> asyncio.Event:
        """The event the table's next announced position sets (any view, changed or not)."""
        event = self._moved.get(table)
        if event is None:
            event = self._moved[table] = asyncio.Event()
        return event

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
        wait on it: a change between the read and the wait is not lost."""
        waiting = self._signals.get(table)
        if waiting is None:
            waiting = self._signals[table] = {}
        signal = waiting.get(viewer)
        if signal is None:
            signal = waiting[viewer] = Signal()
        return signal


async def _wait(event: asyncio.Event, timeout: float) -> None:
    if event.is_set():
        return
    # (asyncio.timeout, not wait_for: no task made per wait, for thousands of streams' waits)
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(timeout):
            await event.wait()


class RedisReadModel:
    UNREACHABLE = UNREACHABLE  # what makes a call ModelUnavailable
    KEY = KEY  # a table's hash (a cluster's puts the table id in a hash tag)
    fast: PipelinedRedis | None = None  # (a cluster's calls go through its client)

    def _key(self, table: str) -> str:
        return self.KEY.format(table=checked(table))  # a wildcard or space could reach other keys

    def __init__(
        self,
        client: aioredis.Redis,
        wakeups_client: aioredis.Redis | None = None,
        fast: PipelinedRedis | None = None,
    ) -> None:
        self.redis = client
        # the hot calls (a view's read, a change's write) on one pipelined connection, when
        # given (gcbc.readmodel.pipelined: a fifth of redis-py's CPU per call)
        self.fast = fast
        self._put = client.register_script(_PUT)
        self._delete = client.register_script(_DELETE)
        self.wakeups = Wakeups(wakeups_client or client, client, fast)

    @classmethod
    def connect(cls, url: str, connections: int = 64) -> RedisReadModel:
        """``redis://…``: one Redis; ``redis+cluster://user:pw@host:port,host:port``: a Redis
        Cluster (gcbc.readmodel.rediscluster), the same port on another key layout."""
        if url.startswith("redis+cluster://"):
            from gcbc.readmodel.rediscluster import RedisClusterReadModel

            return RedisClusterReadModel.connect(url, connections)
        listener = aioredis.Redis.from_url(
            url, socket_keepalive=True, health_check_interval=10, socket_connect_timeout=2
        )
        client = aioredis.Redis(connection_pool=connection_pool(url, connections))
        return cls(client, listener, PipelinedRedis(url))

    async def close(self) -> None:
        await self.wakeups.stop()
        if self.fast is not None:
            await self.fast.close()
        await self.redis.aclose()

    async def _hmget(self, key: str, fields: list[str]) -> list[bytes | None]:
        if self.fast is not None:
            return await self.fast.call("HMGET", key, *fields)  # type: ignore[no-any-return]
        return await self.redis.hmget(key, fields)  # type: ignore[no-any-return]

    @_unavailable
    async def put(
        self,
        table: str,
        views: dict[str, bytes],
        position: int,
        changed: list[str] | None = None,
        listing: bytes | None = None,
        answers: dict[str, bytes] | None = None,
        status: str | None = None,
    ) -> bool:
        item = Replacement(table, views, position, listing, answers, status)
        keys, args = self._write(item, "newer", wake_message(position, changed))
        return bool(await self._put(keys=keys, args=args))

    @_unavailable
    async def put_many(self, puts: list[Put]) -> list[bool]:
        """One pipeline (one round trip), each table one script run."""
        calls = [
            self._write(item, when_of(base), wake_message(item.position, changed))
            for item, changed, base in puts
        ]
        return [bool(x) for x in await self._scripts(self._put, calls)]

    # a run refused because Redis lost its scripts (restarted, or SCRIPT FLUSH)
    SCRIPT_RETRIES: tuple[type[Exception], ...] = (NoScriptError,)
    ScriptsRefused: type[Exception] = ResponseError

    def _pipeline(self) -> Any:
        return self.redis.pipeline(transaction=False)

    async def _scripts(self, script: Any, calls: list[tuple[list[str], list[Any]]]) -> list[Any]:
        """``script`` run once per (keys, args), pipelined, by its digest: a pipeline given the
        script object itself asks Redis whether it has it first (SCRIPT EXISTS), a round trip
        per pipeline. A server that lost its scripts gets them again, and only the runs it
        refused are sent again (each is idempotent); so is a run caught by a failover."""
        results: list[Any] = [None] * len(calls)
        todo = list(range(len(calls)))
        for attempt in range(5):
            answers = await self._evalshas(script.sha, [calls[i] for i in todo])
            again = []
            for i, answer in zip(todo, answers, strict=True):
                if isinstance(answer, self.SCRIPT_RETRIES):
                    again.append(i)
                elif isinstance(answer, Exception):
                    raise answer
                else:
                    results[i] = answer
            if not again:
                return results
            if attempt == 4:
                raise self.ScriptsRefused(f"{len(again)} script runs refused five times")
            await self.redis.script_load(script.script)  # (on every primary of a cluster)
            await asyncio.sleep(0.05 * attempt)
            todo = again
        return results

    async def _evalshas(self, sha: str, calls: list[tuple[list[str], list[Any]]]) -> list[Any]:
        """Each (keys, args) a run of the script ``sha``, all sent at once: the replies, a
        refusal as its exception."""
        if not calls:
            return []
        if self.fast is not None:
            return await self.fast.calls(
                [("EVALSHA", sha, len(keys), *keys, *args) for keys, args in calls]
            )
        pipe = self._pipeline()
        for keys, args in calls:
            # (the method is blocked in cluster pipelines; the command is routed by its key)
            pipe.execute_command("EVALSHA", sha, len(keys), *keys, *args)
        return await pipe.execute(raise_on_error=False)  # type: ignore[no-any-return]

    def _write(
        self, item: Replacement, when: str, message: str
    ) -> tuple[list[str], list[bytes | str | int]]:
        table = item.table
        args: list[bytes | str | int] = [
            item.position,
            CHANNEL.format(table=checked(table)),
            message,
            table,
            item.listing or b"",
            item.status or "",
            when,
        ]
        for viewer, data in item.views.items():
            args += [viewer, data]
        for viewer, data in (item.answers or {}).items():
            args += [ANSWERS.format(viewer=viewer), data]
        return [_key(table), LOBBY, LOBBY_ORDER, STATUS, COUNTS, POSITION], args

    @_unavailable
    async def replace(self, items: list[Replacement], force: bool = False) -> list[bool]:
        """One pipeline for the batch (one round trip), each table one script run."""
        if not items:
            return []
        when = "always" if force else "not older"
        calls = [self._write(item, when, wake_message(item.position, None)) for item in items]
        return [bool(x) for x in await self._scripts(self._put, calls)]

    @_unavailable
    async def snapshots(self, tables: list[str]) -> list[TableSnapshot | None]:
        if not tables:
            return []
        pipe = self.redis.pipeline(transaction=False)
        for table in tables:
            pipe.hgetall(_key(table))
        pipe.hmget(LOBBY, tables)
        pipe.hmget(STATUS, tables)
        *found, listings, statuses = await pipe.execute()
        out: list[TableSnapshot | None] = []
        for fields, listing, status in zip(found, listings, statuses, strict=True):
            if not fields:
                out.append(None)
                continue
            fields = {k.decode() if isinstance(k, bytes) else k: v for k, v in fields.items()}
            position = int(fields.pop("position", b"0"))
            out.append(
                TableSnapshot(position, fields, listing, status.decode() if status else None)
            )
        return out

    async def tables(self) -> AsyncIterator[str]:
        prefix = KEY.format(table="")
        try:
            async for key in self.redis.scan_iter(match=KEY.format(table="*"), count=1000):
                key = key.decode() if isinstance(key, bytes) else key
                yield key[len(prefix) :]
        except (RedisConnectionError, RedisTimeoutError, OSError) as e:
            raise ModelUnavailable(str(e) or type(e).__name__) from None

    @_unavailable
    async def status(self) -> ModelStatus:
        epoch, position, counts = await (
            self.redis.pipeline(transaction=False).get(EPOCH).get(POSITION).hgetall(COUNTS)
        ).execute()
        when = None
        if epoch is not None:
            try:
                when = float(epoch)
            except ValueError:
                when = 0.0  # set before the epoch told its time
        tables = {
            (k.decode() if isinstance(k, bytes) else k): int(v)
            for k, v in counts.items()
            if int(v) > 0
        }
        return ModelStatus(when, int(position or 0), tables)

    @_unavailable
    async def ping(self) -> None:
        await self.redis.ping()

    @_unavailable
    async def get(self, table: str, viewer: str) -> tuple[int, bytes] | None:
        position, data = await self._hmget(self._key(table), ["position", viewer])
        if position is None or data is None:
            return None
        return int(position), data

    @_unavailable
    async def _read(self, table: str, viewer: str) -> StoredView | None:
        fields = ["position", viewer, ANSWERS.format(viewer=viewer)]
        position, data, answers = await self._hmget(self._key(table), fields)
        if position is None or data is None:
            return None
        return StoredView(int(position), data, answers)

    async def wait(
        self,
        table: str,
        viewer: str,
        position: int = 0,
        after: int | None = None,
        timeout: float = 0.0,
        last: StoredView | None = None,
    ) -> StoredView | None:
        checked(table)
        if timeout <= 0:
            # no wait: no waiter is left behind either (the next change of the table would
            # read the view again for it, for nobody)
            return await self._read(table, viewer)
        self.wakeups.start()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        got: StoredView | None = None
        first = True
        while True:
            # waiting for a position (a command's answer): any announcement may be it, even one
            # that left this view as it was; else only a change of this view wakes the waiter
            signal = None if position else self.wakeups.waiter(table, viewer)
            changed = signal.event if signal else self.wakeups.moved(table)
            await self.wakeups.watching(table)
            if got is None and first and timeout and self.wakeups.behind(table, position):
                pass  # a command's answer not announced yet: reading now would not find it
            elif (
                got is None
                and last is not None
                and self.wakeups.quiet(table, last.position, viewer)
            ):
                got = last  # no change of its view announced since the caller's: it is current
            elif got is None:
                got = await self._read(table, viewer)  # (a lost wake-up: read after waiting)
            first = False
            if got is not None and got.position >= position:
                if after is None or got.version > after:
                    return got
            left = deadline - loop.time()
            if left <= 0:
                return got
            # the timeout is a safety net for a lost wake-up; jittered, so thousands of waiters
            # never read Redis together
            await _wait(changed, min(left, random.uniform(8.0, 12.0)))
            # a view read once for this wake-up serves every waiter of it; otherwise Redis
            got = self.wakeups.fresh(table, viewer, signal) if signal and changed.is_set() else None

    @_unavailable
    async def position(self, table: str) -> int:
        position = await self.redis.hget(self._key(table), "position")
        return int(position) if position is not None else 0

    @_unavailable
    async def delete(self, table: str) -> None:
        keys = [_key(table), LOBBY, LOBBY_ORDER, STATUS, COUNTS, POSITION]
        await self._delete(keys=keys, args=[table])

    @_unavailable
    async def open_tables(self, limit: int = 50, after: int = 0) -> LobbyPage:
        found = await self.redis.zrangebyscore(
            LOBBY_ORDER, f"({after}", "+inf", start=0, num=limit + 1, withscores=True
        )
        page = found[:limit]
        if not page:
            return LobbyPage([], None)
        listings = await self.redis.hmget(LOBBY, [table for table, _ in page])
        more = int(page[-1][1]) if len(found) > limit else None
        return LobbyPage([x for x in listings if x is not None], more)

    @_unavailable
    async def claim_epoch(self) -> bool:
        """True if the read model had no epoch mark (new or wiped) and this call set it."""
        return bool(await self.redis.set(EPOCH, str(time.time()).encode(), nx=True))
