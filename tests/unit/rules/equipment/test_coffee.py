"""Coffee (RULES §7.1): when the current turn ends, your turn comes next (then play continues from
you)."""

from __future__ import annotations

import pytest

from gcbc_contract import events as E
from tests.support import C, act, pass_window
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


def test_in_the_start_of_game_window_the_coffee_seat_plays_after_the_first_turn():
    """RULES §6.2, §7.1 Coffee (Decision: played in the start-of-game window it acts as if played
    in the first turn): seat 0, the Lead Investigator, takes the first turn; seat 2 the second;
    then play continues from seat 2."""
    s = deal({2: "coffee"}, setup=[play(2, "coffee")])
    assert s.turn_seat == 0 and s.coffee_seat == 2 and "coffee" not in s.seat(2).hand
    assert turn_order(s, 3) == [2, 3, 0]


def test_the_lead_investigators_coffee_before_the_first_turn_gives_it_two_turns():
    """RULES §7.1 Coffee (as if played in the first turn, as on one's own turn): seat 1, the Lead
    Investigator, drinks it before the first turn: turns 1 and 2 are its, then seat 2's."""
    s = deal({1: "coffee"}, first_seat=1, setup=[play(1, "coffee")])
    assert s.turn_seat == 1
    assert turn_order(s, 2) == [1, 2]


def test_with_a_smoke_grenade_before_the_first_turn_play_continues_reversed_from_the_coffee():
    """RULES §7.1 Coffee and Smoke Grenade, both before the first turn (each as if played in it):
    seat 0 first, then the coffee seat 2, then counter-clockwise from it: 1, 0."""
    s = deal({2: "coffee", 3: "smoke_grenade"}, setup=[play(2, "coffee"), play(3, "smoke_grenade")])
    assert s.turn_seat == 0
    assert turn_order(s, 3) == [2, 1, 0]


def test_a_coffee_seat_eliminated_then_revived_before_the_turn_ends_does_not_play_next():
    """RULES §7.1 Coffee (Decision: if you are eliminated before the turn ends, nothing happens):
    seat 2 drinks it in seat 0's shoot window, is shot dead, and seat 3 revives it in the
    end-of-turn window: the turn still passes to seat 1."""
    s = deal({2: "coffee", 3: "defibrillator"}, guns={0: 2})
    s = open_window(s, "shoot")
    s, _ = act(s, play(2, "coffee"))
    s = pass_window(s)
    s, _ = act(s, C.Shoot(seat=0))
    s, _ = act(s, C.Pass(seat=3))  # the new shoot window: the shot resolves
    assert s.seat(2).eliminated and s.coffee_seat is None
    assert s.window.kind == "end_of_turn"
    s, _ = act(s, play(3, "defibrillator", target=2))
    assert not s.seat(2).eliminated
    s = pass_window(s)
    assert (s.turn_seat, s.turn_number) == (1, 2)


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
