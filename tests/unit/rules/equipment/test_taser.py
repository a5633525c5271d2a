"""Taser (RULES §7.1): your own turn only. You hold no gun: take the gun of another living seat and
aim it at once (``aim``). You may not shoot it this turn. Does not use your action."""

from __future__ import annotations

import pytest

from gcbc.rules import legal_commands, public_view
from gcbc_contract import events as E
from tests.support import C, act, pass_window, table
from tests.unit.rules.equipment.scenario import (
    FOUR,
    accept_all,
    deal,
    end_turn,
    legal_plays,
    one,
    open_window,
    play,
    refused_unchanged,
    shot_earlier,
)


def test_takes_a_gun_aims_it_and_keeps_the_action():
    """RULES §7.1 Taser, §5 (a gained gun is aimed at once): seat 0 takes seat 1's gun and aims it
    at seat 3; seat 1 holds none; seat 0 still chooses its action."""
    s = deal({0: "taser"}, guns={1: 2})
    centre = s.guns_in_centre
    s, events = act(s, play(0, "taser", target=1, aim=3))
    assert one(events, E.GunTaken) == E.GunTaken(seat=0, aim=3, from_seat=1, locked=True)
    assert (s.seat(0).gun, s.seat(0).aim) == (True, 3)
    assert (s.seat(1).gun, s.seat(1).aim) == (False, None)
    assert s.guns_in_centre == centre and s.guns_locked == {0}
    assert public_view(s, log=False).seats[0].gun.aimed_at == 3
    assert public_view(s, log=False).seats[0].gun.locked
    assert s.step == "action" and s.turn_seat == 0 and s.declared is None
    assert s.seat(0).face_up == (False, False, False)  # unlike Arm, nothing is turned face up
    assert s.deck[-1] == "taser"


def test_the_taken_gun_cannot_shoot_this_turn():
    """RULES §7.1 Taser (you may not shoot it this turn): Shoot is refused and not listed; another
    action is still open."""
    s = deal({0: "taser"}, guns={1: 2})
    s, _ = act(s, play(0, "taser", target=1, aim=3))
    assert refused_unchanged(s, C.Shoot(seat=0)) == "gun_locked"
    options = legal_commands(s, 0)
    assert not any(isinstance(c, (C.Shoot, C.Arm)) for c in options)
    assert any(isinstance(c, C.Investigate) for c in options)
    s, events = act(s, C.Investigate(seat=0, target=1, position=1))
    assert one(events, E.ActionDeclared).action == "investigate"


def test_the_gun_is_free_to_shoot_on_a_later_turn():
    """RULES §7.1 Taser (only this turn): at seat 0's next turn the gun is unlocked."""
    s = deal({0: "taser"}, guns={1: 2})
    s, _ = act(s, play(0, "taser", target=1, aim=3))
    s = end_turn(s)
    assert not s.guns_locked and not public_view(s, log=False).seats[0].gun.locked
    while s.turn_seat != 0:
        s = end_turn(s)
    assert C.Shoot(seat=0) in legal_commands(s, 0)
    s, events = act(s, C.Shoot(seat=0))
    assert one(events, E.SeatShot) == E.SeatShot(shooter=0, target=3)


def test_may_aim_at_the_seat_it_took_the_gun_from():
    """RULES §7.1 Taser, §5 (any living seat other than yourself)."""
    s = deal({0: "taser"}, guns={2: 1})
    s, events = act(s, play(0, "taser", target=2, aim=2))
    assert one(events, E.GunTaken).aim == 2


@pytest.mark.parametrize("window", ["investigate", "shoot", "end_of_turn", "start_of_game"])
def test_never_in_a_window_even_in_its_own_turn(window):
    """RULES §7.1 Taser (your own turn only, before your action): refused in any window, the
    turn seat's own windows included."""
    if window == "start_of_game":
        s = table(FOUR, [["taser"], [], [], []], start_window=False)
    else:
        s = open_window(deal({0: "taser"}, guns={0: 1, 2: 3}), window)
    assert s.window is not None and 0 in s.window.pending
    assert legal_plays(s, 0, "taser") == []
    assert refused_unchanged(s, play(0, "taser", target=2, aim=1)) == "not_playable_now"


