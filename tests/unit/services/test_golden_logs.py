"""The log survives engine changes: the golden table logs (``tests/fixtures/logs``,
recorded once by its ``record.py``: every option, a lobby, one log as schema version 1 wrote it)
are imported as ``gcbc-ops import`` does and ``gcbc-ops verify`` runs over them: today's engine,
deciding every recorded command again, must give each recorded answer, but for the deliberate
rules changes named (``DELIBERATE``)."""

from __future__ import annotations

import asyncio
import gzip
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from gcbc.eventlog.memory import MemoryEventLog
from services.ops import transfer
from tests.unit.services.ops_support import invoke

LOGS = Path(__file__).resolve().parents[2] / "fixtures" / "logs"
NAMES = sorted(p.name.removesuffix(".jsonl.gz") for p in LOGS.glob("*.jsonl.gz"))

# Deliberate rules changes since the recording: the recorded commands today's engine decides
# otherwise, by log (a recorded log is never recorded again; its events still fold as recorded).
DELIBERATE = {
    # RULES §7.2 (Decision: the classic Surveillance Camera answers an investigation only the
    # first time holders are asked once it resolved): a camera played in an end-of-turn window
    # reopened after a Flamethrower, one asking after the Investigate action it answered
    "everything_8_card": [
        {
            "table": "901d000000000004",
            "seq": 586,
            "command": "play_equipment",
            "expected": {"events": 3},
            "got": {"refusal": "not_playable_now"},
        },
        # RULES §7.3 (Decision: a Polygraph that would show no card is refused): neither seat
        # had a card the other could be shown
        {
            "table": "901d000000000004",
            "seq": 884,
            "command": "play_equipment",
            "expected": {"events": 2},
            "got": {"refusal": "no_effect"},
        },
    ],
    # RULES §7.1 (Decision: a Coffee played in the start-of-game window acts as if played in the
    # first turn): the Lead Investigator's first turn is followed by the Coffee's seat, not the
    # next seat as recorded
    "zombies_6": [
        {
            "table": "901d000000000002",
            "seq": 64,
            "command": "pass",
            "expected": {"event": 2, "type": "turn_began", "seat": 4, "turn": 2, "direction": 1},
            "got": {"event": 2, "type": "turn_began", "seat": 3, "turn": 2, "direction": 1},
        },
        # RULES §7.3 (Decision: a Polygraph that would show no card is refused): neither seat
        # had a card the other could be shown
        {
            "table": "901d000000000002",
            "seq": 454,
            "command": "play_equipment",
            "expected": {"events": 2},
            "got": {"refusal": "no_effect"},
        },
    ],
    # RULES §7.3 (Decision: a Polygraph that would show no card is refused): neither seat had a
    # card the other could be shown
    "classic_5_token": [
        {
            "table": "901d000000000001",
            "seq": 350,
            "command": "play_equipment",
            "expected": {"events": 1},
            "got": {"refusal": "no_effect"},
        },
    ],
    "fourth_4": [
        {
            "table": "901d000000000000",
            "seq": 338,
            "command": "play_equipment",
            "expected": {"events": 2},
            "got": {"refusal": "no_effect"},
        },
    ],
}


def _imported(*names: str) -> tuple[MemoryEventLog, dict[str, int]]:
    log = MemoryEventLog()
    sizes = {}
    for name in names:
        lines = gzip.decompress((LOGS / f"{name}.jsonl.gz").read_bytes()).splitlines()
        header, rows = transfer.read_lines(lines)
        table, sizes[name], _ = asyncio.run(transfer.import_rows(log, header, rows))
    return log, sizes


def test_the_golden_logs_are_there_with_every_option():
    assert len(NAMES) >= 6
    options = set()
    for name in NAMES:
        first = gzip.decompress((LOGS / f"{name}.jsonl.gz").read_bytes()).splitlines()[1]
        opened = json.loads(first)["entry"]["command"]
        options |= {k for k, v in opened.get("options", {}).items() if v not in (False, None)}
    assert {"edition", "zombies", "bombers_traitors", "extra_equipment", "wounds"} <= options


@pytest.mark.parametrize("name", NAMES)
def test_verify_passes_over_a_golden_log(name: str):
    log, sizes = _imported(name)
    result = invoke(CliRunner(), log, None, ["verify", "--all", "--json"])
    deliberate = DELIBERATE.get(name, [])
    assert result.exit_code == (1 if deliberate else 0), result.output
    *divergences, last = (json.loads(line) for line in result.stdout.splitlines())
    assert divergences == deliberate
    summary = last["summary"]
    assert summary == {
        "tables": 1,
        "commands": sizes[name] // 2,
        "divergences": len(deliberate),
        "failed": 0,
    }


def test_a_version_1_log_is_among_them():
    raw = gzip.decompress((LOGS / "fourth_4.jsonl.gz").read_bytes()).splitlines()[1:]
    assert all('"schema"' not in line.decode() for line in raw)
