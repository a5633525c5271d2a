"""The read model's writer (services.common.view_writer): beside a table's views, its roster
says its status and its players' seats as its public view does, at every step of a game."""

from __future__ import annotations

import msgspec
import pytest

from gcbc.readmodel.port import PUBLIC, ROSTER
from services.common.folded import FoldedTable
from services.common.view_writer import replacement
from tests.unit.services.test_golden_logs import NAMES, _imported


@pytest.mark.parametrize("name", NAMES)
def test_the_roster_says_what_the_public_view_says_of_status_and_seats(name: str):
    golden, _ = _imported(name)
    entries = golden.all()
    t = FoldedTable(entries[0].table)
    statuses = set()
    for stored in entries:
        t.apply(stored)
        if not t.state.table_id:
            continue
        # registered players at the seats taken (the golden games' seats are anonymous): one
        # player at two seats is shown at its first, as a public view is read
        t.players = {i: f"pl-{i % 2}" for i, x in enumerate(t.state.seats) if x and i != 1}
        views = replacement(t).views
        public = msgspec.json.decode(views[PUBLIC])
        roster = msgspec.json.decode(views[ROSTER])
        seats = {s["player"]: i for i, s in reversed(list(enumerate(public["seats"])))}
        seats.pop(None, None)
        assert roster == {"status": public["status"], "players": seats}
        statuses.add(roster["status"])
    assert roster["players"]["pl-0"] == 0 and len(roster["players"]) == (name != "lobby_6") + 1
    assert statuses == ({"waiting"} if name == "lobby_6" else {"waiting", "playing", "finished"})
