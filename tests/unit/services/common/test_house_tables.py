"""The house's tables (services/common/house_tables.py): the notes the bot worker plays from, and
the house's seats in play counted from them (the table service's cap)."""

from __future__ import annotations

import msgspec

from gcbc_contract import commands as C
from gcbc_contract.options import HouseBots
from services.common import house_tables
from services.common.house_tables import InPlay, encode, house_table


def _note(*seats: int, started: bool = True) -> bytes:
    return encode(
        house_tables.HouseTable(HouseBots(seats=seats, kind="random"), 4, started=started)
    )


def test_an_opening_with_house_bots_is_noted_and_one_without_is_not():
    opening = C.OpenTable(table_id="00000000000000aa", seats=4, bots=HouseBots(seats=(1, 2)))
    assert house_table(opening) == house_tables.HouseTable(HouseBots(seats=(1, 2)), 4)
    assert house_table(C.OpenTable(table_id="00000000000000aa", seats=4)) is None


def test_the_seats_in_play_follow_the_notes_as_they_come_change_and_go():
    in_play = InPlay()
    assert in_play.room(0) is None  # no cap
    in_play.noted("a", _note(1, 2, 3))
    in_play.noted("b", _note(1))
    in_play.noted(house_tables.BUILT, b"1")  # the store's mark, not a table
    in_play.noted("c", b"not the house's")
    assert in_play.seats == 4 and in_play.room(6) == 2
    in_play.noted("b", _note(1, 2))  # noted again (a watch restarted): counted once
    assert in_play.seats == 5
    in_play.noted("a", None)  # over: its note gone
    in_play.noted("gone", None)  # a note never seen
    assert in_play.seats == 2 and in_play.room(6) == 4 and in_play.room(1) == 0


def test_a_note_names_whose_table_it_is_and_one_without_is_nobodys():
    """The bot worker grants its actions to the tables' owners in turn: a note carries a digest
    of the client address (or of the player the queue opened it for) that opened the table, never
    the address itself."""
    opening = C.OpenTable(table_id="00000000000000aa", seats=4, bots=HouseBots(seats=(1, 2)))
    noted = house_tables.decode(encode(house_table(opening, "10.0.0.1")))
    assert noted.owner and "10.0.0.1" not in noted.owner and noted.seats == 4
    assert house_table(opening, "10.0.0.1").owner == noted.owner  # one owner, one digest
    assert house_table(opening, "10.0.0.2").owner != noted.owner
    unowned = house_tables.decode(encode([msgspec.to_builtins(opening.bots), 4]))
    assert unowned.owner == "" and unowned.bots == opening.bots


def test_a_table_holds_its_house_seats_from_its_start_not_while_it_waits_for_players():
    """A table waiting for players holds no house seat (its bots do nothing yet): tables opened
    and never started must not keep everyone else's from being played."""
    in_play = InPlay()
    opening = C.OpenTable(table_id="00000000000000aa", seats=4, bots=HouseBots(seats=(1, 2, 3)))
    noted = house_table(opening, "10.0.0.1")
    assert not noted.started
    in_play.noted("a", encode(noted))
    in_play.noted("b", _note(1, 2, started=False))
    assert in_play.seats == 0 and in_play.room(6) == 6
    in_play.noted("a", encode(house_tables.marked_started(noted)))  # its start: marked
    assert in_play.seats == 3 and in_play.room(6) == 3
    assert in_play.room(6, "a") == 6  # its start asked again: its own seats left out
    in_play.noted("a", encode(house_tables.marked_started(noted)))  # seen again: counted once
    in_play.noted("a", None)  # over
    assert in_play.seats == 0
