"""The read model's batched writes run their script by its digest, in one round trip: no
SCRIPT EXISTS before each pipeline, and a Redis that lost its scripts gets them
again without losing a write. Against a real Redis."""

from __future__ import annotations

import asyncio

from gcbc.readmodel.port import PUBLIC, Put, Replacement
from gcbc.readmodel.redis import RedisReadModel

TABLES = [f"00000000000000{i:02x}" for i in range(0xC0, 0xC4)]


def _view(version: int) -> bytes:
    return b'{"version":%d,"table_id":"t"}' % version


def test_batched_writes_run_by_digest_and_survive_a_script_flush(redis_url):
    async def go() -> None:
        url = redis_url.rsplit("/", 1)[0] + "/13"
        model = RedisReadModel.connect(url)
        await model.redis.flushdb()
        try:
            await model.redis.script_flush()  # as after a restart: the server knows no script
            puts = [Put(Replacement(t, {PUBLIC: _view(1)}, 5), [PUBLIC]) for t in TABLES]
            assert await model.put_many(puts) == [True] * len(TABLES)
            await model.redis.config_resetstat()
            puts = [Put(Replacement(t, {PUBLIC: _view(2)}, 6), [PUBLIC]) for t in TABLES]
            assert await model.put_many(puts) == [True] * len(TABLES)
            stats = await model.redis.info("commandstats")
            assert "cmdstat_script|exists" not in stats and "cmdstat_script" not in stats
            assert stats["cmdstat_evalsha"]["calls"] == len(TABLES)
            for t in TABLES:
                assert await model.get(t, PUBLIC) == (6, _view(2))
            # an older write is refused, as before: the batch says which
            stale = [Put(Replacement(TABLES[0], {PUBLIC: _view(1)}, 5), None)]
            assert await model.put_many(stale) == [False]
            assert await model.put_many([]) == []
        finally:
            await model.close()

    asyncio.run(go())
