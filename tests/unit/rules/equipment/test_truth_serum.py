"""Truth Serum (RULES §7.1): choose any face-down integrity card of a living seat (Disguise does not
protect it): it is turned face up."""

from __future__ import annotations

import pytest

from gcbc.rules import public_view
from gcbc_contract import events as E
from tests.support import C, act, pass_window
from tests.unit.rules.equipment.scenario import (
    WINDOWS,
    accept_all,
    cid,
    deal,
    end_turn,
    known,
    legal_plays,
    of,
    one,
    open_window,
    play,
    refused_unchanged,
    shot_earlier,
)


def test_own_turn_turns_a_card_face_up_for_everyone():
    """RULES §7.1 Truth Serum, §11 (every face-up card is public)."""
    s = deal({0: "truth_serum"})
    s, events = act(s, play(0, "truth_serum", target=1, position=1))
    assert one(events, E.CardRevealed) == E.CardRevealed(
        seat=1, position=1, card_id=cid(1, 1), card="kingpin"
    )
    assert s.seat(1).face_up == (True, False, False)
    for viewer in (None, 0, 2, 3):
        assert known(s, viewer, 1, 1) == "kingpin"
    assert public_view(s, log=False).seats[1].cards[0].face_up
    assert s.step == "action" and s.turn_seat == 0 and s.deck[-1] == "truth_serum"


@pytest.mark.parametrize("window", WINDOWS)
def test_in_a_window(window):
    """RULES §7.1 Truth Serum (any window)."""
    s = open_window(deal({2: "truth_serum"}, guns={0: 1}), window, avoid=(3,))
    s, events = act(s, play(2, "truth_serum", target=3, position=2))
    assert one(events, E.CardRevealed).card == "honest"
    assert s.seat(3).face_up == (False, True, False)


def test_reaches_a_disguised_seat():
    """RULES §7.1 Truth Serum and Disguise (Truth Serum still reaches them)."""
    s = deal({0: "truth_serum", 3: "disguise"}, setup=[play(3, "disguise", target=1)])
    assert refused_unchanged(s, C.Investigate(seat=0, target=1, position=1)) == "target_disguised"
    assert {(c.target, c.position) for c in legal_plays(s, 0, "truth_serum")} >= {(1, 1), (1, 2)}
    s, events = act(s, play(0, "truth_serum", target=1, position=1))
    assert one(events, E.CardRevealed).card == "kingpin"


def test_may_reveal_ones_own_card():
    """RULES §7.1 Truth Serum (any face-down card of a living seat)."""
    s = deal({0: "truth_serum"})
    s, events = act(s, play(0, "truth_serum", target=0, position=3))
    assert one(events, E.CardRevealed).seat == 0 and s.seat(0).face_up == (False, False, True)


def test_revealing_the_card_being_investigated_cancels_the_investigation():
    """RULES §3.1 (investigate a face-down card), §6 (the declared action became impossible: choose
    again), §7.1 Truth Serum."""
    s = deal({2: "truth_serum"})
    s, _ = act(s, C.Investigate(seat=0, target=1, position=2))
    s, events = act(s, play(2, "truth_serum", target=1, position=2))
    assert one(events, E.ActionCancelled) == E.ActionCancelled(seat=0, reason="impossible")
    assert of(events, E.CardViewed) == []
    assert s.step == "action" and s.turn_seat == 0


@pytest.mark.parametrize(
    ("kw", "code"),
    [
        ({"target": 1, "position": 1}, "card_not_face_down"),
        ({"target": 3, "position": 1}, "target_eliminated"),
        ({"target": 9, "position": 1}, "invalid_target"),
        ({"target": 2, "position": 4}, "invalid_position"),
        ({"target": 2, "position": 0}, "invalid_position"),
        ({"target": 2}, "bad_parameters"),
        ({"position": 1}, "bad_parameters"),
        ({"target": 2, "position": 1, "aim": 1}, "bad_parameters"),
    ],
)
def test_bad_targets_are_refused(kw, code):
    """RULES §7.1 Truth Serum, §7.3: a face-down card (position 1-3) of a living seat."""
    # given seat 1 turned its position 1 face up when it armed; seat 3 is eliminated
    s = shot_earlier(deal({0: "truth_serum"}, first_seat=1), 3)
    s, _ = act(s, C.Arm(seat=1, target=2, position=1))
    s, _ = act(s, C.Aim(seat=1, target=2))
    s = end_turn(pass_window(s))
    assert s.turn_seat == 0 and s.seat(1).face_up == (True, False, False)
    assert refused_unchanged(s, play(0, "truth_serum", **kw)) == code


def test_every_listed_play_is_accepted():
    """RULES §7.3: one play per face-down card of each living seat (its own included)."""
    s = deal({0: "truth_serum"})
    assert len(legal_plays(s, 0, "truth_serum")) == 12
    assert accept_all(s, 0, "truth_serum") == 12
    w = open_window(deal({2: "truth_serum"}, guns={0: 1}), "shoot")
    assert accept_all(w, 2, "truth_serum") == 12
