"""The keyed stores' old deletions purged now and then (the rules worker's deadline index)."""

from __future__ import annotations

import asyncio

from gcbc.eventlog.memory import MemoryEventLog
from gcbc.keyvalue.memory import MemoryKeyValue
from services.common import purges
from services.rules import timers
from services.rules.worker import RulesWorker


class Purged(MemoryKeyValue):
    def __init__(self) -> None:
        super().__init__()
        self.purges: list[float] = []

    async def purge_deletes(self, older_than: float) -> int:
        self.purges.append(older_than)
        if len(self.purges) == 1:
            raise TimeoutError("NATS away")  # logged: the next round purges
        return 3


def test_the_deadline_indexs_old_deletions_are_purged_every_round(monkeypatch):
    monkeypatch.setattr(purges, "PURGE_EVERY", 0.05)

    async def go():
        index = Purged()
        worker = RulesWorker(MemoryEventLog(), deadlines=index)
        stop = asyncio.Event()
        task = asyncio.create_task(timers.keep_index(worker, stop))
        for _ in range(200):
            if len(index.purges) >= 3:
                break
            await asyncio.sleep(0.01)
        stop.set()
        await task
        assert len(index.purges) >= 3 and set(index.purges) == {purges.PURGE_AFTER}

    asyncio.run(go())
