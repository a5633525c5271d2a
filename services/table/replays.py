"""Replays and histories of finished tables, made outside the event loop: one worker process
(``services.table.replay_worker``) reads a finished log, folds it once and keeps the recent
tables' states; the event loop only asks and passes the bytes it answers. Reading and folding a
log costs what the log's length costs, which players choose: made there it never holds the
requests of every other client.

The cost is bounded: a log longer than ``max_entries`` is neither replayed nor folded into a
history (409 ``log_too_long``); at most ``queue`` requests wait for the worker (503
``replays_busy`` past that); the worker keeps folded tables up to ``keep_entries`` log entries
in all. What one client may ask (rates) is counted by the caller: ``reading`` is awaited before
the worker reads a log."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Awaitable, Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import msgspec

from gcbc.eventlog.port import LogUnavailable
from gcbc_contract.players import PlayedGame
from services.table import replay_worker as worker
from services.table.problems import ApiError, retry_later

log = logging.getLogger("gcbc.table")

_played = msgspec.json.Decoder(PlayedGame | None)
TOO_LONG_KEPT = 4096  # tables known too long, remembered (a log only grows)


class Replays:
    def __init__(self, setup: worker.Setup, queue: int = 16) -> None:
        self.setup = setup
        self.queue = queue
        self._pool: ProcessPoolExecutor | None = None
        self._asked: set[Future] = set()  # sent to the worker, not answered yet
        self.kept: dict[str, None] = {}  # the tables the worker keeps folded (as it said)
        self._too_long: dict[str, None] = {}  # the tables whose log is too long, oldest first
        self._making: dict[tuple[str, str], asyncio.Future[worker.Answer]] = {}

    def start(self) -> None:
        """Start the worker now (spawned: a fresh interpreter, with none of this process's
        threads and connections), so no client waits for it."""
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=worker.main,
                initargs=(self.setup,),
            )
            self._pool.submit(worker.ready)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
        self.kept.clear()

    async def step(
        self, table_id: str, step: int, seat: int | None, reading: Callable[[], Awaitable[None]]
    ) -> bytes:
        """A replay step's JSON (``ReplayStep``)."""
        why = "a replay is public once the game is over"
        if table_id in self.kept:
            got = await self._ask(worker.replay_step, table_id, step, seat, False)
            if got.problem != worker.UNKEPT:
                return self._body(table_id, got, why)
        await self._reading(table_id, reading)
        got = await self._ask(worker.replay_step, table_id, step, seat, True)
        return self._body(table_id, got, why)

    async def history(self, table_id: str, reading: Callable[[], Awaitable[None]]) -> bytes:
        """A history's JSON (``History``)."""
        await self._reading(table_id, reading)
        got = await self._once(worker.history, table_id)
        return self._body(table_id, got, "the history is public once the game is over")

    async def game(self, table_id: str) -> PlayedGame | None:
        """The finished table as its players' histories list it (None: no game to list: closed
        before it began, not finished, or a log too long to fold)."""
        got = await self._once(worker.game, table_id)
        if got.problem == worker.LOG_UNAVAILABLE:
            raise LogUnavailable(got.problem)
        return None if got.problem is not None else _played.decode(got.body)

    async def _once(self, call: Callable[[str], worker.Answer], table_id: str) -> worker.Answer:
        """``call`` of the table asked of the worker once for every request that wants it
        meanwhile (the exports of one game's players, started together, take one place in the
        worker's queue, not one each); a request that goes away leaves it to the others."""
        key = (call.__name__, table_id)
        asked = self._making.get(key)
        if asked is None:
            asked = self._making[key] = asyncio.ensure_future(self._ask(call, table_id))
            asked.add_done_callback(lambda _: self._making.pop(key, None))
        return await asyncio.shield(asked)

    async def _reading(self, table_id: str, reading: Callable[[], Awaitable[None]]) -> None:
        if table_id in self._too_long:
            raise self._too_long_problem()
        await reading()

    def _too_long_problem(self) -> ApiError:
        return ApiError(
            409,
            "log_too_long",
            f"this table's log has more than {self.setup.max_entries} entries, the most a replay"
            " or history is made of",
        )

    async def _ask(self, call: Callable[..., worker.Answer], *args: Any) -> worker.Answer:
        """The worker's answer; 503 when too many requests wait for it already, or when it
        stopped (a new one starts at the next request)."""
        self._asked = {f for f in self._asked if not f.done()}
        if len(self._asked) >= self.queue:
            raise retry_later(
                "replays_busy", "too many replays and histories are being made: retry"
            )
        self.start()
        pool = self._pool
        assert pool is not None
        try:
            future = pool.submit(call, *args)
            self._asked.add(future)
            return await asyncio.wrap_future(future)
        except BrokenProcessPool:
            if self._pool is pool:  # (not a new one, started meanwhile by another request)
                log.error("the replay worker stopped: a new one starts")
                self.close()
            raise retry_later("replays_busy", "the replay worker stopped: retry") from None

    def _body(self, table_id: str, got: worker.Answer, not_finished: str) -> bytes:
        for dropped in got.dropped:
            self.kept.pop(dropped, None)
        if got.kept:
            self.kept[table_id] = None
        if got.problem is None:
            return got.body
        if got.problem == worker.TOO_LONG:
            if len(self._too_long) >= TOO_LONG_KEPT:
                del self._too_long[next(iter(self._too_long))]
            self._too_long[table_id] = None
            raise self._too_long_problem()
        if got.problem == worker.NO_TABLE:
            raise ApiError(404, "no_table", f"there is no table {table_id}")
        if got.problem == worker.NOT_FINISHED:
            raise ApiError(409, "not_finished_yet", not_finished)
        if got.problem == worker.NO_SUCH_SEAT:
            raise ApiError(400, "invalid_parameter", "seat is not a seat of this table", "seat")
        raise LogUnavailable(got.problem)
