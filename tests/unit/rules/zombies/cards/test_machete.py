"""Machete (RULES §8.1): choose another living seat holding a gun and no face-up Leader card: it is
shot, by you (RULES §4). A zombie whose Arms aim at another seat is armed (RULES §8)."""

from __future__ import annotations

import pytest

from gcbc.rules.invariants import violations
from tests.support import EXTRA, ZOMBIES, E, act
from tests.unit.rules.equipment.scenario import (
    WINDOWS,
    accept_all,
    deal,
    legal_plays,
    of,
    one,
    open_window,
    play,
    refused_unchanged,
    shot_earlier,
)
from tests.unit.rules.zombies.cards.given import BOTH, revealed, wrong_moments
from tests.unit.rules.zombies.given import zdeal


@pytest.mark.parametrize(
    ("options", "fell"), [(EXTRA, E.SeatEliminated), (ZOMBIES, E.BecameZombie)]
)
def test_an_armed_seat_is_shot(options, fell):
    """RULES §8.1 Machete, §4, §8: seat 0 shoots armed seat 2 (its cards partly face up, none a
    Leader) on its own turn, not as its action: eliminated, or risen as a zombie."""
    s = revealed(deal({0: "machete"}, guns={2: 1}, options=options), 2, 1)
    s, events = act(s, play(0, "machete", target=2))
    assert events[1] == E.SeatShot(shooter=0, target=2)
    assert one(events, fell).seat == 2 and one(events, fell).by == 0
    assert not s.seat(2).gun and s.step == "action" and s.turn_seat == 0
    assert violations(s) == []


@pytest.mark.parametrize("options", BOTH)
def test_a_leader_still_face_down_is_wounded(options):
    """RULES §8.1 Machete, §4: the Kingpin's card is face down: the armed Kingpin is shot and
    wounded."""
    s = deal({0: "machete"}, guns={1: 0}, options=options)
    s, events = act(s, play(0, "machete", target=1))
    assert one(events, E.LeaderWounded).seat == 1


@pytest.mark.parametrize("window", WINDOWS)
def test_in_a_window(window):
    """RULES §8.1 Machete (any window), §6."""
    s = deal({1: "machete"}, guns={0: 2, 3: 0}, options=EXTRA)
    s = open_window(s, window, avoid=(3,))
    s, events = act(s, play(1, "machete", target=3))
    assert one(events, E.SeatShot) == E.SeatShot(shooter=1, target=3)


def test_the_shooter_shot_in_its_own_shoot_window_chooses_again_as_a_zombie():
    """RULES §8.1 Machete, §4, §8, §6: seat 3 shoots seat 2, which was about to shoot: risen as a
    zombie, it shoots nobody (its gun dropped: the shot is no longer possible) and chooses again,
    a zombie's action; its turn goes on."""
    s = zdeal({3: "machete"}, guns={2: 1}, first_seat=2)
    s = open_window(s, "shoot")
    s, events = act(s, play(3, "machete", target=2))
    assert one(events, E.BecameZombie).seat == 2
    assert [e.target for e in of(events, E.SeatShot)] == [2]
    assert one(events, E.ActionCancelled) == E.ActionCancelled(seat=2, reason="impossible")
    assert of(events, E.TurnBegan) == [] and s.turn_seat == 2 and s.step == "action"


@pytest.mark.parametrize(
    ("kw", "code"),
    [
        ({"target": 1}, "target_is_leader"),  # the armed Kingpin, its card face up
        ({"target": 2}, "no_gun"),
        ({"target": 0}, "target_is_self"),
        ({"target": 3}, "target_eliminated"),
        ({"target": 9}, "invalid_target"),
        ({}, "bad_parameters"),
        ({"target": 1, "position": 1}, "bad_parameters"),
    ],
)
def test_bad_targets_are_refused(kw, code):
    """RULES §8.1 Machete, §7.3: another living seat, holding a gun, with no face-up Leader."""
    s = deal({0: "machete"}, guns={0: 1, 1: 2, 3: 1}, options=EXTRA)
    s = shot_earlier(revealed(s, 1, 1), 3)
    assert refused_unchanged(s, play(0, "machete", **kw)) == code


def test_a_wounded_leader_shows_its_card():
    """RULES §8.1 Machete, §4 (a shot Leader's cards are all face up): a wounded Leader cannot be
    chosen."""
    s = shot_earlier(deal({0: "machete"}, guns={1: 2}, options=EXTRA), 1, shooter=2)
    assert legal_plays(s, 0, "machete") == []
    assert refused_unchanged(s, play(0, "machete", target=1)) == "target_is_leader"


def test_a_zombie_with_arms_aimed_at_another_seat_is_armed():
    """RULES §8 ('equipment that acts on guns and shooting acts on Arms and biting the same way'),
    §8.1 Machete: zombie 2's Arms aim at seat 0: it may be chosen; shot, its Arms turn to aim at
    itself (it is not eliminated)."""
    s = zdeal({0: "machete"}, zombies={2: 0})
    assert [c.target for c in legal_plays(s, 0, "machete")] == [2]
    s, events = act(s, play(0, "machete", target=2))
    assert events[1:] == [E.SeatShot(shooter=0, target=2), E.ArmsAimed(seat=2, target=2)]
    assert s.seat(2).zombie and not s.seat(2).eliminated and s.seat(2).arms_aim == 2
    assert violations(s) == []


def test_a_zombie_with_arms_aimed_at_itself_is_not_armed():
    """RULES §8 (Arms aimed at itself: as a dropped gun), §8.1 Machete, §7.3."""
    s = zdeal({0: "machete"}, zombies={2: 2})
    assert legal_plays(s, 0, "machete") == []
    assert refused_unchanged(s, play(0, "machete", target=2)) == "no_gun"


def test_wrong_moments_are_refused():
    """RULES §6: from one's own hand, in one's own turn or when asked in a window."""
    s = deal({1: "machete"}, guns={0: 1}, options=EXTRA)
    wrong_moments(s, play(1, "machete", target=0))


@pytest.mark.parametrize("options", BOTH)
def test_every_listed_play_is_accepted(options):
    """RULES §7.3: one play per other armed seat with no face-up Leader (not your own gun)."""
    s = revealed(deal({0: "machete"}, guns={0: 1, 1: 0, 2: 0, 3: 0}, options=options), 3, 1)
    assert [c.target for c in legal_plays(s, 0, "machete")] == [1, 2, 3]
    assert accept_all(s, 0, "machete") == 3
    w = open_window(deal({2: "machete"}, guns={0: 1}, options=options), "shoot")
    assert accept_all(w, 2, "machete") == 1
