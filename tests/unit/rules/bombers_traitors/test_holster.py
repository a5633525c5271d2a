"""Holster (RULES §9): shoot window only (and the bite window, §8), only as the shooter: change
your aim, to a living seat other than yourself and the current target, before shooting. Needs 3
living seats. Forces the shot (§6)."""

from __future__ import annotations

import pytest

from gcbc_contract import events as E
from tests.support import BOMBERS, C, act, table
from tests.unit.rules.bombers_traitors.givens import NO_ROLES, ZOMBIES_BT, bt_deal, zombie
from tests.unit.rules.equipment.scenario import (
    accept_all,
    legal_plays,
    of,
    one,
    open_window,
    play,
    refused_unchanged,
    shot_earlier,
)

CARD = "holster"


def given(hands, **kw):
    """No role at the table (seat 0 Agent, seat 1 Kingpin, seat 2 honest, seat 3 crooked)."""
    return bt_deal(hands, integrity=NO_ROLES, **kw)


def test_the_shooter_re_aims_and_the_shot_is_forced():
    """RULES §9 Holster, §6 (forced shot): seat 0 shoots seat 1 and plays Holster aiming at seat 3:
    its gun aims there, and seat 3 is shot without a new choice."""
    s = open_window(given({0: CARD, 1: "coffee"}, guns={0: 1}), "shoot")
    s, events = act(s, play(0, CARD, aim=3))
    assert events[:3] == [
        E.EquipmentPlayed(seat=0, card=CARD, aim=3),
        E.GunAimed(seat=0, target=3),
        E.ShotRedirected(target=3),
    ]
    assert s.seat(0).aim == 3 and s.declared.forced_target == 3
    assert one(events, E.WindowReopened).asked == (1,)
    s, events = act(s, C.Pass(seat=1))
    assert of(events, E.ActionCancelled) == []
    assert one(events, E.SeatShot) == E.SeatShot(shooter=0, target=3)
    assert s.seat(3).eliminated and not s.seat(1).eliminated


def test_a_biting_zombie_re_aims_its_arms():
    """RULES §9 Holster with §8 (equipment that affects shooting affects biting): the zombie at
    seat 3 (it keeps its equipment) bites seat 1, plays Holster aiming its Arms at seat 2: the
    forced bite lands on seat 2, which rises as a zombie."""
    s = given({3: CARD}, options=ZOMBIES_BT, first_seat=2)
    s = zombie(s, 3, aim=1)
    s, _ = act(s, C.Bite(seat=3))
    assert s.window.kind == "bite"
    assert legal_plays(s, 3, CARD) == [play(3, CARD, aim=t) for t in (0, 2)]
    s, events = act(s, play(3, CARD, aim=2))
    assert events[1:3] == [E.ArmsAimed(seat=3, target=2), E.ShotRedirected(target=2)]
    assert one(events, E.SeatBitten) == E.SeatBitten(biter=3, target=2)
    assert one(events, E.BecameZombie).seat == 2


def test_only_the_shooter_may_play_it():
    """RULES §9 Holster (only as the shooter): another holder asked in the shoot window may not."""
    s = open_window(given({2: CARD}, guns={0: 1}), "shoot")
    assert legal_plays(s, 2, CARD) == []
    assert refused_unchanged(s, play(2, CARD, aim=3)) == "not_playable_now"


def test_the_current_target_is_the_redirected_one():
    """RULES §9 Holster (not the current target): after Classified Orders sent the shot to seat 2,
    the shooter may holster back to seat 1, not to seat 2."""
    s = open_window(given({0: CARD, 2: "classified_orders"}, guns={0: 1}), "shoot")
    s, _ = act(s, play(2, "classified_orders", target=3))
    s, _ = act(s, C.Choose(seat=3, target=2))
    assert legal_plays(s, 0, CARD) == [play(0, CARD, aim=t) for t in (1, 3)]
    assert refused_unchanged(s, play(0, CARD, aim=2)) == "invalid_target"
    s, events = act(s, play(0, CARD, aim=1))
    assert one(events, E.SeatShot) == E.SeatShot(shooter=0, target=1)


def test_bad_aims_and_parameters():
    """RULES §9 Holster (a living seat other than yourself and the current target), §7.3."""
    s = given({0: CARD, 3: "coffee"}, guns={0: 1})
    s = open_window(shot_earlier(s, 3), "shoot")
    assert refused_unchanged(s, play(0, CARD, aim=1)) == "invalid_target"  # the current target
    assert refused_unchanged(s, play(0, CARD, aim=0)) == "target_is_self"
    assert refused_unchanged(s, play(0, CARD, aim=3)) == "target_eliminated"
    assert refused_unchanged(s, play(0, CARD, aim=9)) == "invalid_target"
    assert refused_unchanged(s, play(0, CARD)) == "bad_parameters"
    assert refused_unchanged(s, play(0, CARD, aim=2, target=2)) == "bad_parameters"


@pytest.mark.parametrize("window", ["own_turn", "investigate", "end_of_turn", "start_of_game"])
def test_only_in_a_shoot_window(window):
    """RULES §9 Holster (shoot window), §6.6."""
    if window == "start_of_game":
        s = table(NO_ROLES, [[CARD], [], [], []], start_window=False, options=BOMBERS)
    elif window == "own_turn":
        s = given({0: CARD}, guns={0: 1})
    else:
        s = open_window(given({0: CARD}, guns={0: 1}), window)
    assert legal_plays(s, 0, CARD) == []
    assert refused_unchanged(s, play(0, CARD, aim=2)) == "not_playable_now"


def test_needs_three_living_seats():
    """RULES §9 Holster (≥ 3 living seats)."""
    s = given({0: CARD}, guns={0: 1})
    s = open_window(shot_earlier(shot_earlier(s, 2), 3), "shoot")
    assert legal_plays(s, 0, CARD) == []
    assert refused_unchanged(s, play(0, CARD, aim=2)) == "not_enough_seats"


def test_no_effect_once_the_shot_cannot_happen():
    """RULES §7.3: a K-9 Unit took the shooter's gun in the window: nothing to holster."""
    s = open_window(given({0: CARD, 1: "k9_unit"}, guns={0: 1}), "shoot")
    s, _ = act(s, play(1, "k9_unit", target=0))
    assert legal_plays(s, 0, CARD) == []
    assert refused_unchanged(s, play(0, CARD, aim=2)) == "no_effect"


def test_every_listed_play_is_accepted():
    """RULES §7.3: exactly the new aims are listed for the shooter, and each is accepted."""
    s = open_window(given({0: CARD}, guns={0: 1}), "shoot")
    assert legal_plays(s, 0, CARD) == [play(0, CARD, aim=t) for t in (2, 3)]
    assert accept_all(s, 0, CARD) == 2
