"""Defibrillator (RULES §7.1): bring an eliminated non-Leader seat back into the game (not
yourself); its cards stay face up."""

from __future__ import annotations

import pytest

from gcbc.rules import legal_commands, public_view
from gcbc_contract import events as E
from tests.support import C, act, pass_window
from tests.unit.rules.equipment.scenario import (
    WINDOWS,
    accept_all,
    deal,
    end_turn,
    legal_plays,
    one,
    open_window,
    play,
    refused_unchanged,
    shot_earlier,
    turn_order,
)


def test_revives_a_shot_seat_with_its_cards_face_up():
    """RULES §7.1 Defibrillator, §4: seat 0 shoots seat 2 (eliminated); on its own turn seat 1
    revives it: alive again, all three cards still face up, no gun, no equipment; it takes turns
    again."""
    # given
    s = deal({1: "defibrillator"}, guns={0: 2})
    s, _ = act(s, C.Shoot(seat=0))
    s = end_turn(s)
    assert s.seat(2).eliminated and s.turn_seat == 1
    # when
    s, events = act(s, play(1, "defibrillator", target=2))
    # then
    assert one(events, E.SeatRevived) == E.SeatRevived(seat=2)
    st = s.seat(2)
    assert not st.eliminated and st.face_up == (True, True, True)
    assert st.gun is False and st.hand == ()
    assert s.deck[-1] == "defibrillator" and s.seat(1).hand == ()
    seat2 = public_view(s, log=False).seats[2]
    assert not seat2.eliminated
    assert [c.card for c in seat2.cards] == ["honest", "crooked", "honest"]
    assert all(c.face_up for c in seat2.cards)
    # not an action; and seat 2 plays again after seat 1
    assert s.step == "action" and s.turn_seat == 1
    assert turn_order(s, 1) == [2]


@pytest.mark.parametrize("window", WINDOWS)
def test_in_a_window(window):
    """RULES §7.1 Defibrillator (any window): seat 3 revives seat 2 in a window of seat 0's turn;
    its cards stay face up."""
    s = deal({3: "defibrillator"}, guns={0: 1})
    s = shot_earlier(s, 2)
    s = open_window(s, window, avoid=(2,))
    s, events = act(s, play(3, "defibrillator", target=2))
    assert one(events, E.SeatRevived).seat == 2
    assert not s.seat(2).eliminated and s.seat(2).face_up == (True, True, True)


def test_revived_seat_acts_in_its_turn():
    """RULES §7.1 Defibrillator: back in the game, seat 2 takes its turn and may act (arm)."""
    s = deal({1: "defibrillator"}, first_seat=1)
    s = shot_earlier(s, 2)
    s, _ = act(s, play(1, "defibrillator", target=2))
    s = end_turn(s)
    assert s.turn_seat == 2
    assert C.Arm(seat=2, target=0, position=None) in legal_commands(s, 2)
    s, events = act(s, C.Arm(seat=2, target=0))
    assert one(events, E.GunTaken) == E.GunTaken(seat=2, aim=0)


def test_refusals():
    """RULES §7.1 Defibrillator, §7.3: only an eliminated seat, never yourself, one target."""
    s = shot_earlier(deal({0: "defibrillator"}), 2)
    assert refused_unchanged(s, play(0, "defibrillator", target=1)) == "invalid_target"  # alive
    assert refused_unchanged(s, play(0, "defibrillator", target=0)) == "target_is_self"
    assert refused_unchanged(s, play(0, "defibrillator", target=9)) == "invalid_target"
    assert refused_unchanged(s, play(0, "defibrillator", target=-1)) == "invalid_target"
    assert refused_unchanged(s, play(0, "defibrillator")) == "bad_parameters"
    assert refused_unchanged(s, play(0, "defibrillator", targets=(2,))) == "bad_parameters"
    assert refused_unchanged(s, play(0, "defibrillator", target=2, position=1)) == (
        "bad_parameters"
    )
    assert refused_unchanged(s, play(1, "defibrillator", target=2)) == "card_not_in_hand"


def test_nothing_to_revive():
    """RULES §7.3: with nobody eliminated, Defibrillator is not listed and is refused."""
    s = deal({0: "defibrillator"})
    assert legal_plays(s, 0, "defibrillator") == []
    assert refused_unchanged(s, play(0, "defibrillator", target=2)) == "invalid_target"


def test_a_leader_is_never_revived_the_game_is_over():
    """RULES §4, §7.1 Defibrillator (non-Leader): an eliminated Leader ends the game at once, so
    nothing can be played after it."""
    s = deal({2: "defibrillator"}, guns={0: 1})
    s = shot_earlier(s, 1, shooter=0)  # the Kingpin is wounded
    s, _ = act(s, C.Shoot(seat=0))
    s = pass_window(s)
    assert s.seat(1).eliminated
    assert s.step == "finished" and s.win_team == "honest"
    assert refused_unchanged(s, play(2, "defibrillator", target=1)) == "game_over"


def test_every_listed_play_is_accepted():
    """RULES §7.3: one play per eliminated non-Leader seat other than the player."""
    s = shot_earlier(shot_earlier(deal({0: "defibrillator"}), 2), 3)
    assert [c.target for c in legal_plays(s, 0, "defibrillator")] == [2, 3]
    assert accept_all(s, 0, "defibrillator") == 2
