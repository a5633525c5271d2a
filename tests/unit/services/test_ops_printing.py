"""The ops CLI prints what clients sent: control characters are escaped."""

from __future__ import annotations

from click.testing import CliRunner

from gcbc.eventlog.memory import MemoryEventLog
from gcbc.eventlog.port import Stored
from gcbc_contract import commands as C
from gcbc_contract import events as E
from gcbc_contract.entries import CommandEntry, OutcomeEntry, encode_entry
from services.ops.show import printable
from tests.unit.services.ops_support import invoke


def test_control_characters_are_escaped_and_the_rest_kept():
    assert printable("ann") == "ann"
    assert printable("é ü 中") == "é ü 中"
    assert printable("a\x1b[2Jb\nc\x00") == "a\\x1b[2Jb\\nc\\x00"


def test_inspect_never_prints_a_raw_control_character():
    """An old log (before names and chat refused them) may hold any text."""
    log = MemoryEventLog()
    hostile = "eve\x1b[2J\r\nCOMMAND forged"
    log._entries.append(  # noqa: SLF001  (written as an old log would have it)
        Stored(1, "t1", encode_entry(CommandEntry(command=C.TakeSeat(name=hostile))), 1.0)
    )
    outcome = OutcomeEntry(answers=1, events=[E.SeatTaken(seat=0, name=hostile)])
    log._entries.append(Stored(2, "t1", encode_entry(outcome), 1.0))  # noqa: SLF001
    log._by_table["t1"] = list(log._entries)  # noqa: SLF001
    result = invoke(CliRunner(), log, None, ["inspect", "t1"])
    printed = result.stdout
    assert result.exit_code == 0, result.output
    assert "\x1b" not in printed and "\r" not in printed
    assert printed.count("\n") == 3  # command, outcome, one event: no forged line
    assert "eve\\x1b[2J\\r\\nCOMMAND forged" in printed
