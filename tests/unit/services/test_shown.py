"""What a view, a roster or a seated record shows of a table."""

from __future__ import annotations

import msgspec

from services.table.shown import PlayerAt, player_at, player_at_end, shows_finished


def _view(status: str, players: list[str | None]) -> bytes:
    seats = [{"name": f"s{i}", "player": p} for i, p in enumerate(players)]
    return msgspec.json.encode({"status": status, "seats": seats, "log": ["finished"]})


def test_a_view_shows_the_game_over_by_its_status_alone():
    assert shows_finished(_view("finished", []))
    assert not shows_finished(_view("playing", []))  # ("finished" in its log: not its status)


def test_where_a_player_sits_by_a_roster_and_by_a_seated_record():
    record = b'{"status":"playing","players":{"pl-a":1,"pl-b":2}}'
    assert player_at(record, "pl-b") == PlayerAt("playing", 2)
    assert player_at(record, "pl-c") == PlayerAt("playing", None)
    assert player_at_end(b'{"pl-a":1}', "pl-a") == PlayerAt("finished", 1)
    assert player_at_end(b"{}", "pl-a") == PlayerAt("finished", None)
