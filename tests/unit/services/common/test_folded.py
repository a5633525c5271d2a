"""A folded table keeps what the table service checks beside the rules: here, the invitations'
code hashes, read from the opening command whether the table is folded from every entry or from
its answers alone, and kept by its snapshot."""

from __future__ import annotations

import pytest

from gcbc.eventlog.port import Stored
from gcbc.rules import run
from gcbc.rules.state import initial_state
from gcbc_contract import commands as C
from gcbc_contract.entries import CommandEntry, OutcomeEntry
from services.common import snapshots
from services.common.folded import FoldedTable

OPENING = C.OpenTable(table_id="t", seats=4, held=(2, 3), invitations=("h2", "h3"))


def _entries(*commands: C.Command) -> list[tuple[Stored, object]]:
    s, out, seq = initial_state(), [], 0
    for command in commands:
        s, events = run(s, command)
        asked = CommandEntry(command=command, at=0)
        out.append((Stored(seq=seq + 1, table="t", data=b""), asked))
        answer = OutcomeEntry(answers=seq + 1, events=events, at=0, command=asked)
        out.append((Stored(seq=seq + 2, table="t", data=b""), answer))
        seq += 2
    return out


@pytest.mark.parametrize("answers_alone", [False, True])
def test_the_invitations_code_hashes_are_kept_until_their_seats_are_taken(answers_alone):
    t = FoldedTable("t")
    entries = _entries(OPENING, C.TakeSeat(name="dee", seat_wanted=3))
    for stored, entry in entries[1::2] if answers_alone else entries:
        t.apply(stored, entry)
    assert t.invitations == {2: "h2", 3: "h3"}
    assert t.state.reserved == {2}  # seat 3's code was used: it takes its seat no more
    again = snapshots.decode(snapshots.encode(t), "t")
    assert again is not None and again.invitations == t.invitations
