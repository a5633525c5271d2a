"""tools/launcher.py's supervision: a slot's dead process is started again at once when it ran
fine, and after a doubling back-off while it keeps crashing at start."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools import launcher
from tools.launcher import CRASHED_AT_START, LONGEST_BACKOFF, Stack, restart_delay


def test_the_back_off_starts_at_once_then_doubles_up_to_its_longest():
    assert restart_delay(0) == 0.0  # a process that ran fine: its failover is not slowed
    assert restart_delay(1) == 0.0  # the first crash at start: at once too
    delays = [restart_delay(n) for n in range(2, 9)]
    assert delays[:4] == [0.5, 1.0, 2.0, 4.0]
    assert all(d == LONGEST_BACKOFF for d in delays[4:])


class _Dead:
    def poll(self) -> int:
        return 1


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def stack(monkeypatch, tmp_path: Path):
    clock = _Clock()
    monkeypatch.setattr(launcher.time, "monotonic", clock)
    s = Stack(tmp_path)
    started: list[float] = []

    def start_service(name: str) -> _Dead:  # a process that dies as soon as it starts
        started.append(clock.now)
        s.procs[name] = _Dead()  # type: ignore[assignment]
        s.started[name] = clock.now
        return s.procs[name]  # type: ignore[return-value]

    monkeypatch.setattr(s, "start_service", start_service)
    return s, clock, started


def _supervise_for(s: Stack, clock: _Clock, seconds: float) -> None:
    end = clock.now + seconds
    while clock.now < end:
        s.supervise()
        clock.now += launcher.SUPERVISE_EVERY


def test_a_service_crashing_at_start_is_started_again_less_and_less_often(stack):
    s, clock, started = stack
    s.start_service("rules")
    _supervise_for(s, clock, 10.0)
    gaps = [b - a for a, b in zip(started, started[1:], strict=False)]
    # at once, then 0.5 s doubling: each at the first look (every SUPERVISE_EVERY) past its delay
    for gap, delay in zip(gaps, [0.0, 0.5, 1.0, 2.0, 4.0], strict=False):
        assert delay <= gap <= delay + 2.5 * launcher.SUPERVISE_EVERY
    assert 5 <= len(started) < 10  # not every look (100 starts)


def test_a_process_that_ran_fine_is_started_again_at_once_whatever_came_before(stack):
    s, clock, started = stack
    s.start_service("projection")
    _supervise_for(s, clock, 5.0)  # crashes at start: backing off
    assert s.crashes_at_start["projection"] > 2
    s.due.clear()

    class Running:
        def poll(self) -> None:
            return None

    s.procs["projection"] = Running()  # type: ignore[assignment]
    s.started["projection"] = clock.now
    clock.now += CRASHED_AT_START + 1
    s.supervise()
    s.procs["projection"] = _Dead()  # type: ignore[assignment]  # it dies, after running fine
    before = len(started)
    assert s.supervise() == ["projection"]  # at once
    assert len(started) == before + 1 and s.crashes_at_start["projection"] == 0


def test_the_streams_made_before_compression_are_compressed_before_the_services_start(
    tmp_path: Path,
):
    """The launcher connects as the operator: the tables' and the players' streams made
    uncompressed (an earlier deployment's) are updated, with their entries kept."""
    import asyncio
    from dataclasses import replace

    import nats
    from nats.js import api

    from gcbc.eventlog.jetstream.stream import stream_config
    from gcbc.players.log import STREAM_NAMES as PLAYERS
    from tools import devservers

    server = devservers.start_nats(tmp_path)
    admin = launcher._url_for(server, "admin")
    names = [{}, PLAYERS]

    async def streams(make: bool) -> list[tuple[object, int]]:
        nc = await nats.connect(admin)
        js = nc.jetstream()
        try:
            if make:
                for n in names:
                    config = stream_config(1, **n)
                    await js.add_stream(replace(config, compression=None))
                    await js.publish(config.subjects[0].replace("*", "0"), b"kept")
            got = []
            for n in names:
                info = await js.stream_info(stream_config(1, **n).name)
                got.append((info.config.compression, info.state.messages))
            return got
        finally:
            await nc.close()

    try:
        assert [c for c, _ in asyncio.run(streams(True))] == [api.StoreCompression.NONE] * 2
        launcher.wait_for_jetstream(admin, 1)
        assert asyncio.run(streams(False)) == [(api.StoreCompression.S2, 1)] * 2
    finally:
        server.stop()
