"""Taser, classic wording (RULES §7.2): your own turn, as your action: take the gun of any seat and
aim it. Then the turn goes on to the Aim phase (§3.2) and its end."""

from __future__ import annotations

import pytest

from gcbc.rules import legal_commands
from gcbc_contract import events as E
from tests.support import C, act, pass_window, table, types
from tests.unit.rules.equipment.classic import CLASSIC, CLASSIC_ZOMBIES
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


def test_taking_a_gun_is_the_action_then_the_aim_phase():
    """RULES §7.2 Taser (as your action), §5 (a gained gun is aimed at once), §3.2: seat 0 takes
    seat 1's gun aimed at seat 3; its action is over, so it is in its Aim phase; nothing is turned
    face up; the gun is not locked (no Shoot is open anyway)."""
    s = deal({0: "taser"}, guns={1: 2}, options=CLASSIC)
    centre = s.guns_in_centre
    s, events = act(s, play(0, "taser", target=1, aim=3))
    assert types(events) == ["EquipmentPlayed", "GunTaken", "ActionResolved", "AimRequested"]
    assert one(events, E.GunTaken) == E.GunTaken(seat=0, aim=3, from_seat=1)
    assert one(events, E.ActionResolved) == E.ActionResolved(seat=0)
    assert (s.seat(0).gun, s.seat(0).aim) == (True, 3)
    assert (s.seat(1).gun, s.seat(1).aim) == (False, None)
    assert s.guns_in_centre == centre and s.guns_locked == frozenset()
    assert s.seat(0).face_up == (False, False, False)
    assert s.step == "aim" and s.turn_seat == 0 and s.deck[-1] == "taser"
    # no second action: only the Aim phase is open
    assert refused_unchanged(s, C.Investigate(seat=0, target=1, position=1)) == "wrong_phase"
    assert all(isinstance(c, (C.Aim, C.SetAutoPass)) for c in legal_commands(s, 0))
    # it may keep its aim; then the end-of-turn window, then seat 1's turn
    s, events = act(s, C.Aim(seat=0, target=3))
    assert one(events, E.WindowOpened).kind == "end_of_turn"
    s = pass_window(s)
    assert s.turn_seat == 1 and s.seat(0).aim == 3


def test_may_aim_at_the_seat_it_took_the_gun_from_and_re_aim_in_the_aim_phase():
    """RULES §7.2 Taser, §5 (any living seat other than yourself), §3.2."""
    s = deal({0: "taser"}, guns={2: 1}, options=CLASSIC)
    s, events = act(s, play(0, "taser", target=2, aim=2))
    assert one(events, E.GunTaken).aim == 2
    s, _ = act(s, C.Aim(seat=0, target=1))
    assert s.seat(0).aim == 1


def test_the_gun_shoots_on_a_later_turn():
    """RULES §7.2 Taser: the gun is the seat's; at its next turn it may shoot with it."""
    s = deal({0: "taser"}, guns={1: 2}, options=CLASSIC)
    s, _ = act(s, play(0, "taser", target=1, aim=3))
    s = end_turn(s)
    while s.turn_seat != 0:
        s = end_turn(s)
    assert C.Shoot(seat=0) in legal_commands(s, 0)
    s, events = act(s, C.Shoot(seat=0))
    assert one(events, E.ActionDeclared) == E.ActionDeclared(seat=0, action="shoot", target=3)


def test_listed_with_the_actions_of_the_turn():
    """RULES §7.2 Taser (your own turn, as your action): listed beside the turn's actions."""
    s = deal({0: "taser"}, guns={1: 2}, options=CLASSIC)
    options = legal_commands(s, 0)
    assert play(0, "taser", target=1, aim=2) in options
    assert any(isinstance(c, C.Investigate) for c in options)


