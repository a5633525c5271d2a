"""What the Redis adapters of the read model share, whatever their key layout (one Redis:
``redis``; a Redis Cluster: ``rediscluster``): failures as ModelUnavailable, the put script run
pipelined by its digest for a batch of puts or replacements, and reading (a view, a snapshot, the
tables held) and waiting for a viewer's view (``RedisViews``)."""

from __future__ import annotations

import asyncio
import functools
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar

import redis.asyncio as aioredis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from gcbc.readmodel.pipelined import PipelinedRedis
from gcbc.readmodel.port import (
    ROSTER,
    ModelStatus,
    ModelUnavailable,
    Put,
    Replacement,
    StoredView,
    TableSnapshot,
    ViewWriter,
    answers_field,
)
from gcbc.readmodel.wakeups import Wakeups, until_set, wake_message
from gcbc_contract.ids import checked

F = TypeVar("F", bound=Callable[..., Awaitable[Any]])
UNREACHABLE: tuple[type[Exception], ...] = (RedisConnectionError, RedisTimeoutError, OSError)


def text(value: bytes | str | None) -> str:
    if value is None:
        return ""
    return value.decode() if isinstance(value, bytes) else value


def when_of(base: int | None) -> str:
    """The put script's when to write for a ``Put.base``: over a newer position, or only over
    the writer's own put at ``base``."""
    return "newer" if base is None else f"on {int(base)}"


def view_fields(views: dict[str, bytes], answers: dict[str, bytes] | None) -> list[Any]:
    """A table's views and each viewer's answers as the put script's field, value, ... ."""
    fields: list[Any] = []
    for viewer, data in views.items():
        fields += [viewer, data]
    for viewer, data in (answers or {}).items():
        fields += [answers_field(viewer), data]
    return fields


def unavailable(method: F) -> F:
    """Connection failures (once the pool's retries are spent) as ModelUnavailable: those of the
    read model's class (``UNREACHABLE``: a cluster's has more)."""

    @functools.wraps(method)
    async def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return await method(self, *args, **kwargs)
        except self.UNREACHABLE as e:
            raise ModelUnavailable(str(e) or type(e).__name__) from None

    return wrapper  # type: ignore[return-value]


