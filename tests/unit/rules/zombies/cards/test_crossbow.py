"""Crossbow (RULES §8.1): choose a non-wounded living seat whose gun aims at you: it is shot, by
you (RULES §4). Decision (RULES §8, guns affect Arms the same way): a zombie whose Arms aim at you
may be chosen too."""

from __future__ import annotations

import pytest

from gcbc.rules import legal_commands
from gcbc.rules.invariants import violations
from tests.support import EXTRA, ZOMBIES, C, E, act
from tests.unit.rules.equipment.scenario import (
    WINDOWS,
    accept_all,
    deal,
    legal_plays,
    of,
    one,
    open_window,
    pass_current,
    play,
    refused_unchanged,
    shot_earlier,
)
from tests.unit.rules.zombies.cards.given import BOTH, wrong_moments
from tests.unit.rules.zombies.given import zdeal


def test_own_turn_shoots_the_seat_aiming_at_you():
    """RULES §8.1 Crossbow, §4 (extra equipment, no zombies): seat 2's gun aims at seat 0; seat 0
    shoots it with the Crossbow, on its own turn and not as its action: seat 2 is eliminated (by
    seat 0) and its gun returns to the centre."""
    s = deal({0: "crossbow"}, guns={2: 0, 3: 1}, options=EXTRA)
    centre = s.guns_in_centre
    s, events = act(s, play(0, "crossbow", target=2))
    assert events[1:] == [
        E.SeatShot(shooter=0, target=2),
        E.CardRevealed(seat=2, position=1, card_id=6, card="honest"),
        E.CardRevealed(seat=2, position=2, card_id=7, card="crooked"),
        E.CardRevealed(seat=2, position=3, card_id=8, card="honest"),
        E.SeatEliminated(seat=2, by=0),
    ]
    assert s.seat(2).eliminated and s.guns_in_centre == centre + 1
    assert s.step == "action" and s.turn_seat == 0 and s.deck[-1] == "crossbow"
    assert violations(s) == []


def test_with_zombies_the_seat_shot_becomes_a_zombie():
    """RULES §8.1 Crossbow, §8 (becoming a zombie): the non-Leader shot rises as a zombie, drops
    its gun and takes Arms aimed at itself."""
    s = zdeal({0: "crossbow"}, guns={2: 0})
    s, events = act(s, play(0, "crossbow", target=2))
    assert one(events, E.BecameZombie) == E.BecameZombie(seat=2, by=0)
    assert s.seat(2).zombie and not s.seat(2).gun and s.seat(2).arms_aim == 2


@pytest.mark.parametrize("options", BOTH)
def test_a_leader_shot_is_wounded(options):
    """RULES §8.1 Crossbow, §4: the Kingpin (not wounded) aims at seat 0: shot, it is wounded and
    draws."""
    s = deal({0: "crossbow"}, guns={1: 0}, options=options)
    top = s.deck[0]
    s, events = act(s, play(0, "crossbow", target=1))
    assert one(events, E.LeaderWounded) == E.LeaderWounded(seat=1, card_id=3)
    assert one(events, E.EquipmentDrawn) == E.EquipmentDrawn(seat=1, card=top)
    assert not s.seat(1).eliminated and s.seat(1).face_up == (True, True, True)


def test_a_zombie_whose_arms_aim_at_you_turns_them_on_itself():
    """RULES §8.1 Crossbow, §8 (shooting a zombie; equipment affects Arms as guns): the zombie's
    Arms aim at seat 0; shot by the Crossbow, they turn to aim at the zombie itself."""
    s = zdeal({0: "crossbow"}, zombies={3: 0})
    assert [c.target for c in legal_plays(s, 0, "crossbow")] == [3]
    s, events = act(s, play(0, "crossbow", target=3))
    assert events[1:] == [E.SeatShot(shooter=0, target=3), E.ArmsAimed(seat=3, target=3)]
    assert s.seat(3).zombie and s.seat(3).arms_aim == 3


def test_in_its_own_shoot_window_the_turn_seat_may_still_aim_at_the_zombie_it_shot():
    """RULES §8 (the seat whose Shoot hits a zombie keeps its gun and must re-aim), §3.2 (a seat
    may keep a target still valid): a Crossbow the turn's seat plays at a zombie in its own shoot
    window is no Shoot of its gun. It reconsiders (RULES §6), investigates, and in its Aim phase
    may aim at that zombie."""
    s = zdeal({0: "crossbow"}, zombies={3: 0}, guns={0: 2})
    s, _ = act(s, C.Shoot(seat=0))
    s, _ = act(s, play(0, "crossbow", target=3))
    assert s.marks.reaim_from is None
    while s.step == "window":
        s = pass_current(s)
    s, _ = act(s, C.Investigate(seat=0, target=1, position=2))
    while s.step == "window":
        s = pass_current(s)
    assert s.step == "aim" and s.turn_seat == 0
    assert 3 in [c.target for c in legal_commands(s, 0) if isinstance(c, C.Aim)]
    s, events = act(s, C.Aim(seat=0, target=3))
    assert events[0] == E.GunAimed(seat=0, target=3) and violations(s) == []


@pytest.mark.parametrize("window", WINDOWS)
def test_in_a_window(window):
    """RULES §8.1 Crossbow (any window), §6: in seat 0's window, seat 1 shoots seat 3, whose gun
    aims at it."""
    s = deal({1: "crossbow"}, guns={0: 2, 3: 1}, options=EXTRA)
    s = open_window(s, window, avoid=(3,))
    s, events = act(s, play(1, "crossbow", target=3))
    assert one(events, E.SeatShot) == E.SeatShot(shooter=1, target=3)
    assert s.seat(3).eliminated


