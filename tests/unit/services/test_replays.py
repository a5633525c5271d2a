"""The table service's side of the replay worker (a real worker process): at most so many
requests wait for it, and one that stops is replaced."""

from __future__ import annotations

import asyncio
import os
import time

import pytest

from services.table import replay_worker as worker
from services.table.problems import ApiError
from services.table.replays import Replays


def test_past_the_queue_a_request_is_told_to_retry_and_nothing_waits():
    async def go() -> None:
        replays = Replays(worker.Setup(), queue=2)
        try:
            assert await replays._ask(worker.ready)  # the worker is up
            waiting = [asyncio.ensure_future(replays._ask(time.sleep, 0.5)) for _ in range(2)]
            await asyncio.sleep(0)
            with pytest.raises(ApiError) as refused:
                await replays._ask(worker.ready)
            assert refused.value.status == 503 and refused.value.code == "replays_busy"
            assert refused.value.headers == {"Retry-After": "1"}
            await asyncio.gather(*waiting)
            assert await replays._ask(worker.ready)  # answered again once the queue is gone
        finally:
            replays.close()

    asyncio.run(asyncio.wait_for(go(), 60))


def test_a_worker_that_stops_is_replaced_at_the_next_request():
    async def go() -> None:
        replays = Replays(worker.Setup())
        try:
            replays.kept["0123456789abcdef"] = None
            with pytest.raises(ApiError) as stopped:
                await replays._ask(os._exit, 1)
            assert stopped.value.status == 503 and stopped.value.code == "replays_busy"
            assert not replays.kept  # a new worker keeps nothing yet
            assert await replays._ask(worker.ready)
        finally:
            replays.close()

    asyncio.run(asyncio.wait_for(go(), 60))


class InProcess(Replays):
    """The worker's calls made in this process (no pool)."""

    async def _ask(self, call, *args):
        return call(*args)


def test_a_table_in_play_without_views_tells_nothing_of_its_log():
    """Its views not written (a wiped read model being projected again) and not held here: the
    answer is to try again, never the log's length (the replays would refuse it as too long
    before finding the game not over)."""
    import itertools

    from gcbc.eventlog.memory import MemoryEventLog
    from gcbc.readmodel.memory import MemoryReadModel
    from services.table.service import TableService
    from tools import tablelogs

    async def go() -> None:
        log = MemoryEventLog()
        table = "00c3000000000001"
        played = tablelogs.play(table, 8, 3, miss_rate=0, chat_rate=0, stale_rate=0)
        await tablelogs.write_table(log, itertools.islice(played, 60), table, True)
        stored = await log.read(table)
        setup = worker.Setup(max_entries=50)
        worker.use(setup, lambda t, most: (stored if t == table else [])[:most])
        service = TableService(log, MemoryReadModel(), replays=InProcess(setup))

        async def reading() -> None:
            pass

        for asked in (service.replay(table, 1, None, reading), service.history(table, reading)):
            with pytest.raises(ApiError) as told:
                await asked
            assert (told.value.status, told.value.code) == (503, "views_unavailable")
            assert str(len(stored)) not in told.value.detail

    asyncio.run(go())


def test_a_table_not_held_here_is_known_over_by_its_roster_never_its_views():
    """A replay or history of a table this process does not hold reads the table's roster (a
    hundred bytes) to learn whether its game is over, never its public view (which grows with
    its chat: each replay step would read it again)."""
    from gcbc.eventlog.memory import MemoryEventLog
    from gcbc.readmodel.memory import MemoryReadModel
    from services.table.service import TableService

    class Model(MemoryReadModel):
        status = "playing"

        async def rosters(self, tables):  # noqa: ANN001, ANN202
            return [b'{"status":"%s","players":{}}' % self.status.encode() for _ in tables]

        async def wait(self, *args, **kwargs):  # noqa: ANN002, ANN003, ANN202
            raise AssertionError("a view was read")

    async def go() -> None:
        model = Model()
        service = TableService(MemoryEventLog(), model)
        with pytest.raises(ApiError) as told:
            await service._over("00c3000000000002", "over first")  # noqa: SLF001
        assert (told.value.status, told.value.code) == (409, "not_finished_yet")
        model.status = "finished"
        await service._over("00c3000000000002", "over first")  # noqa: SLF001

    asyncio.run(go())


def test_a_view_is_kept_by_no_cache_on_the_way():
    from services.table import answers

    headers = answers.json(b"{}").headers
    assert headers["Cache-Control"] == "private, no-store"
    assert headers["Vary"] == "Authorization"


def test_a_stopped_workers_last_requests_never_stop_the_new_one():
    """Each request the stopped worker held fails (503); one that fails once a new worker has
    started (another request started it) leaves the new one running."""
    import concurrent.futures
    from concurrent.futures.process import BrokenProcessPool

    class Pool:
        def __init__(self) -> None:
            self.futures: list[concurrent.futures.Future] = []
            self.down = False

        def submit(self, call, *args):
            self.futures.append(concurrent.futures.Future())
            return self.futures[-1]

        def shutdown(self, wait: bool, cancel_futures: bool) -> None:
            self.down = True

    class Fake(Replays):
        def start(self) -> None:
            if self._pool is None:
                self._pool = Pool()

    async def go() -> None:
        replays = Fake(worker.Setup())
        first = [asyncio.ensure_future(replays._ask(worker.ready)) for _ in range(2)]
        await asyncio.sleep(0)
        old = replays._pool
        old.futures[0].set_exception(BrokenProcessPool())
        with pytest.raises(ApiError):
            await first[0]
        assert old.down and replays._pool is None
        later = asyncio.ensure_future(replays._ask(worker.ready))  # starts a new worker
        await asyncio.sleep(0)
        new = replays._pool
        old.futures[1].set_exception(BrokenProcessPool())
        with pytest.raises(ApiError):
            await first[1]
        assert replays._pool is new and not new.down
        new.futures[0].set_result(True)
        assert await later

    asyncio.run(go())


def test_one_games_summaries_asked_together_take_one_place_in_the_queue():
    """A finished game's summary (and a history) asked by many requests at once, as the exports
    of its players started together: the worker is asked once, the queue holds one place, and
    a request that goes away leaves the answer to the others."""

    async def go() -> None:
        asked: list[tuple] = []
        release = asyncio.Event()

        class Counted(Replays):
            async def _ask(self, call, *args):  # type: ignore[no-untyped-def]
                asked.append((call.__name__, *args))
                await release.wait()
                return worker.Answer(problem=worker.NOT_FINISHED)

        replays = Counted(worker.Setup(), queue=2)
        waiting = [asyncio.ensure_future(replays.game("00000000000000aa")) for _ in range(10)]
        other = asyncio.ensure_future(replays.game("00000000000000bb"))
        await asyncio.sleep(0.01)
        waiting[0].cancel()  # a client gone
        await asyncio.sleep(0.01)
        release.set()
        assert await asyncio.gather(*waiting[1:], other) == [None] * 10
        assert sorted(asked) == [("game", "00000000000000aa"), ("game", "00000000000000bb")]
        await replays.game("00000000000000aa")  # done: asked again
        assert len(asked) == 3

    asyncio.run(asyncio.wait_for(go(), 10))
