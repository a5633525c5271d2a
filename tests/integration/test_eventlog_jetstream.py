"""The JetStream adapter's own paths. Appends (one inbox, each acknowledgement handed to the
append that waits for it): many at once each get their own answer, and a subject no stream
stores is refused at once as LogUnavailable. A follower (a push consumer of its own) goes on
after the server restarts. Against a real NATS server of its own."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from pathlib import Path

import pytest
from nats.js import api

from gcbc.eventlog.jetstream import JetStreamEventLog
from gcbc.eventlog.jetstream.stream import stream_config, subject
from gcbc.eventlog.port import LogUnavailable, WrongExpectedSequence
from tools import devservers

QUIET = 9.0  # seconds a follower with nothing to read is watched: past its silence limit of 6 s


def test_many_appends_at_once_each_get_their_own_acknowledgement(tmp_path: Path):
    server = devservers.start_nats(tmp_path, auth=False)

    async def go() -> None:
        log = await JetStreamEventLog.connect(server.url, stream="APPENDS", prefix="ap")
        try:
            tables = [f"{i:016x}" for i in range(40)]

            async def table(t: str) -> list[int]:
                seqs, last = [], 0
                for n in range(10):
                    got = await log.append(t, f"{t}:{n}".encode(), last, msg_id=f"{t}:{n}")
                    seqs.append(got.seq)
                    last = got.seq
                return seqs

            seqs = await asyncio.gather(*(table(t) for t in tables))
            flat = [s for one in seqs for s in one]
            assert len(set(flat)) == len(flat) == 400  # each append its own place
            for t, one in zip(tables, seqs, strict=True):
                stored = await log.read(t)
                assert [s.seq for s in stored] == one
                assert [s.data for s in stored] == [f"{t}:{n}".encode() for n in range(10)]
            # a retry is answered with the first one's place; a stale expectation is refused
            again = await log.append(tables[0], b"x", seqs[0][-1], msg_id=f"{tables[0]}:9")
            assert again.duplicate and again.seq == seqs[0][-1]
            with pytest.raises(WrongExpectedSequence):
                await log.append(tables[0], b"late", seqs[0][0])
            assert not log.acks.waiting  # nothing left waiting
        finally:
            await log.close()

    try:
        asyncio.run(go())
    finally:
        server.stop()


@pytest.mark.timed
def test_an_append_that_no_stream_stores_is_refused_at_once(tmp_path: Path):
    server = devservers.start_nats(tmp_path, auth=False)

    async def go() -> None:
        log = await JetStreamEventLog.connect(server.url, stream="GONE", prefix="gone")
        try:
            first = await log.append("00000000000000aa", b"first", 0)
            await log.js.delete_stream("GONE")  # (an operator's mistake)
            started = time.monotonic()
            with pytest.raises(LogUnavailable):
                await log.append("00000000000000aa", b"second", first.seq)
            assert time.monotonic() - started < 2
        finally:
            await log.close()

    try:
        asyncio.run(go())
    finally:
        server.stop()


def test_a_follower_goes_on_after_the_server_restarts(tmp_path: Path):
    """The follower's consumer is gone with the server's restart (an ephemeral one, in memory):
    the follower hears the silence and starts again after the last entry it handed over,
    missing nothing and repeating nothing."""
    server = devservers.start_nats(tmp_path, auth=False)

    async def go() -> None:
        log = await JetStreamEventLog.connect(server.url, stream="FOLLOW", prefix="fo")
        writer = await JetStreamEventLog.connect(server.url, stream="FOLLOW", prefix="fo")
        got: list[bytes] = []

        async def handle(stored) -> None:
            got.append(stored.data)

        follower = await log.follow(handle)
        try:
            t = "00000000000000bb"
            last = 0
            for n in range(3):
                last = (await writer.append(t, b"before %d" % n, last)).seq
            await _until(lambda: len(got) == 3)
            server.stop()
            server.restart()
            for _ in range(100):
                if log.nc.is_connected and writer.nc.is_connected:
                    break
                await asyncio.sleep(0.1)
            for _ in range(100):  # JetStream takes a moment to be back
                try:
                    if len(await writer.read(t)) == 3:
                        break
                except LogUnavailable:
                    pass
                await asyncio.sleep(0.1)
            for n in range(3):
                last = (await writer.append(t, b"after %d" % n, last)).seq
            await _until(lambda: len(got) == 6, 20)
            assert got == [
                b"before 0",
                b"before 1",
                b"before 2",
                b"after 0",
                b"after 1",
                b"after 2",
            ]
        finally:
            await follower.close()
            await log.close()
            await writer.close()

    try:
        asyncio.run(go())
    finally:
        server.stop()


def test_a_follower_with_nothing_to_read_keeps_its_consumer(tmp_path: Path):
    """Its consumer's heartbeats say it is there: a quiet follower keeps its one consumer (it once
    started again at every silence, and its user may delete no consumer it had not named), and
    the server sees no permission violation. As the table service follows the answers."""
    server = devservers.start_nats(tmp_path)

    async def go() -> None:
        admin = await JetStreamEventLog.connect(server.url)
        log = await JetStreamEventLog.connect(server.url_for("table"))
        got: list[bytes] = []

        async def handle(stored) -> None:
            got.append(stored.data)

        follower = await log.follow(handle, only="answers")
        seen: set[str] = set()
        try:
            deadline = time.monotonic() + QUIET
            while time.monotonic() < deadline:  # (the follower's silence is 6 s)
                names = [c.name for c in await admin.js.consumers_info("GCBC_TABLES")]
                assert len(names) == 1, names
                seen.update(names)
                await asyncio.sleep(1)
            assert len(seen) == 1 and next(iter(seen)).startswith("table-"), seen
            await admin.append("00000000000000cc", b"answer", 0, answer=True)
            await _until(lambda: got == [b"answer"])
        finally:
            await follower.close()
            await log.close()
        assert not await admin.js.consumers_info("GCBC_TABLES")  # deleted once closed
        await admin.close()

    try:
        asyncio.run(go())
    finally:
        server.stop()
    assert "Violation" not in server.log.read_text()


async def _until(ready, seconds: float = 5) -> None:
    deadline = time.monotonic() + seconds
    while not ready():
        assert time.monotonic() < deadline, "not in time"
        await asyncio.sleep(0.05)


def test_the_log_is_stored_compressed_and_an_existing_stream_is_made_so(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
):
    """A stream the log makes compresses its full blocks; one made before without compression
    is updated once an operator connects (a service's connection says so and uses it as it is:
    its user may not change streams)."""
    server = devservers.start_nats(tmp_path, auth=False)

    async def compression(log: JetStreamEventLog, stream: str) -> object:
        return (await log.js.stream_info(stream)).config.compression

    async def go() -> None:
        made = await JetStreamEventLog.connect(server.url, stream="MADE", prefix="made")
        try:
            assert await compression(made, "MADE") == api.StoreCompression.S2
            older = replace(stream_config(1, "OLDER", "older"), compression=None)
            await made.js.add_stream(older)
            await made.js.publish(f"{subject('00000000000000aa', 'older')}.c", b"kept")
        finally:
            await made.close()
        service = await JetStreamEventLog.connect(server.url, stream="OLDER", prefix="older")
        try:
            assert await compression(service, "OLDER") in (None, "none")
            assert "an operator updates it" in caplog.text
        finally:
            await service.close()
        operator = await JetStreamEventLog.connect(
            server.url, stream="OLDER", prefix="older", configure=True
        )
        try:
            assert await compression(operator, "OLDER") == api.StoreCompression.S2
            assert [s.data for s in await operator.read("00000000000000aa")] == [b"kept"]
        finally:
            await operator.close()

    try:
        asyncio.run(go())
    finally:
        server.stop()
