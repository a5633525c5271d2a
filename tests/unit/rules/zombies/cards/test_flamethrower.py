"""Flamethrower (RULES §8.1, Zombies only): every zombie is shot, by you: its Arms turn to aim at
itself (RULES §8, shooting a zombie). Needs a zombie. Decision: a zombie playing it is shot too."""

from __future__ import annotations

import pytest

from gcbc.rules.setup import equipment_deck
from tests.support import EXTRA, ZOMBIES, C, E, act
from tests.unit.rules.equipment.scenario import (
    WINDOWS,
    accept_all,
    end_turn,
    legal_plays,
    of,
    one,
    open_window,
    play,
    refused_unchanged,
)
from tests.unit.rules.zombies.cards.given import wrong_moments
from tests.unit.rules.zombies.given import zdeal


def test_every_zombie_is_shot():
    """RULES §8.1 Flamethrower, §8: seat 0 plays it on its own turn (not its action): both zombies
    are shot by seat 0, their Arms turn on themselves; nobody is eliminated."""
    s = zdeal({0: "flamethrower"}, zombies={2: 0, 3: 1})
    s, events = act(s, play(0, "flamethrower"))
    assert events[1:] == [
        E.SeatShot(shooter=0, target=2),
        E.ArmsAimed(seat=2, target=2),
        E.SeatShot(shooter=0, target=3),
        E.ArmsAimed(seat=3, target=3),
    ]
    assert s.seat(2).arms_aim == 2 and s.seat(3).arms_aim == 3
    assert s.seat(2).zombie and s.seat(3).zombie
    assert s.step == "action" and s.turn_seat == 0 and s.deck[-1] == "flamethrower"


def test_a_zombie_playing_it_is_shot_too():
    """RULES §8.1 Flamethrower ('every zombie'; decision: its player too)."""
    s = zdeal({2: "flamethrower"}, zombies={2: 0, 3: 0}, first_seat=2)
    s, events = act(s, play(2, "flamethrower"))
    assert [e.target for e in of(events, E.SeatShot)] == [2, 3]
    assert [e.shooter for e in of(events, E.SeatShot)] == [2, 2]
    assert s.seat(2).arms_aim == 2


@pytest.mark.parametrize("window", WINDOWS)
def test_in_a_window(window):
    """RULES §8.1 Flamethrower (any window), §6."""
    s = zdeal({1: "flamethrower"}, zombies={3: 1}, guns={0: 2})
    s = open_window(s, window, avoid=(3,))
    s, events = act(s, play(1, "flamethrower"))
    assert one(events, E.SeatShot) == E.SeatShot(shooter=1, target=3)
    assert s.seat(3).arms_aim == 3


def test_in_the_bite_window_the_bite_becomes_impossible():
    """RULES §8.1 Flamethrower, §8 (a bite opens a window like a shot; a zombie whose Arms aim at
    itself cannot bite), §6 (the declared action became impossible: the zombie chooses again)."""
    s = zdeal({0: "flamethrower"}, zombies={2: 0})
    s = end_turn(end_turn(s))
    assert s.turn_seat == 2
    s, _ = act(s, C.Bite(seat=2))
    assert s.window.kind == "bite"
    s, events = act(s, play(0, "flamethrower"))
    assert one(events, E.ActionCancelled) == E.ActionCancelled(seat=2, reason="impossible")
    assert of(events, E.SeatBitten) == [] and s.wounds == frozenset()
    assert s.step == "action" and s.turn_seat == 2
    assert refused_unchanged(s, C.Bite(seat=2)) == "not_aimed_to_bite"


def test_without_a_zombie_it_is_refused():
    """RULES §8.1 Flamethrower, §7.3 (needs a zombie)."""
    s = zdeal({0: "flamethrower"})
    assert legal_plays(s, 0, "flamethrower") == []
    assert refused_unchanged(s, play(0, "flamethrower")) == "no_effect"


def test_parameters_are_refused():
    """RULES §8.1 Flamethrower, §7.3: it takes no parameter."""
    s = zdeal({0: "flamethrower"}, zombies={2: 0})
    assert refused_unchanged(s, play(0, "flamethrower", target=2)) == "bad_parameters"
    assert refused_unchanged(s, play(0, "flamethrower", targets=(2,))) == "bad_parameters"


def test_wrong_moments_are_refused():
    """RULES §6: from one's own hand, in one's own turn or when asked in a window."""
    s = zdeal({1: "flamethrower"}, zombies={2: 0}, guns={0: 1})
    wrong_moments(s, play(1, "flamethrower"))


def test_only_in_the_zombies_deck():
    """RULES §8.1: Flamethrower needs zombies: extra equipment alone does not add it."""
    assert "flamethrower" in equipment_deck(ZOMBIES, 4)
    assert "flamethrower" not in equipment_deck(EXTRA, 4)


def test_every_listed_play_is_accepted():
    """RULES §7.3: the one play, listed while a zombie is in the game."""
    s = zdeal({0: "flamethrower"}, zombies={3: 3})
    assert legal_plays(s, 0, "flamethrower") == [play(0, "flamethrower")]
    assert accept_all(s, 0, "flamethrower") == 1