def test_not_in_another_seats_turn_nor_after_the_action():
    """RULES §7.1 Taser (your own turn only, before the action): not in seat 0's turn for seat 2;
    not in seat 0's Aim phase."""
    s = deal({2: "taser"}, guns={0: 1, 1: 3})
    assert refused_unchanged(s, play(2, "taser", target=1, aim=3)) == "not_playable_now"
    t = deal({0: "taser"}, guns={1: 3})
    t, _ = act(t, C.Arm(seat=0, target=2, position=2))
    assert t.step == "aim"
    assert refused_unchanged(t, play(0, "taser", target=1, aim=3)) == "not_playable_now"


def test_a_seat_choosing_its_action_again_is_before_its_action_again():
    """RULES §7.1 Taser (window 1 of §6: before you declare your action), §6 (a declared action
    that became impossible is chosen again): a K-9 Unit drops seat 0's gun in its shoot window;
    its shot cancelled, seat 0 has no action yet and may take seat 3's gun (locked this turn)."""
    s = deal({0: "taser", 2: "k9_unit"}, guns={0: 1, 3: 2})
    s = open_window(s, "shoot")
    s, _ = act(s, play(2, "k9_unit", target=0))
    s = pass_window(s)
    assert s.step == "action" and s.declared is None and not s.seat(0).gun
    assert {(c.target, c.aim) for c in legal_plays(s, 0, "taser")} == {(3, 1), (3, 2), (3, 3)}
    s, events = act(s, play(0, "taser", target=3, aim=1))
    assert one(events, E.GunTaken) == E.GunTaken(seat=0, aim=1, from_seat=3, locked=True)
    assert refused_unchanged(s, C.Shoot(seat=0)) == "gun_locked"


@pytest.mark.parametrize(
    ("kw", "code"),
    [
        ({"target": 2, "aim": 1}, "no_gun"),
        ({"target": 0, "aim": 1}, "target_is_self"),
        ({"target": 3, "aim": 1}, "target_eliminated"),
        ({"target": 9, "aim": 1}, "invalid_target"),
        ({"target": 1, "aim": 0}, "target_is_self"),
        ({"target": 1, "aim": 3}, "target_eliminated"),
        ({"target": 1, "aim": 7}, "invalid_target"),
        ({"target": 1}, "bad_parameters"),
        ({"aim": 2}, "bad_parameters"),
        ({"target": 1, "aim": 2, "position": 1}, "bad_parameters"),
    ],
)
def test_bad_targets_are_refused(kw, code):
    """RULES §7.1 Taser, §7.3, §5: another living armed seat, aimed at another living seat."""
    s = shot_earlier(deal({0: "taser"}, guns={1: 2}), 3)
    assert refused_unchanged(s, play(0, "taser", **kw)) == code


def test_not_while_holding_a_gun():
    """RULES §7.1 Taser (you hold no gun), §5 (at most one gun)."""
    s = deal({0: "taser"}, guns={0: 2, 1: 2})
    assert legal_plays(s, 0, "taser") == []
    assert refused_unchanged(s, play(0, "taser", target=1, aim=2)) == "has_gun"


def test_every_listed_play_is_accepted():
    """RULES §7.3: each armed other seat, each aim at another living seat: 2 x 3 plays."""
    s = deal({0: "taser"}, guns={1: 2, 3: 1})
    plays = legal_plays(s, 0, "taser")
    assert {(c.target, c.aim) for c in plays} == {(t, a) for t in (1, 3) for a in (1, 2, 3)}
    assert accept_all(s, 0, "taser") == 6
