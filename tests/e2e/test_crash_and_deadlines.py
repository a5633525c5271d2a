"""Crash safety and deadlines, each on a system of its own (own NATS, Redis and services):
kill -9 the rules worker and the projection mid-game and restart them (DESIGN property 4); a
table where a seat never acts still finishes on autopilot, across a worker restart, and its log
replays to the same outcomes (properties 1 and 6)."""

from __future__ import annotations

import asyncio
import time

import httpx
import msgspec
import pytest

from gcbc.eventlog.jetstream import JetStreamEventLog
from gcbc.readmodel.memory import MemoryReadModel
from gcbc.readmodel.port import PUBLIC, seat_key
from gcbc.readmodel.redis import RedisReadModel
from gcbc.rules import RuleViolation, decide, fold, initial_state
from gcbc_contract.entries import CommandEntry, OutcomeEntry, RefusalEntry, decode_entry
from services.common import view_writer
from services.common.settings import LOG_LIMIT
from tests.e2e.conftest import TEST_ENV
from tools.demo import play_table
from tools.launcher import Stack

FAST = {"turn": 0.4, "reaction": 0.3, "prompt": 0.3, "arrange": 0.4}


@pytest.fixture
def own_stack(tmp_path):
    s = Stack(tmp_path, allow_scenarios=True, env=TEST_ENV).start()  # a chosen first seat
    yield s
    s.stop()


async def entries(nats_url: str, table_id: str):
    log = await JetStreamEventLog.connect(nats_url)
    try:
        return [(s.seq, decode_entry(s.data)) for s in await log.read(table_id)]
    finally:
        await log.close()


def check_log_shape(stored) -> None:
    """Every command is answered exactly once, right after it: nothing lost, nothing twice."""
    assert isinstance(stored[0][1], CommandEntry)
    for (seq, entry), (_, answer) in zip(stored[::2], stored[1::2], strict=False):
        assert isinstance(entry, CommandEntry), seq
        assert isinstance(answer, OutcomeEntry | RefusalEntry), seq
        assert answer.answers == seq
    assert len(stored) % 2 == 0, "a command was left unanswered"


def replay(stored) -> list:
    """Decide every recorded command again from the start: the same answers come out."""
    state = initial_state()
    events = []
    for (_, entry), (_, answer) in zip(stored[::2], stored[1::2], strict=True):
        try:
            decided = decide(state, entry.command)
        except RuleViolation as v:
            assert isinstance(answer, RefusalEntry) and answer.code == v.code
            continue
        assert isinstance(answer, OutcomeEntry)
        assert decided == answer.events
        state = fold(decided, state)
        events += decided
    return events


async def _stored(log: JetStreamEventLog, table_id: str) -> list:
    return [(s.seq, decode_entry(s.data)) for s in await log.read(table_id)]


async def views_match_a_rebuild(stack: Stack, table_ids: list[str]) -> None:
    log = await JetStreamEventLog.connect(stack.nats_url)
    live = RedisReadModel.connect(stack.redis_url)
    rebuilt = MemoryReadModel()
    try:
        for t in table_ids:
            await view_writer.rebuild(log, rebuilt, t, LOG_LIMIT)
            if await live.get(t, PUBLIC) is None:
                # a finished table after a wipe: its seated record alone, its views made from the
                # log by the table service when asked for
                assert await live.seated([t]) == await rebuilt.seated([t]) != [None], t
                async with httpx.AsyncClient(base_url=stack.api) as http:
                    shown = (await http.get(f"/tables/{t}")).content
                assert shown == (await rebuilt.get(t, PUBLIC))[1], t
                continue
            seats = len(fold(replay(await _stored(log, t))).seats)
            for key in [PUBLIC, *(seat_key(i) for i in range(seats))]:
                assert await live.get(t, key) == await rebuilt.get(t, key), (t, key)
    finally:
        await log.close()
        await live.close()


def test_killing_the_worker_and_the_projection_mid_game_loses_nothing(own_stack):
    stack = own_stack

    async def chaos():
        await asyncio.sleep(1.5)
        stack.kill("rules")
        stack.kill("projection")
        await asyncio.sleep(1.0)
        stack.start_service("rules")
        stack.start_service("projection")
        await asyncio.sleep(2.0)
        stack.kill("projection")
        stack.start_service("projection")

    async def go():
        games = asyncio.gather(
            *(play_table(stack.api, 4 + i, "random", seed=500 + i) for i in range(4))
        )
        _, table_ids = await asyncio.gather(chaos(), games)
        return table_ids

    table_ids = asyncio.run(go())
    for t in table_ids:
        stored = asyncio.run(entries(stack.nats_url, t))
        check_log_shape(stored)
        state = fold(replay(stored))
        assert state.step == "finished"
    asyncio.run(_settle(stack, table_ids))
    asyncio.run(views_match_a_rebuild(stack, table_ids))


