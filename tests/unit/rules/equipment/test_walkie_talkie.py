"""Walkie Talkie (RULES §7.1): choose a seat: every seat holding a gun aims at it (a gun holder
chosen as the target keeps its own aim). Engine: playable only if some aim would change (§7.3)."""

from __future__ import annotations

import pytest

from gcbc.rules import public_view
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


def test_every_other_gun_turns_to_the_chosen_seat():
    """RULES §7.1 Walkie Talkie: seat 0 names seat 2; seats 1 and 3 turn their guns to it; seat 2
    (armed, the target) keeps its aim; seat 0's own gun turns too."""
    s = deal({0: "walkie_talkie"}, guns={0: 1, 1: 0, 2: 1, 3: 0})
    s, events = act(s, play(0, "walkie_talkie", target=2))
    assert of(events, E.GunAimed) == [
        E.GunAimed(seat=0, target=2),
        E.GunAimed(seat=1, target=2),
        E.GunAimed(seat=3, target=2),
    ]
    assert [s.seat(i).aim for i in range(4)] == [2, 2, 1, 2]
    assert [x.gun.aimed_at for x in public_view(s, log=False).seats] == [2, 2, 1, 2]
    assert s.step == "action" and s.turn_seat == 0 and s.deck[-1] == "walkie_talkie"


def test_the_player_may_name_itself():
    """RULES §7.1 Walkie Talkie (choose a seat): seat 0 names itself; its own gun keeps its aim."""
    s = deal({0: "walkie_talkie"}, guns={0: 1, 3: 1})
    s, events = act(s, play(0, "walkie_talkie", target=0))
    assert of(events, E.GunAimed) == [E.GunAimed(seat=3, target=0)]
    assert (s.seat(0).aim, s.seat(3).aim) == (1, 0)


@pytest.mark.parametrize("window", WINDOWS)
def test_in_a_window(window):
    """RULES §7.1 Walkie Talkie (any window)."""
    s = open_window(deal({2: "walkie_talkie"}, guns={0: 1, 3: 1}), window)
    s, events = act(s, play(2, "walkie_talkie", target=2))
    assert {e.seat for e in of(events, E.GunAimed) if e.target == 2} == {0, 3}
    assert (s.seat(0).aim, s.seat(3).aim) == (2, 2)


def test_in_the_shoot_window_the_shooter_may_choose_again():
    """RULES §6 (equipment changed the situation: the shooter may choose a new action), §7.1
    Walkie Talkie: the shooter's gun now aims at seat 3; seat 0 chooses again and shoots seat 3."""
    s = open_window(deal({2: "walkie_talkie"}, guns={0: 1}), "shoot")
    s, events = act(s, play(2, "walkie_talkie", target=3))
    assert one(events, E.ActionCancelled) == E.ActionCancelled(seat=0, reason="reconsider")
    assert of(events, E.SeatShot) == []
    assert s.step == "action" and s.seat(0).aim == 3
    s, events = act(s, C.Shoot(seat=0))
    assert one(events, E.SeatShot) == E.SeatShot(shooter=0, target=3)


@pytest.mark.parametrize(
    ("kw", "code"),
    [
        ({"target": 1}, "no_effect"),  # every other gun aims at seat 1 already
        ({"target": 3}, "target_eliminated"),
        ({"target": 9}, "invalid_target"),
        ({}, "bad_parameters"),
        ({"target": 2, "aim": 2}, "bad_parameters"),
    ],
)
def test_bad_targets_are_refused(kw, code):
    """RULES §7.1 Walkie Talkie, §7.3 (a card can only be played when its effect can happen): a
    living seat, and some aim must change."""
    s = shot_earlier(deal({0: "walkie_talkie"}, guns={0: 1, 2: 1}), 3)
    assert refused_unchanged(s, play(0, "walkie_talkie", **kw)) == code


def test_without_guns_it_is_not_playable():
    """RULES §7.3."""
    s = deal({0: "walkie_talkie"})
    assert legal_plays(s, 0, "walkie_talkie") == []
    assert refused_unchanged(s, play(0, "walkie_talkie", target=1)) == "no_effect"


def test_every_listed_play_is_accepted():
    """RULES §7.3: every living seat some gun would turn to (not seat 3, aimed at by both guns)."""
    s = deal({0: "walkie_talkie"}, guns={1: 3, 2: 3})
    assert [c.target for c in legal_plays(s, 0, "walkie_talkie")] == [0, 1, 2]
    assert accept_all(s, 0, "walkie_talkie") == 3
    t = deal({0: "walkie_talkie"}, guns={1: 2})
    assert [c.target for c in legal_plays(t, 0, "walkie_talkie")] == [0, 3]
