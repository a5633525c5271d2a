"""The replay worker's answers: every step of every golden log, as every seat and a spectator,
and every history, byte for byte what the table service answered when it folded logs itself;
what it keeps, and what it refuses."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import msgspec
import pytest

from gcbc.eventlog.memory import MemoryEventLog
from gcbc.eventlog.port import Stored
from gcbc.rules import view
from gcbc_contract.entries import OutcomeEntry, decode_entry
from gcbc_contract.http import ReplayStep, shown_event
from services.common.folded import states
from services.table import replay_worker as worker
from tests.unit.services.test_golden_logs import NAMES, _imported

FINISHED = [n for n in NAMES if not n.startswith("lobby")]


def _logs(*names: str) -> tuple[dict[str, list[Stored]], list[str]]:
    """The golden logs' entries by table id (and the ids, in the names' order)."""
    out: dict[str, list[Stored]] = {}
    ids = []
    for name in names:
        log, _ = _imported(name)

        async def read(log: MemoryEventLog = log) -> dict[str, list[Stored]]:
            return {t: await log.read(t) async for t in log.tables()}

        tables = asyncio.run(read())
        out.update(tables)
        ids += list(tables)
    return out, ids


def _worker(logs: dict[str, list[Stored]], **setup: Any) -> list[int]:
    """The worker reading ``logs``; the list of the most entries each of its reads asked for."""
    asked: list[int] = []

    def read(table_id: str, most: int) -> list[Stored]:
        asked.append(most)
        return logs.get(table_id, [])[:most]

    worker.use(worker.Setup(**setup), read)
    return asked


# --- what the table service answered when it folded logs on its event loop ---------------------
def _steps_before(stored: list[Stored], table_id: str) -> list[Any]:
    kept: list[Any] = []
    for _, t in states(stored, table_id):
        if t.state.table_id and (not kept or t.state is not kept[-1]):
            kept.append(t.state)
    return kept


def _replay_before(kept: list[Any], step: int, seat: int | None) -> bytes:
    step = min(step, len(kept))
    s = kept[step - 1]
    viewer = seat if seat is not None and s.seats and s.seats[seat] is not None else None
    v = view(s, viewer, log_limit=50, chat_limit=50)
    return msgspec.json.encode(ReplayStep(step=step, steps=len(kept), view=v))


def _history_before(stored: list[Stored], table_id: str) -> bytes:
    events: list[Any] = []
    for s in stored:
        entry = decode_entry(s.data)
        if isinstance(entry, OutcomeEntry):
            events += entry.events
    # a deliberate change since: the seed, past what a JavaScript number holds, as a string
    return msgspec.json.encode({"table_id": table_id, "events": [shown_event(e) for e in events]})


@pytest.mark.parametrize("name", FINISHED)
def test_every_step_as_every_viewer_and_the_history_are_answered_as_before(name: str):
    logs, (table_id,) = _logs(name)
    _worker(logs)
    kept = _steps_before(logs[table_id], table_id)
    seats = len(kept[-1].seats)
    first = worker.replay_step(table_id, 1, None, read=True)
    assert first.body == _replay_before(kept, 1, None) and first.kept
    for step in [*range(1, len(kept) + 1), len(kept) + 5]:
        for seat in [None, *range(seats)]:
            got = worker.replay_step(table_id, step, seat, read=False)  # kept: never read again
            assert got.body == _replay_before(kept, step, seat), (step, seat)
    got = worker.history(table_id)
    assert got.body == _history_before(logs[table_id], table_id)


def test_a_seat_not_at_the_table_an_unfinished_table_and_no_table_are_told_apart():
    logs, (finished, lobby) = _logs("fourth_4", "lobby_6")
    _worker(logs)
    assert worker.replay_step(finished, 1, 4, read=True).problem == worker.NO_SUCH_SEAT
    assert worker.replay_step(lobby, 1, None, read=True).problem == worker.NOT_FINISHED
    assert worker.history(lobby).problem == worker.NOT_FINISHED
    assert worker.replay_step("0123456789abcdef", 1, None, read=True).problem == worker.NO_TABLE
    assert worker.replay_step(lobby, 1, None, read=False).problem == worker.UNKEPT  # never kept


def test_the_least_recently_asked_leave_past_the_entries_kept_and_long_logs_are_refused():
    logs, ids = _logs("fourth_4", "classic_5_token", "zombies_6")
    sizes = {t: len(logs[t]) for t in ids}
    first, second, third = ids
    asked = _worker(logs, keep_entries=sizes[first] + sizes[second], max_entries=sizes[third] - 10)
    assert worker.replay_step(first, 1, None, read=True).kept
    assert worker.replay_step(second, 1, None, read=True).dropped == ()
    assert worker.replay_step(first, 2, None, read=False).body  # now the most recent
    got = worker.replay_step(third, 1, None, read=True)
    # one entry past the most is read to know the log is too long, never the whole log
    assert got.problem == worker.TOO_LONG and got.entries == sizes[third] - 9
    assert asked == [sizes[third] - 9] * 3
    # a game's summary keeps no state per step: a log longer than a replay's is listed still
    assert worker.game(third).body and worker.game(third).problem is None
    _worker(logs, max_entries=(sizes[third] - 1) // worker.GAME_FACTOR)
    assert worker.game(third).problem == worker.TOO_LONG
    _worker(logs, keep_entries=sizes[first] + sizes[third])
    worker.replay_step(second, 1, None, read=True)
    worker.replay_step(first, 1, None, read=True)
    got = worker.replay_step(third, 1, None, read=True)
    assert got.kept and got.dropped == (second,)  # the least recent, till the rest fits
    assert worker.replay_step(second, 1, None, read=False).problem == worker.UNKEPT
    assert worker.replay_step(first, 1, None, read=False).body
    _worker(logs, keep_entries=sizes[third] - 1)
    got = worker.replay_step(third, 1, None, read=True)  # alone over the budget: answered only
    assert got.body and not got.kept and got.dropped == (third,)


def test_a_log_of_long_records_weighs_its_bytes_not_its_count():
    """Before: a table's log weighed its entries alone, and a chat-heavy one (500 emoji a message)
    kept 1.3-1.6 KB of live memory an entry, three times the budget's reckoning."""
    short = [Stored(i, "t", b"x" * 200) for i in range(1, 11)]
    long = [Stored(i, "t", b"x" * 2_000) for i in range(1, 11)]
    assert worker.weight(short) == 10
    assert worker.weight(long) == 10 * 2_000 // worker.ENTRY_BYTES == 40
    logs, (table_id,) = _logs("fourth_4")
    assert worker.weight(logs[table_id]) == len(logs[table_id])  # a game's records are short


