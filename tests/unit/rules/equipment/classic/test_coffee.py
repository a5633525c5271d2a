"""Coffee on a classic table (RULES §7.2: when the current turn ends, your turn comes next): the
fourth edition's module (§7.1 says the same)."""

from __future__ import annotations

from gcbc_contract import events as E
from tests.support import act
from tests.unit.rules.equipment.classic import CLASSIC
from tests.unit.rules.equipment.scenario import (
    accept_all,
    deal,
    one,
    open_window,
    play,
    refused_unchanged,
    turn_order,
)


def test_your_turn_comes_next():
    """RULES §7.2 Coffee: seat 2 plays it in seat 0's turn; seat 2 plays next, then seat 3."""
    s = open_window(deal({2: "coffee", 3: "wiretap"}, options=CLASSIC), "investigate")
    s, events = act(s, play(2, "coffee"))
    assert one(events, E.NextTurnClaimed) == E.NextTurnClaimed(seat=2)
    assert turn_order(s, 3) == [2, 3, 0]


def test_refusals_and_listed_plays():
    """RULES §7.3: no parameter; one play."""
    s = deal({0: "coffee"}, options=CLASSIC)
    assert refused_unchanged(s, play(0, "coffee", target=1)) == "bad_parameters"
    assert accept_all(s, 0, "coffee") == 1