class RedisViews(ViewWriter):
    """The reading, the waiting and the put script's runs of a Redis read model; a subclass
    gives its key layout (``KEY``, ``INDEXED``), ``redis`` (its client), ``wakeups``, ``_put``
    (the put script) and ``_write_tables`` (its runs for a batch)."""

    UNREACHABLE = UNREACHABLE  # what makes a call ModelUnavailable
    KEY: str  # a table's hash, ``{table}`` in it
    SEATED: str  # a finished table's seated record, ``{table}`` in it
    finished_ttl: float | None = None  # seconds a finished table's hash is kept (None: for good)
    # a table's listing and status: in its hash (a cluster's), or by field, in these hashes by
    # table id
    INDEXED: dict[str, str] = {}
    # a run refused because Redis lost its scripts (restarted, or SCRIPT FLUSH)
    SCRIPT_RETRIES: tuple[type[Exception], ...] = (NoScriptError,)
    ScriptsRefused: type[Exception] = ResponseError
    redis: aioredis.Redis
    wakeups: Wakeups
    fast: PipelinedRedis | None = None  # (a cluster's calls go through its client)

    def _key(self, table: str) -> str:
        return self.KEY.format(table=checked(table))  # a wildcard or space could reach other keys

    def _seated_key(self, table: str) -> str:
        return self.SEATED.format(table=checked(table))

    def _kept(self, item: Replacement) -> list[str | bytes]:
        """The put script's milliseconds the table's hash is kept ("0": for good: a table not
        finished, or one whose seated record is not written with it, which then could never be
        told from a table never projected) and its seated record ("": none)."""
        armed = item.status == "finished" and item.seated is not None and self.finished_ttl
        ms = str(max(1, int(self.finished_ttl * 1000))) if armed and self.finished_ttl else "0"
        return [ms, item.seated or b""]

    async def close(self) -> None:
        await self.wakeups.stop()
        if self.fast is not None:
            await self.fast.close()
        await self.redis.aclose()

    async def _fields(self, table: str, fields: list[str]) -> list[bytes | None]:
        key = self._key(table)
        if self.fast is not None:
            return await self.fast.call("HMGET", key, *fields)  # type: ignore[no-any-return]
        return await self.redis.hmget(key, fields)  # type: ignore[no-any-return]

    async def _write_tables(self, writes: list[tuple[Replacement, str, str]]) -> list[bool]:
        """Each (table, when to write it, its wake-up message) one put script run, the batch
        sent at once: written or not, per table."""
        raise NotImplementedError

    @unavailable
    async def put_many(self, puts: list[Put]) -> list[bool]:
        if not puts:
            return []
        return await self._write_tables(
            [
                (item, when_of(base), wake_message(item.position, changed))
                for item, changed, base in puts
            ]
        )

    @unavailable
    async def replace(self, items: list[Replacement], force: bool = False) -> list[bool]:
        if not items:
            return []
        when = "always" if force else "not older"
        return await self._write_tables(
            [(item, when, wake_message(item.position, None)) for item in items]
        )

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

    @staticmethod
    def _status(marks: list[Any], position: Any, counts: dict[Any, Any]) -> ModelStatus:
        """The status from what the keys hold: the epoch (the newest of its marks; None: a mark is
        missing; 0.0: set before the epoch told its time), the newest position, each status's
        tables."""
        when = None
        if marks and all(mark is not None for mark in marks):
            try:
                when = max(float(mark) for mark in marks)
            except ValueError:
                when = 0.0
        tables = {text(k): int(v) for k, v in counts.items() if int(v) > 0}
        return ModelStatus(when, int(position or 0), tables)

    @unavailable
    async def snapshots(self, tables: list[str]) -> list[TableSnapshot | None]:
        if not tables:
            return []
        pipe = self._pipeline()
        for table in tables:
            pipe.hgetall(self._key(table))
        for index in self.INDEXED.values():
            pipe.hmget(index, tables)
        found = await pipe.execute()
        indexed = list(zip(self.INDEXED, found[len(tables) :], strict=True))
        out: list[TableSnapshot | None] = []
        for i, held in enumerate(found[: len(tables)]):
            if not held:
                out.append(None)
                continue
            fields = {text(k): v for k, v in held.items()} | {f: got[i] for f, got in indexed}
            position = int(fields.pop("position", b"0"))
            listing, status = fields.pop("listing", None), fields.pop("status", None)
            fields.pop("listed", None)  # (a cluster's: the position it was first listed at)
            out.append(TableSnapshot(position, fields, listing, text(status) or None))
        return out

    def _scans(self) -> list[dict[str, Any]]:
        """A SCAN's targets (one Redis: itself; a cluster: each primary node)."""
        return [{}]

    async def tables(self) -> AsyncIterator[str]:
        head, _, tail = self.KEY.format(table="\n").partition("\n")
        try:
            for target in self._scans():
                match = self.KEY.format(table="*")
                async for key in self.redis.scan_iter(match=match, count=1000, **target):
                    yield text(key).removeprefix(head).removesuffix(tail)
        except self.UNREACHABLE as e:
            raise ModelUnavailable(str(e) or type(e).__name__) from None

    @unavailable
    async def ping(self) -> None:
        await self.redis.ping()

    @unavailable
    async def get(self, table: str, viewer: str) -> tuple[int, bytes] | None:
        position, data = await self._fields(table, ["position", viewer])
        if position is None or data is None:
            return None
        return int(position), data

    @unavailable
    async def seated(self, tables: list[str]) -> list[bytes | None]:
        return await self._each(tables, lambda pipe, table: pipe.get(self._seated_key(table)))

    @unavailable
    async def rosters(self, tables: list[str]) -> list[bytes | None]:
        return await self._each(tables, lambda pipe, table: pipe.hget(self._key(table), ROSTER))

    async def _each(self, tables: list[str], read: Callable[[Any, str], Any]) -> list[Any]:
        """``read`` of each table, in one pipeline (one round trip)."""
        if not tables:
            return []
        pipe = self._pipeline()
        for table in tables:
            read(pipe, table)
        return await pipe.execute()  # type: ignore[no-any-return]

    @unavailable
    async def _read(self, table: str, viewer: str) -> tuple[bool, StoredView | None]:
        """Whether the table's hash is there, and the viewer's view in it."""
        fields = ["position", viewer, answers_field(viewer)]
        position, data, answers = await self._fields(table, fields)
        if position is None or data is None:
            return position is not None, None
        return True, StoredView(int(position), data, answers)

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
            return (await self._read(table, viewer))[1]
        self.wakeups.start()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        got: StoredView | None = None
        first = True
        had_view = last is not None
        while True:
            # waiting for a position (a command's answer): any announcement may be it, even one
            # that left this view as it was; else only a change of this view wakes the waiter
            watched = None if position else viewer
            signal = self.wakeups.waiter(table, viewer) if watched else self.wakeups.moved(table)
            try:
                await self.wakeups.watching(table)
                if got is None and first and timeout and self.wakeups.behind(table, position):
                    pass  # a command's answer not announced yet: reading now would not find it
                elif (
                    got is None
                    and last is not None
                    and self.wakeups.quiet(table, last.position, viewer)
                ):
                    got = last  # no change of its view announced since the caller's: current
                elif got is None:
                    # (a lost wake-up: read after waiting)
                    held, got = await self._read(table, viewer)
                    if got is None and held and had_view:
                        return None  # the table is there without the view: its seat was left
                    if got is None and first and (await self.seated([table]))[0] is not None:
                        return None  # finished, its views expired: nothing will change them
                had_view = had_view or got is not None
                first = False
                if got is not None and got.position >= position:
                    if after is None or got.version > after:
                        return got
                left = deadline - loop.time()
                if left <= 0:
                    return got
                # the timeout is a safety net for a lost wake-up; jittered, so thousands of
                # waiters never read Redis together
                await until_set(signal.event, min(left, random.uniform(8.0, 12.0)))
                # a view read once for this wake-up serves every waiter of it; otherwise Redis
                woken = watched and signal.event.is_set()
                got = self.wakeups.fresh(table, viewer, signal) if woken else None
            finally:
                self.wakeups.done(table, watched, signal)

    @unavailable
    async def position(self, table: str) -> int:
        position = await self.redis.hget(self._key(table), "position")
        return int(position) if position is not None else 0
