"""Coffee (RULES §7.1): when the current turn ends, your turn comes next (then play continues from
you)."""

from __future__ import annotations

import pytest

from gcbc.contract import events as E
from tests.support import C, act
from tests.unit.rules.equipment.scenario import (
    WINDOWS,
    accept_all,
    deal,
    end_turn,
    one,
    open_window,
    play,
    refused_unchanged,
    turn_order,
)


@pytest.mark.parametrize("window", WINDOWS)
def test_in_a_window_the_coffee_seat_plays_next_then_order_continues_from_it(window):
    """RULES §7.1 Coffee: seat 2 drinks it in a window of seat 0's turn; seat 2 plays next (not
    seat 1), then seats 3, 0, 1."""
    # given
    s = deal({2: "coffee", 3: "med_kit"}, guns={0: 3})  # seat 3: a bystander, asked too
    s = open_window(s, window, avoid=(1,))
    # when
    s, events = act(s, play(2, "coffee"))
    # then
    assert one(events, E.NextTurnClaimed) == E.NextTurnClaimed(seat=2)
    assert s.coffee_seat == 2 and s.deck[-1] == "coffee" and s.seat(2).hand == ()
    assert s.turn_seat == 0  # the current turn goes on
    assert turn_order(s, 4) == [2, 3, 0, 1]


def test_on_its_own_turn_the_seat_plays_twice_in_a_row():
    """RULES §7.1 Coffee, §6.1: seat 0 drinks it before its action: its next turn comes next."""
    s = deal({0: "coffee"})
    s, events = act(s, play(0, "coffee"))
    assert one(events, E.NextTurnClaimed).seat == 0
    assert s.step == "action" and s.turn_seat == 0  # not its action
    s = end_turn(s)
    assert (s.turn_seat, s.turn_number) == (0, 2)
    assert turn_order(s, 2) == [1, 2]


def test_the_claim_lasts_only_for_the_current_turn():
    """RULES §7.1 Coffee: the claim is used when the current turn ends, then cleared."""
    s = deal({3: "coffee", 1: "med_kit"})
    s = open_window(s, "end_of_turn")
    s, _ = act(s, play(3, "coffee"))
    s = end_turn(s)
    assert s.turn_seat == 3 and s.coffee_seat is None
    assert turn_order(s, 3) == [0, 1, 2]


def test_with_smoke_grenade_play_continues_reversed_from_the_coffee_seat():
    """RULES §7.1 Coffee and Smoke Grenade: coffee seat 2 plays next, then the reversed order runs
    from it: 1, 0, 3."""
    s = deal({2: "coffee", 3: "smoke_grenade", 1: "med_kit"})
    s = open_window(s, "investigate")
    s, _ = act(s, play(2, "coffee"))
    s, _ = act(s, play(3, "smoke_grenade"))
    assert turn_order(s, 4) == [2, 1, 0, 3]


def test_an_eliminated_coffee_seat_loses_its_claim():
    """RULES §7.1 Coffee, §3: the turn passes to the next living seat when the coffee seat was shot
    before the turn ended."""
    # given seat 0 shoots seat 2 (honest, not a Leader) after seat 2 drank its coffee
    s = deal({2: "coffee"}, guns={0: 2})
    s = open_window(s, "shoot")
    s, events = act(s, play(2, "coffee"))
    # nobody else holds equipment: the window closes, and the shooter may choose again (§6)
    assert one(events, E.ActionCancelled) == E.ActionCancelled(seat=0, reason="reconsider")
    assert s.step == "action" and s.turn_seat == 0
    s, events = act(s, C.Shoot(seat=0))
    # nobody holds equipment: the shot resolves and the turn ends at once
    assert one(events, E.SeatEliminated).seat == 2
    assert one(events, E.TurnBegan).seat == 1


def test_in_the_start_of_game_window_the_coffee_seat_takes_the_first_turn():
    """RULES §6.2, §7.1 Coffee. Decision: before the first turn there is no current turn, so "your
    turn comes next" means the first turn; play then continues from the coffee seat."""
    s = deal({2: "coffee"}, setup=[play(2, "coffee")])
    assert s.turn_seat == 2 and "coffee" not in s.seat(2).hand
    s = end_turn(s)
    assert s.turn_seat == 3


def test_refusals():
    """RULES §6, §7.3: Coffee takes no parameter; it is played from one's hand, at one's moment."""
    s = deal({0: "coffee", 2: "k9_unit"})
    assert refused_unchanged(s, play(0, "coffee", target=1)) == "bad_parameters"
    assert refused_unchanged(s, play(0, "coffee", choice="hand")) == "bad_parameters"
    assert refused_unchanged(s, play(1, "coffee")) == "card_not_in_hand"
    assert refused_unchanged(s, play(2, "k9_unit", target=0)) == "not_playable_now"
    assert refused_unchanged(s, play(0, "espresso")) == "unknown_card"
    # in seat 1's turn, seat 0 may not play outside a window
    s1 = end_turn(s)
    assert s1.turn_seat == 1 and s1.step == "action"
    assert refused_unchanged(s1, play(0, "coffee")) == "not_playable_now"
    # after passing in a window where seat 2 is still asked
    w = open_window(s1, "investigate")
    w, _ = act(w, C.Pass(seat=0))
    assert w.window.pending == (2,)
    assert refused_unchanged(w, play(0, "coffee")) == "not_playable_now"


def test_every_listed_play_is_accepted():
    """RULES §7.3: the listed plays (own turn, and in a window) are accepted."""
    s = deal({0: "coffee"})
    assert accept_all(s, 0, "coffee") == 1
    w = open_window(deal({2: "coffee"}), "end_of_turn")
    assert accept_all(w, 2, "coffee") == 1
