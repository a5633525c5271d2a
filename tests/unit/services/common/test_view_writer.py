"""The read model's writer (services.common.view_writer): beside a table's views, its holders
record says its status and its players' seats as its public view does, at every step of a game."""

from __future__ import annotations

import msgspec
import pytest

from gcbc.readmodel.port import HOLDERS, PUBLIC
from services.common.folded import FoldedTable
from services.common.view_writer import replacement
from tests.unit.services.test_golden_logs import NAMES, _imported


@pytest.mark.parametrize("name", NAMES)
def test_the_holders_record_says_what_the_public_view_says_of_status_and_seats(name: str):
    golden, _ = _imported(name)
    entries = golden.all()
    t = FoldedTable(entries[0].table)
    statuses = set()
    for stored in entries:
        t.apply(stored)
        if not t.state.table_id:
            continue
        views = replacement(t).views
        public = msgspec.json.decode(views[PUBLIC])
        holders = msgspec.json.decode(views[HOLDERS])
        seats = {s["player"]: i for i, s in reversed(list(enumerate(public["seats"])))}
        seats.pop(None, None)
        assert holders == {"status": public["status"], "players": seats}
        statuses.add(holders["status"])
    assert statuses == ({"waiting"} if name == "lobby_6" else {"waiting", "playing", "finished"})
