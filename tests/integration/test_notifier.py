"""Watchers of one view share one read and one frame per change (issue 8, item 4: a crowd of
streams must not multiply the server's memory), against a real Redis."""

from __future__ import annotations

import asyncio

from gcbc.eventlog.memory import MemoryEventLog
from gcbc.readmodel.port import PUBLIC
from gcbc.readmodel.redis import RedisReadModel
from services.table.notifier import Notifier
from services.table.service import TableService

TABLE = "00000000000000aa"


class CountingReads(RedisReadModel):
    reads = 0

    async def get(self, table, viewer):  # noqa: ANN001, ANN201
        got = await super().get(table, viewer)
        self.reads += 1
        return got


def _view(version: int) -> bytes:
    return b'{"version":%d,"table_id":"t"}' % version


def test_every_watcher_of_a_view_gets_the_same_bytes_for_a_change(redis_url):
    async def go() -> None:
        url = redis_url.rsplit("/", 1)[0] + "/14"
        model = CountingReads(RedisReadModel.connect(url).redis)
        await model.redis.flushdb()
        notifier = Notifier.connect(url)
        await notifier.start()
        service = TableService(MemoryEventLog(), model, notifier)
        try:
            await model.put(TABLE, {PUBLIC: _view(1)}, 10)
            await asyncio.wait_for(notifier.ready.wait(), 10)  # the notifier listens
            watchers = [
                asyncio.create_task(service.view_at(TABLE, None, 1, 10.0)) for _ in range(50)
            ]
            while model.reads < 50:  # every watcher has read version 1 and waits for more
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.05)
            await model.put(TABLE, {PUBLIC: _view(2)}, 11, changed=[PUBLIC])
            got = await asyncio.gather(*watchers)
            assert {g.data for g in got} == {_view(2)}
            assert len({id(g) for g in got}) == 1  # one read for all of them
            frames = {id(g.frame()) for g in got}
            assert len(frames) == 1  # one frame, sent to every stream
            assert got[0].frame() == b"data: " + _view(2) + b"\r\n\r\n"
        finally:
            await notifier.stop()
            await model.close()

    asyncio.run(go())
