"""Smoke Grenade on a classic table (RULES §7.2: as in §7.1, the turn order reverses from the end
of the current turn): the fourth edition's module."""

from __future__ import annotations

from gcbc_contract import events as E
from tests.support import act
from tests.unit.rules.equipment.classic import CLASSIC
from tests.unit.rules.equipment.scenario import (
    accept_all,
    deal,
    one,
    play,
    refused_unchanged,
    turn_order,
)


def test_the_turn_order_reverses():
    """RULES §7.2 Smoke Grenade: after seat 0's turn, seat 3 plays, then 2, 1, 0."""
    s = deal({0: "smoke_grenade"}, options=CLASSIC)
    s, events = act(s, play(0, "smoke_grenade"))
    assert one(events, E.TurnOrderReversed) == E.TurnOrderReversed(seat=0)
    assert turn_order(s, 4) == [3, 2, 1, 0]


def test_refusals_and_listed_plays():
    """RULES §7.3: no parameter; one play."""
    s = deal({0: "smoke_grenade"}, options=CLASSIC)
    assert refused_unchanged(s, play(0, "smoke_grenade", target=1)) == "bad_parameters"
    assert accept_all(s, 0, "smoke_grenade") == 1
