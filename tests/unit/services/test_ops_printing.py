"""The ops CLI prints what clients sent: control characters are escaped (issue 8, item 7)."""

from __future__ import annotations

import asyncio
import io

from gcbc.contract import commands as C
from gcbc.contract import events as E
from gcbc.contract.entries import CommandEntry, OutcomeEntry, encode_entry
from gcbc.eventlog.memory import MemoryEventLog
from services.ops.cli import inspect, printable


def test_control_characters_are_escaped_and_the_rest_kept():
    assert printable("ann") == "ann"
    assert printable("é ü 中") == "é ü 中"
    assert printable("a\x1b[2Jb\nc\x00") == "a\\x1b[2Jb\\nc\\x00"


def test_inspect_never_prints_a_raw_control_character():
    """An old log (before names and chat refused them) may hold any text."""
    log = MemoryEventLog()
    hostile = "eve\x1b[2J\r\nCOMMAND forged"

    async def go() -> str:
        await log.append("t1", encode_entry(CommandEntry(command=C.TakeSeat(name=hostile))), 0)
        outcome = OutcomeEntry(answers=1, events=[E.SeatTaken(seat=0, name=hostile)])
        await log.append("t1", encode_entry(outcome), 1)
        out = io.StringIO()
        await inspect(log, "t1", out)  # type: ignore[arg-type]
        return out.getvalue()

    printed = asyncio.run(go())
    assert "\x1b" not in printed and "\r" not in printed
    assert printed.count("\n") == 3  # command, outcome, one event: no forged line
    assert "eve\\x1b[2J\\r\\nCOMMAND forged" in printed
