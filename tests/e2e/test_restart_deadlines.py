"""Deadlines across a rules-worker restart, on a system of its own: a wait
whose time runs out while no worker runs is timed out by the restarted worker, which learns of it
from the deadline index (it reads the index, not every table)."""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest

from gcbc.eventlog.jetstream import JetStreamEventLog
from gcbc_contract.entries import CommandEntry, OutcomeEntry, decode_entry
from tests.e2e.conftest import TEST_ENV
from tools.launcher import Stack

ARRANGE = 3.0  # seconds the seats have to arrange their cards


@pytest.fixture
def own_stack(tmp_path):
    s = Stack(tmp_path, env=TEST_ENV).start()
    yield s
    s.stop()


async def _deadline_passed(nats_url: str, table_id: str) -> tuple[float, bool] | None:
    """When the table's first ``deadline passed`` was stored, and whether it was answered."""
    log = await JetStreamEventLog.connect(nats_url)
    try:
        stored = await log.read(table_id)
    finally:
        await log.close()
    for i, s in enumerate(stored):
        entry = decode_entry(s.data)
        if isinstance(entry, CommandEntry) and type(entry.command).__name__ == "DeadlinePassed":
            answered = any(
                isinstance(e, OutcomeEntry) and e.answers == s.seq
                for e in (decode_entry(x.data) for x in stored[i + 1 :])
            )
            return s.at, answered
    return None


def test_a_deadline_pending_across_a_rules_worker_restart_fires(own_stack):
    stack = own_stack
    with httpx.Client(base_url=stack.api, timeout=30) as http:
        for _ in range(5):  # other tables, waiting in their lobbies: in the index too
            assert http.post("/tables", json={"seats": 4}).status_code in (200, 201)
        body = {"seats": 4, "deadlines": {"arrange": ARRANGE}}
        created = http.post("/tables", json=body)
        assert created.status_code in (200, 201), created.text
        table_id = created.json()["table_id"]
        tokens = [
            http.post(f"/tables/{table_id}/seats", json={"name": f"p{i}"}).json()["token"]
            for i in range(4)
        ]
        headers = {"Authorization": f"Bearer {tokens[0]}"}
        started = http.post(f"/tables/{table_id}/start", headers=headers)
        assert started.status_code == 200, started.text
    time.sleep(1.0)  # the start's entries acknowledged (the index written) ...
    stack.kill("rules")  # ... then the worker dies, the arrangement's wait pending
    time.sleep(ARRANGE + 0.5)  # its time runs out while no worker runs
    assert asyncio.run(_deadline_passed(stack.nats_url, table_id)) is None
    restarted = time.time()
    stack.start_service("rules")
    for _ in range(300):
        fired = asyncio.run(_deadline_passed(stack.nats_url, table_id))
        if fired is not None and fired[1]:
            break
        time.sleep(0.1)
    else:
        raise AssertionError("the deadline did not fire after the restart")
    assert fired[0] >= restarted
    log = (stack.data_dir / "logs" / "rules.log").read_text()
    last_run = log.rsplit("rules worker consuming", 1)[1]
    assert "deadline index read" in last_run  # every pending deadline, from the index ...
    assert "deadline index built" not in last_run  # ... not by folding every table