async def _settle(stack: Stack, table_ids: list[str], timeout: float = 30) -> None:
    """Wait until the projection has caught up with the end of each table's log."""
    log = await JetStreamEventLog.connect(stack.nats_url)
    live = RedisReadModel.connect(stack.redis_url)
    try:
        deadline = time.monotonic() + timeout
        for t in table_ids:
            last = (await log.last(t)).seq
            while await live.position(t) < last:
                assert time.monotonic() < deadline, "the projection did not catch up"
                await asyncio.sleep(0.05)
    finally:
        await log.close()
        await live.close()


def test_a_seat_that_never_acts_is_played_by_the_autopilot_and_the_log_replays(own_stack):
    stack = own_stack

    async def restart_worker_meanwhile():
        await asyncio.sleep(2.0)
        stack.kill("rules")  # deadlines are recomputed from the log by the new worker
        await asyncio.sleep(0.5)
        stack.start_service("rules")

    async def go():
        # seat 1 plays first: its turn comes before anyone could end the game or eliminate it
        game = play_table(
            stack.api,
            5,
            "random",
            seed=77,
            idle=lambda seat: seat == 1,
            table_seed=77,
            first_seat=1,
            deadlines=FAST,
        )
        _, table_id = await asyncio.gather(restart_worker_meanwhile(), game)
        return table_id

    table_id = asyncio.run(go())
    stored = asyncio.run(entries(stack.nats_url, table_id))
    check_log_shape(stored)
    events = replay(stored)
    state = fold(events)
    assert state.step == "finished"
    assert any(
        getattr(e, "seat", None) == 1 and type(e).__name__ == "AutopilotActed" for e in events
    )
    assert any(
        type(entry.command).__name__ == "DeadlinePassed"
        for _, entry in stored
        if isinstance(entry, CommandEntry)
    )
    assert msgspec.json.encode(events) == msgspec.json.encode(replay(stored))


def test_two_instances_of_each_worker_decide_nothing_twice(own_stack):
    """DESIGN property 5: several instances of each service at once; optimistic concurrency
    makes a duplicated outcome impossible."""
    stack = own_stack
    stack.start_service("rules#2")
    stack.start_service("projection#2")
    time.sleep(1.0)

    async def go():
        return await asyncio.gather(
            *(play_table(stack.api, 4 + i, "random", seed=900 + i) for i in range(3))
        )

    table_ids = asyncio.run(go())
    for t in table_ids:
        stored = asyncio.run(entries(stack.nats_url, t))
        check_log_shape(stored)
        assert fold(replay(stored)).step == "finished"
    asyncio.run(_settle(stack, table_ids))
    asyncio.run(views_match_a_rebuild(stack, table_ids))


def test_a_redis_restart_loses_no_view(own_stack):
    """DESIGN property 4: Redis restarts empty (no persistence); the projection notices and
    writes every table's views again from the log, without waiting for new entries."""
    stack = own_stack
    table_id = asyncio.run(play_table(stack.api, 4, "random", seed=31))
    stack.servers["redis"].restart()  # same port, same users; no persistence: empty
    with httpx.Client(base_url=stack.api, timeout=10) as http:
        deadline = time.monotonic() + 20
        while True:
            r = http.get(f"/tables/{table_id}")
            if r.status_code == 200 and r.json()["status"] == "finished":
                break
            assert time.monotonic() < deadline, r.text
            time.sleep(0.2)
    asyncio.run(views_match_a_rebuild(stack, [table_id]))


def test_a_retry_while_the_worker_is_down_records_the_command_once(own_stack):
    """docs/api.md: sending the same command_id again records nothing new, even while the first is
    still unanswered (the rules worker is down); the answer comes when the worker is back."""
    stack = own_stack
    with httpx.Client(base_url=stack.api, timeout=30) as http:
        table_id = http.post("/tables", json={"seats": 4}).json()["table_id"]
        tokens = [
            http.post(f"/tables/{table_id}/seats", json={"name": f"p{i}"}).json()["token"]
            for i in range(4)
        ]
        headers = {"Authorization": f"Bearer {tokens[0]}"}
        assert http.post(f"/tables/{table_id}/start", headers=headers).status_code == 200
        stack.kill("rules")
        body = {"type": "arrange", "positions": [1, 2, 3], "command_id": "once"}
        first = http.post(f"/tables/{table_id}/commands", json=body, headers=headers)
        again = http.post(f"/tables/{table_id}/commands", json=body, headers=headers)
        assert first.status_code == 202 and again.status_code == 202
        assert again.json()["position"] == first.json()["position"]
        stack.start_service("rules")
        done = http.post(f"/tables/{table_id}/commands", json=body, headers=headers)
        for _ in range(100):
            if done.status_code == 200:
                break
            time.sleep(0.1)
            done = http.post(f"/tables/{table_id}/commands", json=body, headers=headers)
        assert done.status_code == 200, done.text
    stored = asyncio.run(entries(stack.nats_url, table_id))
    check_log_shape(stored)
    commands = [e for _, e in stored if isinstance(e, CommandEntry) and e.command.command_id]
    assert len(commands) == 1
