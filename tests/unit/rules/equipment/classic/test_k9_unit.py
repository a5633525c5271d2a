"""K-9 Unit, classic wording (RULES §7.2): a seat holding a gun drops it; if it is that seat's
turn, it may not take a gun this turn. With Zombies (§8), a zombie's Arms turn to aim at itself."""

from __future__ import annotations

import pytest

from gcbc.rules import legal_commands
from gcbc_contract import events as E
from tests.support import C, act, pass_window
from tests.unit.rules.equipment.classic import CLASSIC, CLASSIC_ZOMBIES
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
)


def test_another_seat_drops_its_gun():
    """RULES §7.2 K-9 Unit: in seat 0's turn, seat 2's gun goes to the centre; seat 2 is not
    barred (it is not its turn)."""
    s = deal({0: "k9_unit"}, guns={2: 1}, options=CLASSIC)
    centre = s.guns_in_centre
    s, events = act(s, play(0, "k9_unit", target=2))
    assert one(events, E.GunDropped) == E.GunDropped(seat=2)
    assert not s.seat(2).gun and s.seat(2).aim is None
    assert s.guns_in_centre == centre + 1 and s.arm_barred is None
    assert s.step == "action" and s.turn_seat == 0


def test_the_turn_seat_drops_its_gun_and_may_not_take_one_this_turn():
    """RULES §7.2 K-9 Unit (if it is that seat's turn, it may not take a gun this turn), §6: seat
    0 declares a shot; in the shoot window seat 1 makes it drop its gun; the shot cannot happen,
    seat 0 chooses again, but may not Arm although a gun is in the centre."""
    s = deal({1: "k9_unit"}, guns={0: 2}, options=CLASSIC)
    s = open_window(s, "shoot")
    s, events = act(s, play(1, "k9_unit", target=0))
    assert one(events, E.GunDropped) == E.GunDropped(seat=0, barred=True)
    assert s.arm_barred == 0
    s = pass_window(s)
    assert s.step == "action" and s.turn_seat == 0 and s.guns_in_centre > 0
    assert not any(isinstance(c, C.Arm) for c in legal_commands(s, 0))
    assert refused_unchanged(s, C.Arm(seat=0, target=2, position=1)) == "arm_barred"
    s, events = act(s, C.Investigate(seat=0, target=1, position=1))
    # the bar ends with the turn: at seat 0's next turn it may take a gun again
    while s.turn_seat != 0 or s.step != "action":
        s = end_turn(s)
    assert s.arm_barred is None
    assert C.Arm(seat=0, target=2, position=1) in legal_commands(s, 0)


def test_on_yourself_in_your_own_turn():
    """RULES §7.2 K-9 Unit (a seat holding a gun: yourself too; it is your turn, so you may not
    take a gun this turn)."""
    s = deal({0: "k9_unit"}, guns={0: 2}, options=CLASSIC)
    s, events = act(s, play(0, "k9_unit", target=0))
    assert one(events, E.GunDropped) == E.GunDropped(seat=0, barred=True)
    assert refused_unchanged(s, C.Arm(seat=0, target=2, position=1)) == "arm_barred"


@pytest.mark.parametrize("window", WINDOWS)
def test_in_a_window(window):
    """RULES §7.2 K-9 Unit (any window): seat 3 makes seat 2 drop its gun."""
    s = open_window(deal({3: "k9_unit"}, guns={0: 1, 2: 1}, options=CLASSIC), window)
    s, events = act(s, play(3, "k9_unit", target=2))
    assert one(events, E.GunDropped) == E.GunDropped(seat=2)


def test_a_zombie_aims_its_arms_at_itself():
    """RULES §8 (equipment that would make a zombie drop its gun makes it aim its Arms at itself),
    §7.2 K-9 Unit: zombie 2 aims at seat 0; afterwards it cannot bite, and is no longer listed."""
    s = shot_earlier(deal({0: "k9_unit", 1: "coffee"}, options=CLASSIC_ZOMBIES), 2)
    s = end_turn(s)
    s = end_turn(s)
    assert s.turn_seat == 2 and s.seat(2).zombie
    s, _ = act(s, C.Equip(seat=2))
    s, _ = act(s, C.Aim(seat=2, target=0))
    assert s.seat(2).arms_aim == 0 and s.window.kind == "end_of_turn"
    assert 2 in {c.target for c in legal_plays(s, 0, "k9_unit")}
    s, events = act(s, play(0, "k9_unit", target=2))
    assert one(events, E.ArmsAimed) == E.ArmsAimed(seat=2, target=2)
    assert s.seat(2).arms_aim == 2 and s.seat(2).zombie


def test_a_zombie_whose_arms_aim_at_itself_is_not_a_target():
    """RULES §7.3 (only when its effect can happen): a new zombie's Arms aim at itself."""
    s = shot_earlier(deal({0: "k9_unit"}, guns={1: 0}, options=CLASSIC_ZOMBIES), 2)
    assert s.seat(2).arms_aim == 2
    assert [c.target for c in legal_plays(s, 0, "k9_unit")] == [1]
    assert refused_unchanged(s, play(0, "k9_unit", target=2)) == "no_effect"


def test_refusals():
    """RULES §7.2 K-9 Unit, §7.3: a living seat holding a gun; one ``target``."""
    s = shot_earlier(deal({0: "k9_unit"}, guns={1: 0}, options=CLASSIC), 3)
    assert refused_unchanged(s, play(0, "k9_unit", target=2)) == "no_gun"
    assert refused_unchanged(s, play(0, "k9_unit", target=0)) == "no_gun"
    assert refused_unchanged(s, play(0, "k9_unit", target=3)) == "target_eliminated"
    assert refused_unchanged(s, play(0, "k9_unit", target=9)) == "invalid_target"
    assert refused_unchanged(s, play(0, "k9_unit")) == "bad_parameters"
    assert refused_unchanged(s, play(0, "k9_unit", target=1, aim=2)) == "bad_parameters"
    assert refused_unchanged(s, play(2, "k9_unit", target=1)) == "card_not_in_hand"


def test_nobody_armed():
    """RULES §7.3 (K-9 Unit needs an armed seat)."""
    s = deal({0: "k9_unit"}, options=CLASSIC)
    assert legal_plays(s, 0, "k9_unit") == []
    assert refused_unchanged(s, play(0, "k9_unit", target=1)) == "no_gun"


def test_every_listed_play_is_accepted():
    """RULES §7.3: one play per armed seat, yourself included."""
    s = deal({0: "k9_unit"}, guns={0: 1, 3: 1}, options=CLASSIC)
    assert [c.target for c in legal_plays(s, 0, "k9_unit")] == [0, 3]
    assert accept_all(s, 0, "k9_unit") == 2
