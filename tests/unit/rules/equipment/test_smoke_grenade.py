"""Smoke Grenade (RULES §7.1, §3): reverse the turn order, permanently, from the end of the current
turn."""

from __future__ import annotations

import pytest

from gcbc.rules import public_view
from gcbc_contract import events as E
from tests.support import act
from tests.unit.rules.equipment.scenario import (
    WINDOWS,
    accept_all,
    deal,
    end_turn,
    one,
    open_window,
    play,
    refused_unchanged,
    shot_earlier,
    turn_order,
)


@pytest.mark.parametrize("window", WINDOWS)
def test_in_a_window_reverses_from_the_end_of_the_turn(window):
    """RULES §7.1 Smoke Grenade: thrown by seat 2 in a window of seat 0's turn; the current turn is
    unchanged, then the order runs counter-clockwise: 3, 2, 1, 0, 3."""
    s = deal({2: "smoke_grenade", 1: "med_kit"}, guns={0: 1})  # seat 1: a bystander, asked too
    s = open_window(s, window)
    s, events = act(s, play(2, "smoke_grenade"))
    assert one(events, E.TurnOrderReversed) == E.TurnOrderReversed(seat=2)
    assert s.turn_seat == 0 and s.direction == 1
    assert public_view(s, log=False).direction == "clockwise"
    s = end_turn(s)
    assert one(list(s.log)[-1:], E.TurnBegan) == E.TurnBegan(seat=3, turn=2, direction=-1)
    assert public_view(s, log=False).direction == "counter_clockwise"
    assert turn_order(s, 4) == [2, 1, 0, 3]


def test_own_turn():
    """RULES §7.1 Smoke Grenade, §6.1: seat 0 throws it before its action; seat 3 plays next."""
    s = deal({0: "smoke_grenade"})
    s, _ = act(s, play(0, "smoke_grenade"))
    assert s.step == "action" and s.turn_seat == 0 and s.reverse_pending
    assert turn_order(s, 3) == [3, 2, 1]


def test_reversed_order_skips_eliminated_seats():
    """RULES §3 (next living seat), §7.1 Smoke Grenade: counter-clockwise from seat 0 with seat 3
    eliminated comes seat 2."""
    s = shot_earlier(deal({0: "smoke_grenade"}), 3)
    s, _ = act(s, play(0, "smoke_grenade"))
    assert turn_order(s, 3) == [2, 1, 0]


def test_in_the_start_of_game_window_the_order_is_reversed_from_the_end_of_the_first_turn():
    """RULES §6.2, §7.1 Smoke Grenade (Decision: played in the start-of-game window, from the end
    of the first turn): the first turn is seat 0's, played clockwise; the turn after it is seat
    3's, counter-clockwise."""
    s = deal({2: "smoke_grenade"}, setup=[play(2, "smoke_grenade")])
    assert s.turn_seat == 0 and "smoke_grenade" not in s.seat(2).hand
    assert one(list(s.log), E.TurnBegan) == E.TurnBegan(seat=0, turn=1, direction=1)
    assert s.reverse_pending and public_view(s, log=False).direction == "clockwise"
    s = end_turn(s)
    assert (s.turn_seat, public_view(s, log=False).direction) == (3, "counter_clockwise")
    assert turn_order(s, 2) == [2, 1]


def test_refusals():
    """RULES §6, §7.3: it takes no parameter; played from one's own hand, at one's moment."""
    s = deal({0: "smoke_grenade"})
    assert refused_unchanged(s, play(0, "smoke_grenade", target=1)) == "bad_parameters"
    assert refused_unchanged(s, play(0, "smoke_grenade", targets=(1, 2))) == "bad_parameters"
    assert refused_unchanged(s, play(3, "smoke_grenade")) == "card_not_in_hand"
    s1 = end_turn(s)
    assert refused_unchanged(s1, play(0, "smoke_grenade")) == "not_playable_now"


def test_every_listed_play_is_accepted():
    """RULES §7.3."""
    assert accept_all(deal({0: "smoke_grenade"}), 0, "smoke_grenade") == 1
    w = open_window(deal({3: "smoke_grenade"}, guns={0: 1}), "shoot")
    assert accept_all(w, 3, "smoke_grenade") == 1
