"""The adapters when their server goes away (DESIGN property 7: answers stay true): each on a
server of its own, stopped and started again."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from gcbc import devservers
from gcbc.eventlog.jetstream import JetStreamEventLog
from gcbc.eventlog.port import LogUnavailable
from gcbc.readmodel.port import ModelUnavailable
from gcbc.readmodel.redis import RedisReadModel

TABLE = "0123456789abcdef"


def test_an_append_with_nats_away_fails_at_once_and_never_lands_later(tmp_path: Path):
    """An append the log could not take raises LogUnavailable (nothing written); after NATS is
    back, nothing the caller gave up on is sent."""
    server = devservers.start_nats(tmp_path, auth=False)

    async def go() -> None:
        log = await JetStreamEventLog.connect(server.url)
        try:
            first = await log.append(TABLE, b"first", 0)
            server.stop()
            await asyncio.sleep(0.2)
            started = time.monotonic()
            for _ in range(3):
                with pytest.raises(LogUnavailable):
                    await log.append(TABLE, b"given up", first.seq)
            with pytest.raises(LogUnavailable):
                await log.read(TABLE)
            assert time.monotonic() - started < 2  # no hanging on a dead server
            server.restart()
            for _ in range(100):
                if log.nc.is_connected:
                    break
                await asyncio.sleep(0.1)
            await asyncio.sleep(0.5)
            assert [s.data for s in await log.read(TABLE)] == [b"first"]
        finally:
            await log.close()

    try:
        asyncio.run(go())
    finally:
        server.stop()


def test_a_read_with_redis_away_is_unavailable_and_the_pool_recovers(tmp_path: Path):
    """While Redis is away every call raises ModelUnavailable; once it is back, the first call
    succeeds (dead pooled connections are retried, not surfaced)."""
    server = devservers.start_redis(tmp_path)

    async def go() -> None:
        model = RedisReadModel.connect(server.url)
        try:
            assert await model.put(TABLE, {"public": b"v1"}, 3)
            server.stop()
            with pytest.raises(ModelUnavailable):
                await model.get(TABLE, "public")
            with pytest.raises(ModelUnavailable):
                await model.open_tables()
            server.restart()  # empty: no persistence
            assert await model.get(TABLE, "public") is None
            assert await model.put(TABLE, {"public": b"v2"}, 4)
            assert await model.get(TABLE, "public") == (4, b"v2")
        finally:
            await model.close()

    try:
        asyncio.run(go())
    finally:
        server.stop()
