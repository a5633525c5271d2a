"""The chaos suite's short version (``make chaos`` runs every fault): bot tables
(some with house bots) play through HTTP while a fault strikes; then every table finishes, every
accepted command is in the log once and answered once, the answers decide again the same, live
views equal a rebuild, and no view any player received shows what its seat did not know."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.e2e.audit import check_response, log_events, seat_of
from tests.e2e.conftest import TEST_ENV
from tools import chaos
from tools.launcher import Stack

pytestmark = pytest.mark.timeout(600)


@pytest.fixture(scope="module")
def chaos_stack(tmp_path_factory):
    s = Stack(Path(tmp_path_factory.mktemp("chaos")), env=TEST_ENV).start()
    yield s
    s.stop()


def run(stack: Stack, fault: str, tables: int, seed: int) -> None:
    record = chaos.Record(keep_views=True)
    table_ids, recovered = asyncio.run(chaos.run_fault(stack, fault, tables, seed, record))
    findings = asyncio.run(chaos.check(stack, table_ids, record))
    print(chaos.report_line(fault, findings, recovered))
    assert findings.ok, findings.problems
    assert findings.accepted > 0 and recovered < 30
    events = {t: log_events(stack.nats_url, t) for t in table_ids}
    for t, body in record.views:
        check_response(events[t], seat_of(body), body)


@pytest.mark.parametrize("fault", ["kill -9 nats", "restart redis empty", "kill -9 table"])
def test_tables_come_through_a_fault_whole(chaos_stack, fault):
    run(chaos_stack, fault, tables=3, seed=len(fault))


@pytest.mark.slow
@pytest.mark.parametrize("fault", sorted(chaos.FAULTS))
def test_every_fault_with_more_tables(chaos_stack, fault):
    run(chaos_stack, fault, tables=8, seed=100 + len(fault))
