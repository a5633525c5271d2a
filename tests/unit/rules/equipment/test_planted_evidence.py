"""Planted Evidence (RULES §7.1, §2): put it in front of a living seat: for the rest of the game its
Honest cards count as Crooked and vice versa (Leaders still decide their holder's team)."""

from __future__ import annotations

import pytest

from gcbc.rules import view
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
    team,
)


def test_own_turn_flips_the_majority_and_stays_in_play():
    """RULES §7.1 Planted Evidence: seat 0 plants it on seat 2 (honest, crooked, honest): seat 2 is
    crooked now; the card stays in front of seat 2, in everyone's view, not in the deck."""
    s = deal({0: "planted_evidence"})
    assert team(s, 2) == "honest"
    deck = s.deck
    s, events = act(s, play(0, "planted_evidence", target=2))
    assert one(events, E.EquipmentPlayed).placed_on == 2
    assert s.seat(2).in_play == ("planted_evidence",) and s.seat(0).hand == ()
    assert s.deck == deck
    assert team(s, 2) == "crooked"
    assert view(s, None, log=False).seats[2].in_play == ["planted_evidence"]
    assert s.step == "action" and s.turn_seat == 0


@pytest.mark.parametrize("window", WINDOWS)
def test_in_a_window_on_a_crooked_majority(window):
    """RULES §7.1 Planted Evidence (any window): seat 3 (crooked, honest, crooked) becomes honest."""
    s = deal({2: "planted_evidence"}, guns={0: 1})
    s = open_window(s, window)
    s, _ = act(s, play(2, "planted_evidence", target=3))
    assert team(s, 3) == "honest"


@pytest.mark.parametrize(("seat", "leader_team"), [(0, "honest"), (1, "crooked")])
def test_leaders_still_decide(seat, leader_team):
    """RULES §2, §7.1 Planted Evidence: a Leader's holder keeps its team."""
    s = deal({2: "planted_evidence"}, first_seat=2)
    s, _ = act(s, play(2, "planted_evidence", target=seat))
    assert s.seat(seat).in_play == ("planted_evidence",)
    assert team(s, seat) == leader_team


def test_the_planted_seat_wins_with_its_flipped_team():
    """RULES §2 (Planted Evidence flips the majority; eliminated players win with their team): seat
    2 (honest majority, planted) wins with the Crooked when the wounded Agent is shot again."""
    # given seat 3 planted it on seat 2 before the first turn; the Agent (seat 0) is wounded
    s = deal({3: "planted_evidence"}, setup=[play(3, "planted_evidence", target=2)], first_seat=1)
    s = shot_earlier(s, 0, shooter=1)
    s = end_turn(s)  # seat 1's turn, seat 2 plays next: it takes a gun and aims at seat 0
    assert s.turn_seat == 2
    s, _ = act(s, C.Arm(seat=2, target=0, position=1))
    s, _ = act(s, C.Aim(seat=2, target=0))
    s = end_turn(s)
    while s.turn_seat != 2:  # seats 3, 0 and 1 play plainly
        s = end_turn(s)
    # when seat 2 shoots the wounded Agent
    s, _ = act(s, C.Shoot(seat=2))
    s = pass_window(s)
    # then
    assert s.step == "finished" and s.win_team == "crooked"
    assert s.winners == (1, 2, 3)


@pytest.mark.parametrize(
    ("kw", "code"),
    [
        ({"target": 3}, "target_eliminated"),
        ({"target": 9}, "invalid_target"),
        ({}, "bad_parameters"),
        ({"targets": (2,)}, "bad_parameters"),
        ({"target": 2, "choice": "hand"}, "bad_parameters"),
    ],
)
def test_bad_targets_are_refused(kw, code):
    """RULES §7.1 Planted Evidence, §7.3: a living seat."""
    s = shot_earlier(deal({0: "planted_evidence"}), 3)
    assert refused_unchanged(s, play(0, "planted_evidence", **kw)) == code


def test_every_listed_play_is_accepted():
    """RULES §7.3: one play per living seat, the player's own included."""
    s = shot_earlier(deal({0: "planted_evidence"}), 3)
    assert [c.target for c in legal_plays(s, 0, "planted_evidence")] == [0, 1, 2]
    assert accept_all(s, 0, "planted_evidence") == 3
    s, _ = act(s, play(0, "planted_evidence", target=0))
    assert team(s, 0) == "honest"