def test_the_target_shoots_the_shooter_first():
    """RULES §8.1 Crossbow, §6 (the action waits in its window), §4: seat 0 declares a shot at
    seat 2; seat 2 shoots seat 0 (the Agent) first with the Crossbow: wounded, and seat 0's shot
    is then reconsidered (RULES §6: equipment was played in its window)."""
    s = deal({2: "crossbow"}, guns={0: 2}, options=EXTRA)
    s = open_window(s, "shoot")
    s, events = act(s, play(2, "crossbow", target=0))
    assert one(events, E.LeaderWounded).seat == 0
    assert one(events, E.WindowReopened).asked == (0,)  # the card it drew
    s, events = act(s, C.Pass(seat=0))
    assert one(events, E.ActionCancelled) == E.ActionCancelled(seat=0, reason="reconsider")
    assert s.step == "action" and s.seat(0).gun


@pytest.mark.parametrize("window", ["investigate", "shoot"])
@pytest.mark.parametrize(
    ("options", "fell"), [(EXTRA, E.SeatEliminated), (ZOMBIES, E.BecameZombie)]
)
def test_the_turn_seat_shot_in_its_own_window_ends_its_turn_or_chooses_again_as_a_zombie(
    options, fell, window
):
    """RULES §8.1 Crossbow, §4, §8, §6: seat 2 (its gun aimed at seat 3) declares an investigation
    or a shot; in that window seat 3 shoots seat 2 first. Eliminated, seat 2's action never
    happens, it has no Aim phase, and its turn ends. Risen as a zombie, it plays on as one: its
    declared action is no longer possible (a zombie neither investigates nor holds a gun), so it
    chooses again, a zombie's action (its Arms aim at itself: Equip)."""
    s = deal({3: "crossbow"}, guns={2: 3}, first_seat=2, options=options)
    s = open_window(s, window)
    s, events = act(s, play(3, "crossbow", target=2))
    assert one(events, fell).seat == 2
    assert of(events, E.AimRequested) == [] and of(events, E.CardViewed) == []
    assert one(events, E.SeatShot) == E.SeatShot(shooter=3, target=2)  # only the Crossbow's
    assert not s.seat(3).eliminated and violations(s) == []
    if fell is E.SeatEliminated:
        assert of(events, E.ActionCancelled) == []
        assert one(events, E.TurnBegan) == E.TurnBegan(seat=3, turn=2, direction=1)
        return
    assert one(events, E.ActionCancelled) == E.ActionCancelled(seat=2, reason="impossible")
    assert of(events, E.TurnBegan) == [] and s.turn_seat == 2 and s.step == "action"
    assert [c for c in legal_commands(s, 2) if not isinstance(c, C.SetAutoPass)] == [
        C.Equip(seat=2)
    ]


@pytest.mark.parametrize(
    ("kw", "code"),
    [
        ({"target": 1}, "not_aimed"),  # its gun aims at seat 3
        ({"target": 2}, "target_wounded"),  # a wounded Leader (given below)
        ({"target": 0}, "target_is_self"),
        ({"target": 9}, "invalid_target"),
        ({}, "bad_parameters"),
        ({"target": 3, "targets": (3,)}, "bad_parameters"),
        ({"target": 3, "choice": "agent"}, "bad_parameters"),
    ],
)
def test_bad_targets_are_refused(kw, code):
    """RULES §8.1 Crossbow, §7.3: a living seat, not yourself, not wounded, whose gun aims at you;
    only ``target``. (Seat 2 holds the Agent here, wounded, its gun aimed at seat 0.)"""
    s = deal(
        {0: "crossbow"},
        integrity=[
            ["honest", "honest", "crooked"],
            ["kingpin", "crooked", "crooked"],
            ["agent", "honest", "honest"],
            ["crooked", "honest", "crooked"],
        ],
        guns={1: 3, 2: 0, 3: 0},
        options=EXTRA,
    )
    s = shot_earlier(s, 2, shooter=1)
    assert refused_unchanged(s, play(0, "crossbow", **kw)) == code


def test_unarmed_eliminated_and_self_aimed_zombie_seats_are_refused():
    """RULES §8.1 Crossbow, §7.3, §8: a seat with no gun, an eliminated seat, and a zombie whose
    Arms aim at itself do not aim at you."""
    s = deal({0: "crossbow"}, guns={1: 0}, options=EXTRA)
    s = shot_earlier(s, 2)
    assert refused_unchanged(s, play(0, "crossbow", target=2)) == "target_eliminated"
    assert refused_unchanged(s, play(0, "crossbow", target=3)) == "not_aimed"
    z = zdeal({0: "crossbow"}, zombies={3: 3})
    assert legal_plays(z, 0, "crossbow") == []
    assert refused_unchanged(z, play(0, "crossbow", target=3)) == "not_aimed"


def test_wrong_moments_are_refused():
    """RULES §6: from one's own hand, in one's own turn or when asked in a window."""
    wrong_moments(deal({1: "crossbow"}, guns={0: 1}, options=EXTRA), play(1, "crossbow", target=0))


def test_every_listed_play_is_accepted():
    """RULES §7.3, §8.1 Crossbow: one play per non-wounded seat aiming at you (gun or Arms)."""
    s = zdeal({0: "crossbow"}, zombies={3: 0}, guns={1: 0, 2: 1})
    assert [c.target for c in legal_plays(s, 0, "crossbow")] == [1, 3]
    assert accept_all(s, 0, "crossbow") == 2
    w = open_window(deal({2: "crossbow"}, guns={0: 2}, options=EXTRA), "shoot")
    assert [c.target for c in legal_plays(w, 2, "crossbow")] == [0]
    assert accept_all(w, 2, "crossbow") == 1
    assert legal_plays(deal({0: "crossbow"}, guns={1: 2}, options=EXTRA), 0, "crossbow") == []