@pytest.mark.parametrize("window", ["investigate", "shoot", "end_of_turn", "start_of_game"])
def test_never_in_a_window(window):
    """RULES §7.2 Taser (your own turn, as your action): refused in every window, even the turn
    seat's own."""
    if window == "start_of_game":
        s = table(FOUR, [["taser"], [], [], []], start_window=False, options=CLASSIC)
    else:
        s = open_window(deal({0: "taser"}, guns={0: 1, 2: 3}, options=CLASSIC), window)
    assert s.window is not None and 0 in s.window.pending
    assert legal_plays(s, 0, "taser") == []
    assert refused_unchanged(s, play(0, "taser", target=2, aim=1)) == "not_playable_now"


def test_not_in_another_seats_turn_nor_after_the_action():
    """RULES §7.2 Taser (your own turn, as your action): not in seat 0's turn for seat 2, nor in
    seat 0's Aim phase after its action."""
    s = deal({2: "taser"}, guns={0: 1, 1: 3}, options=CLASSIC)
    assert refused_unchanged(s, play(2, "taser", target=1, aim=3)) == "not_playable_now"
    t = deal({0: "taser"}, guns={1: 3}, options=CLASSIC)
    t, _ = act(t, C.Arm(seat=0, target=2, position=2))
    assert t.step == "aim"
    assert refused_unchanged(t, play(0, "taser", target=1, aim=3)) == "not_playable_now"


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
    """RULES §7.2 Taser, §7.3, §5: another living seat holding a gun, aimed at a living seat other
    than yourself."""
    s = shot_earlier(deal({0: "taser"}, guns={1: 2}, options=CLASSIC), 3)
    assert refused_unchanged(s, play(0, "taser", **kw)) == code


def test_not_while_holding_a_gun():
    """RULES §7.2 Taser, §5 (at most one gun)."""
    s = deal({0: "taser"}, guns={0: 2, 1: 2}, options=CLASSIC)
    assert legal_plays(s, 0, "taser") == []
    assert refused_unchanged(s, play(0, "taser", target=1, aim=2)) == "has_gun"


def test_not_when_k9_unit_barred_the_seat_from_taking_a_gun():
    """RULES §7.2 K-9 Unit (it may not take a gun this turn) and Taser: seat 0 declares a shot;
    seat 1's K-9 Unit makes it drop its gun; seat 0 chooses again but may not take a gun, neither
    by Arm nor by Taser."""
    s = deal({0: "taser", 1: "k9_unit"}, guns={0: 2, 3: 1}, options=CLASSIC)
    s, _ = act(s, C.Shoot(seat=0))
    s, _ = act(s, play(1, "k9_unit", target=0))
    s = pass_window(s)
    assert s.step == "action" and s.turn_seat == 0 and s.arm_barred == 0
    assert legal_plays(s, 0, "taser") == []
    assert refused_unchanged(s, play(0, "taser", target=3, aim=1)) == "arm_barred"


def test_zombies_neither_play_it_nor_are_its_target():
    """RULES §8 (Taser cannot target a zombie; zombies cannot steal a gun), §7.2 Taser."""
    s = deal({0: "taser"}, guns={1: 2}, options=CLASSIC_ZOMBIES)
    s = shot_earlier(s, 3)
    assert s.seat(3).zombie
    assert refused_unchanged(s, play(0, "taser", target=3, aim=1)) == "target_is_zombie"
    assert {c.target for c in legal_plays(s, 0, "taser")} == {1}
    z = deal({2: "taser"}, guns={0: 1}, first_seat=2, options=CLASSIC_ZOMBIES)
    z = shot_earlier(z, 2)
    assert z.seat(2).zombie and z.turn_seat == 2 and z.seat(2).hand == ("taser",)
    assert legal_plays(z, 2, "taser") == []
    assert refused_unchanged(z, play(2, "taser", target=0, aim=1)) == "zombie_cannot"


def test_every_listed_play_is_accepted():
    """RULES §7.3: each other armed seat, each aim at another living seat: 2 x 3 plays."""
    s = deal({0: "taser"}, guns={1: 2, 3: 1}, options=CLASSIC)
    plays = legal_plays(s, 0, "taser")
    assert {(c.target, c.aim) for c in plays} == {(t, a) for t in (1, 3) for a in (1, 2, 3)}
    assert accept_all(s, 0, "taser") == 6
