"""A supervised service killed -9 (tools.launcher's slots, as under ``make run``): its slot starts
it again under the same instance name, which takes back its predecessor's partition leases at
once (services.common.partitions), so the next table a player opens is answered within about a
second of the kill, not after the dead one's leases lapse."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import httpx
import pytest

from tests.e2e.conftest import TEST_ENV
from tools import chaos
from tools.launcher import Stack

pytestmark = [pytest.mark.timeout(300), pytest.mark.timed]
# the target is 1 s; the margin is for a loaded 2-core machine (a Python process's start)
PATIENCE = 2.0
TABLES = 50  # started tables the restarted worker finds


@pytest.fixture(scope="module")
def supervised(tmp_path_factory):
    s = Stack(Path(tmp_path_factory.mktemp("failover")), env=TEST_ENV).start()
    try:
        with httpx.Client(base_url=s.api, timeout=30) as http:
            for _ in range(TABLES):
                table_id = http.post("/tables", json={"seats": 4}).json()["table_id"]
                tokens = [
                    http.post(f"/tables/{table_id}/seats", json={"name": f"p{i}"}).json()["token"]
                    for i in range(4)
                ]
                r = http.post(
                    f"/tables/{table_id}/start", headers={"Authorization": f"Bearer {tokens[0]}"}
                )
                assert r.status_code in (200, 202), r.text
        yield s
    finally:
        s.stop()


@pytest.mark.parametrize("service", ["rules", "projection"])
def test_a_supervised_service_killed_9_answers_the_next_table_within_a_second(supervised, service):
    stack = supervised
    before = stack.procs[service].pid

    async def go() -> float:
        assert await chaos.recovery_time(stack.api, time.monotonic()) < PATIENCE  # warm
        await asyncio.sleep(1.0)  # its leases renewed since
        killed = time.monotonic()
        await chaos.FAULTS[f"supervised kill -9 {service}"](stack)
        return await chaos.recovery_time(stack.api, killed, patience=30)

    took = asyncio.run(go())
    print(f"supervised kill -9 {service}: the next table answered {took:.2f} s after the kill")
    assert stack.procs[service].pid != before  # started again by the supervision
    assert took < PATIENCE