_SERVICE_DIES_AT_ONCE = """
import multiprocessing, os, time
from services.table import replay_worker

def worker():
    replay_worker.main(replay_worker.Setup(nats_url="nats://127.0.0.1:1"))
    time.sleep(60)

if __name__ == "__main__":
    p = multiprocessing.get_context("spawn").Process(target=worker)
    p.start()
    print(p.pid, flush=True)
    os._exit(0)  # the service killed while its worker is still starting
"""


def test_a_worker_whose_service_died_while_it_started_ends(tmp_path):
    """A table service killed before its worker's start-up ran leaves no worker behind: the
    parent-death signal is set too late to fire, so the worker looks for itself."""
    script = tmp_path / "service.py"
    script.write_text(_SERVICE_DIES_AT_ONCE)
    root = Path(__file__).resolve().parents[3]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), str(root / "shared")])}
    out = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=30
    )
    pid = int(out.stdout.split()[0])
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        with open(f"/proc/{pid}/stat") as f:
            if f.read().split()[2] == "Z":
                return  # ended, not yet reaped by init
        time.sleep(0.2)
    os.kill(pid, 9)
    raise AssertionError("the worker outlived its service")


def test_a_finished_tables_game_is_folded_by_the_worker_as_the_history_lists_it():
    from gcbc_contract.players import PlayedGame
    from services.common.folded import FoldedTable
    from services.table.played import game_of

    logs, (finished, lobby) = _logs("fourth_4", "lobby_6")
    _worker(logs)
    t = FoldedTable(finished)
    for stored in logs[finished]:
        t.apply(stored)
    got = msgspec.json.decode(worker.game(finished).body, type=PlayedGame)
    assert got == game_of(t, logs[finished][-1].at) and got.win_team
    assert worker.game(lobby).problem == worker.NOT_FINISHED
    assert worker.game("0123456789abcdef").problem == worker.NO_TABLE
