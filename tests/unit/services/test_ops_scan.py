"""A pass over the log in worker processes (services.ops.scan): the log lost on the way is raised
as it is (the CLI says so and exits 2, never a worker's traceback), and answers the reader has not
taken hold the reading back, so a slow reader (a rebuild writing to a slow Redis) does not hold
every table's result in memory."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import AsyncIterator

import pytest

from gcbc.eventlog.memory import MemoryEventLog
from gcbc.eventlog.port import LogUnavailable
from services.ops import jobs, scan
from tools import tablelogs

pytestmark = pytest.mark.timeout(120)
SUMMARIZE = functools.partial(jobs.Summarize, now=0.0, lobby_ttl=1800.0)


def _log(tables: int) -> MemoryEventLog:
    log = MemoryEventLog()

    async def fill() -> None:
        for i in range(tables):
            table_id = f"00000000000000{i:02x}"
            await tablelogs.write_table(log, tablelogs.play(table_id, 4, i), table_id)

    asyncio.run(fill())
    return log


def test_the_log_lost_during_a_pass_in_processes_is_raised_as_it_is():
    log = _log(12)
    read = log.scan

    async def lost_on_the_way(after: int = 0, until: int | None = None) -> AsyncIterator[list]:
        async for batch in read(after, until):
            yield batch
            raise LogUnavailable("nats: connection closed")  # as NATS going away would

    log.scan = lost_on_the_way  # type: ignore[method-assign]

    async def go() -> None:
        passed = await scan.Pass(log, SUMMARIZE, workers=2).start()
        assert passed.total_entries > scan.BATCH  # folded in processes
        async for _ in passed.results():
            pass

    with pytest.raises(LogUnavailable):
        asyncio.run(go())


def test_answers_not_taken_hold_the_reading_back(monkeypatch):
    log = _log(12)
    monkeypatch.setattr(scan, "BATCH", 40)  # many small answers: far more than AHEAD each
    held: list[int] = []
    answers = scan._Workers.answers  # noqa: SLF001

    async def counted(self):  # noqa: ANN001, ANN202
        async for answer in answers(self):
            held.append(self.queue.qsize())
            yield answer

    monkeypatch.setattr(scan._Workers, "answers", counted)  # noqa: SLF001

    async def go() -> int:
        passed = await scan.Pass(log, SUMMARIZE, workers=2).start()
        got = 0
        async for _ in passed.results():
            got += 1
            await asyncio.sleep(0.02)  # a slow reader
        return got

    assert asyncio.run(go()) == 12
    assert len(held) > 4 * scan.AHEAD  # the workers answered far more than the pass holds
    assert max(held) <= scan.AHEAD * 2 + 4  # the bound, give or take the answers in flight
