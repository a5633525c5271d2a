"""The adapters when their server goes away (DESIGN property 7: answers stay true): each on a
server of its own, stopped and started again."""

from __future__ import annotations

import asyncio
import signal
import time
from pathlib import Path

import pytest

from gcbc.eventlog.jetstream import JetStreamEventLog, forget_unsent
from gcbc.eventlog.port import LogUnavailable, OutcomeUnknown
from gcbc.readmodel.port import ModelUnavailable
from gcbc.readmodel.redis import RedisReadModel
from tools import devservers

pytestmark = pytest.mark.timed
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


def test_an_unacknowledged_append_is_an_unknown_outcome_that_a_retry_settles(tmp_path: Path):
    """The server took the append but never answered in time (here: paused): the caller hears
    OutcomeUnknown, and a retry with the same message id finds it stored once."""
    server = devservers.start_nats(tmp_path, auth=False)

    async def go() -> None:
        log = await JetStreamEventLog.connect(server.url)
        log.append_timeout = 0.5
        try:
            first = await log.append(TABLE, b"first", 0)
            server.proc.send_signal(signal.SIGSTOP)
            await _until_state(server.proc.pid, "T")  # stopped: it takes bytes, answers nothing
            try:
                with pytest.raises(OutcomeUnknown):
                    await log.append(TABLE, b"second", first.seq, msg_id="cmd-2")
            finally:
                server.proc.send_signal(signal.SIGCONT)
            log.append_timeout = 5
            for _ in range(100):  # the server works through what it took while stopped
                stored = await log.read(TABLE)  # a writer that retries re-reads first (the port)
                if len(stored) == 2:
                    break
                await asyncio.sleep(0.05)
            assert [s.data for s in stored] == [b"first", b"second"]  # it had landed
            again = await log.append(TABLE, b"second", stored[-1].seq, msg_id="cmd-2")
            assert again.duplicate and again.seq == stored[-1].seq  # the retry adds nothing
            assert len(await log.read(TABLE)) == 2
        finally:
            await log.close()

    try:
        asyncio.run(go())
    finally:
        server.stop()


async def _until_state(pid: int, state: str) -> None:
    for _ in range(200):
        if Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1].startswith(state):
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"process {pid} never reached state {state}")


def test_what_was_not_written_before_a_disconnect_is_dropped(tmp_path: Path):
    """nats-py would send its unwritten buffer after reconnecting; the disconnect hook drops it
    (and the buffer it reaches into still exists in this nats-py)."""
    server = devservers.start_nats(tmp_path, auth=False)

    async def go() -> None:
        log = await JetStreamEventLog.connect(server.url)
        try:
            nc = log.nc
            nc._pending.append(b"PUB gcbc.table.x 1\r\nx\r\n")  # noqa: SLF001
            nc._pending_data_size += 20  # noqa: SLF001
            forget_unsent(nc)
            assert nc._pending == [] and nc._pending_data_size == 0  # noqa: SLF001
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
