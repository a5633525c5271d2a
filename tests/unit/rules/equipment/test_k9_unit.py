"""K-9 Unit (RULES §7.1): choose a seat holding a gun: it drops the gun to the centre."""

from __future__ import annotations

import pytest

from gcbc.rules import legal_commands, public_view
from gcbc_contract import events as E
from tests.support import C, act
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


def test_own_turn_drops_another_seats_gun():
    """RULES §7.1 K-9 Unit: seat 1's gun returns to the centre; its aim is gone; not an action."""
    s = deal({0: "k9_unit"}, guns={1: 2, 3: 1})
    centre = s.guns_in_centre
    s, events = act(s, play(0, "k9_unit", target=1))
    assert one(events, E.GunDropped) == E.GunDropped(seat=1)
    assert s.seat(1).gun is False and s.seat(1).aim is None
    assert s.guns_in_centre == centre + 1
    assert s.seat(3).gun and s.seat(3).aim == 1  # other guns are untouched
    v = public_view(s, log=False)
    assert v.seats[1].gun is None and v.guns_in_centre == centre + 1
    assert s.step == "action" and s.turn_seat == 0 and s.deck[-1] == "k9_unit"


@pytest.mark.parametrize("window", WINDOWS)
def test_in_a_window(window):
    """RULES §7.1 K-9 Unit (any window): seat 2 makes seat 3 drop its gun in seat 0's window."""
    s = deal({2: "k9_unit"}, guns={0: 1, 3: 0})
    s = open_window(s, window)
    s, events = act(s, play(2, "k9_unit", target=3))
    assert one(events, E.GunDropped).seat == 3
    assert not s.seat(3).gun


def test_dropping_the_shooters_gun_cancels_the_shot():
    """RULES §6 (the declared action became impossible: the acting seat chooses again), §7.1 K-9:
    seat 2 makes the shooter drop its gun; nobody is shot; seat 0 chooses a new action and may
    take a gun from the centre again."""
    s = deal({2: "k9_unit"}, guns={0: 1})
    s = open_window(s, "shoot")
    s, events = act(s, play(2, "k9_unit", target=0))
    assert one(events, E.ActionCancelled).seat == 0
    assert of(events, E.SeatShot) == []
    assert s.step == "action" and s.turn_seat == 0 and not s.seat(0).gun
    assert refused_unchanged(s, C.Shoot(seat=0)) == "no_gun"
    assert not any(isinstance(c, C.Shoot) for c in legal_commands(s, 0))
    s, events = act(s, C.Arm(seat=0, target=3, position=2))
    assert one(events, E.GunTaken) == E.GunTaken(seat=0, aim=3)


def test_a_shot_made_impossible_is_cancelled_as_impossible():
    """RULES §6 ('When the declared action can no longer happen (the gun was taken, the target is
    gone), the acting seat must choose again'), contract events.ActionCancelled.reason: impossible |
    reconsider."""
    s = open_window(deal({2: "k9_unit"}, guns={0: 1}), "shoot")
    s, events = act(s, play(2, "k9_unit", target=0))
    assert one(events, E.ActionCancelled) == E.ActionCancelled(seat=0, reason="impossible")


def test_on_its_own_gun():
    """RULES §7.1 K-9 Unit ('a seat holding a gun', the player's included)."""
    s = deal({0: "k9_unit"}, guns={0: 1})
    s, events = act(s, play(0, "k9_unit", target=0))
    assert one(events, E.GunDropped).seat == 0
    assert any(isinstance(c, C.Arm) for c in legal_commands(s, 0))


@pytest.mark.parametrize(
    ("kw", "code"),
    [
        ({"target": 2}, "no_gun"),
        ({"target": 3}, "target_eliminated"),
        ({"target": 9}, "invalid_target"),
        ({}, "bad_parameters"),
        ({"target": 1, "aim": 2}, "bad_parameters"),
        ({"target": 1, "targets": (1,)}, "bad_parameters"),
    ],
)
def test_bad_targets_are_refused(kw, code):
    """RULES §7.1 K-9 Unit, §7.3: a living seat holding a gun."""
    s = shot_earlier(deal({0: "k9_unit"}, guns={1: 2}), 3)
    assert refused_unchanged(s, play(0, "k9_unit", **kw)) == code


def test_without_any_gun_held_it_is_not_playable():
    """RULES §7.3 (K-9 Unit needs an armed seat)."""
    s = deal({0: "k9_unit"})
    assert legal_plays(s, 0, "k9_unit") == []
    assert refused_unchanged(s, play(0, "k9_unit", target=1)) == "no_gun"


def test_every_listed_play_is_accepted():
    """RULES §7.3: one play per armed seat."""
    s = deal({0: "k9_unit"}, guns={0: 1, 1: 0, 3: 1})
    assert [c.target for c in legal_plays(s, 0, "k9_unit")] == [0, 1, 3]
    assert accept_all(s, 0, "k9_unit") == 3
    w = open_window(deal({2: "k9_unit"}, guns={0: 1}), "shoot")
    assert accept_all(w, 2, "k9_unit") == 1
