"""gcbc-ops tail --public on the in-memory twin: what spectators see of the entries followed,
with a bounded number of tables kept folded."""

from __future__ import annotations

import asyncio
import itertools
import json

from gcbc.eventlog.memory import MemoryEventLog
from gcbc.eventlog.port import Stored
from services.ops.timeline import Spectator
from tools import tablelogs

TABLES = [f"00000000000000c{i}" for i in range(4)]


def _followed() -> tuple[MemoryEventLog, list[Stored]]:
    """Four tables (the last one unfinished), their entries interleaved as a live log has them."""
    log = MemoryEventLog()

    async def fill() -> list[list[Stored]]:
        for i, table in enumerate(TABLES):
            steps = tablelogs.play(table, 4 + i, i, finish=i < 3, chat_rate=0.1)
            await tablelogs.write_table(log, steps, table)
        return [await log.read(table) for table in TABLES]

    each = asyncio.run(fill())
    mixed = [s for row in itertools.zip_longest(*each) for s in row if s is not None]
    return log, mixed


def _tail(log: MemoryEventLog, entries: list[Stored], keep: int) -> Spectator:
    spectator = Spectator(log, as_json=True)
    spectator.KEEP = keep

    async def follow() -> None:
        for s in entries:
            await spectator.show(s)

    asyncio.run(follow())
    return spectator


def test_a_long_tail_keeps_few_tables_folded_and_shows_the_same(capsys):
    log, entries = _followed()
    roomy = _tail(log, entries, keep=100)
    shown = capsys.readouterr().out.splitlines()
    events = [json.loads(x) for x in shown]
    assert {x["table"] for x in events} == set(TABLES)
    assert any("chat" in x for x in events) and any("event" in x for x in events)
    # a finished table is let go: only the game still going stays folded
    assert list(roomy.folded) == [TABLES[3]]

    # one table kept: every other table's entry folds it again, and nothing shown changes
    tight = _tail(log, entries, keep=1)
    assert capsys.readouterr().out.splitlines() == shown
    assert len(tight.folded) <= 1
