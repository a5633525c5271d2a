"""Weapon Crate (RULES §8.1): every living seat with no face-down integrity card may
take a gun (a zombie: turn its Arms, §8) (if it holds none and one is in the centre) and/or change its aim; a gun so taken cannot
shoot this turn. A "weapon_crate" prompt to each such seat in turn, in turn order from you:
``Choose(target=t)`` takes a gun aimed at ``t`` (or turns its gun to ``t``), ``Choose()``
declines. Needs at least one such seat."""

from __future__ import annotations

import pytest

from gcbc.rules import legal_commands, view
from gcbc.rules.invariants import violations
from tests.support import EXTRA, C, E, act
from tests.unit.rules.equipment.scenario import (
    WINDOWS,
    accept_all,
    accept_all_prompt,
    deal,
    end_turn,
    legal_plays,
    of,
    one,
    open_window,
    play,
    refused_unchanged,
    shot_earlier,
)
from tests.unit.rules.zombies.cards.given import BOTH, CLASSIC_EXTRA, revealed, wrong_moments
from tests.unit.rules.zombies.given import zdeal


def crate(options=EXTRA, hands=None, guns=None, up=(2, 3), **kw):
    """Seat 0 holds the Weapon Crate; the seats ``up`` have all their cards face up."""
    s = deal(hands or {0: "weapon_crate"}, guns=guns, options=options, **kw)
    for seat in up:
        s = revealed(s, seat)
    return s


@pytest.mark.parametrize("options", BOTH)
def test_each_face_up_seat_takes_or_re_aims_a_gun(options):
    """RULES §8.1 Weapon Crate, §5: seat 0 plays it on its own turn (not its action). Seat 2
    (unarmed) is asked first and takes a gun aimed at seat 1 (locked); then seat 3 (armed) turns
    its gun to seat 2. Seats 0 and 1 have face-down cards: not asked."""
    s = crate(options, guns={3: 0})
    centre = s.guns_in_centre
    s, events = act(s, play(0, "weapon_crate"))
    assert events[1:] == [E.PromptOpened(seat=2, kind="weapon_crate", options=(0, 1, 3), about=0)]
    assert view(s, None, log=False).prompt.seat == 2
    assert legal_commands(s, 2)[:4] == [
        C.Choose(seat=2, target=0),
        C.Choose(seat=2, target=1),
        C.Choose(seat=2, target=3),
        C.Choose(seat=2),
    ]
    s, events = act(s, C.Choose(seat=2, target=1))
    assert events == [
        E.PromptAnswered(seat=2, kind="weapon_crate", target=1),
        E.GunTaken(seat=2, aim=1, locked=True),
        E.PromptOpened(seat=3, kind="weapon_crate", options=(0, 1, 2), about=0),
    ]
    s, events = act(s, C.Choose(seat=3, target=2))
    assert events == [
        E.PromptAnswered(seat=3, kind="weapon_crate", target=2),
        E.GunAimed(seat=3, target=2),
    ]
    assert s.seat(2).gun and s.seat(2).aim == 1 and s.guns_in_centre == centre - 1
    assert s.seat(3).aim == 2 and 2 in s.guns_locked
    assert s.step == "action" and s.turn_seat == 0 and not s.prompts and violations(s) == []


def test_declining_changes_nothing():
    """RULES §8.1 Weapon Crate ('may'): ``Choose()`` declines; an armed seat naming its own aim
    keeps it."""
    s = crate(guns={3: 0})
    s, _ = act(s, play(0, "weapon_crate"))
    s, events = act(s, C.Choose(seat=2))
    assert events == [
        E.PromptAnswered(seat=2, kind="weapon_crate"),
        E.PromptOpened(seat=3, kind="weapon_crate", options=(0, 1, 2), about=0),
    ]
    s, events = act(s, C.Choose(seat=3, target=0))
    assert events == [E.PromptAnswered(seat=3, kind="weapon_crate", target=0)]
    assert not s.seat(2).gun and s.seat(3).aim == 0 and not s.prompts


def test_the_gun_taken_cannot_shoot_this_turn():
    """RULES §8.1 Weapon Crate ('a gun taken this way cannot shoot this turn'): on its own turn seat
    2 takes a gun: it may not shoot it now; next turn round it may."""
    s = crate(hands={2: "weapon_crate"}, first_seat=2)
    s, _ = act(s, play(2, "weapon_crate"))
    s, _ = act(s, C.Choose(seat=2, target=1))
    s, _ = act(s, C.Choose(seat=3))
    assert refused_unchanged(s, C.Shoot(seat=2)) == "gun_locked"
    assert not any(isinstance(c, C.Shoot) for c in legal_commands(s, 2))
    for _ in range(4):
        s = end_turn(s)
    assert s.turn_seat == 2 and any(isinstance(c, C.Shoot) for c in legal_commands(s, 2))


def test_a_gun_taken_in_the_shooters_own_shoot_window_cannot_be_made_to_fire():
    """RULES §8.1 Weapon Crate ('a gun taken this way cannot shoot this turn'), §7.3 (a card only
    when its effect can happen): seat 0's shot waits; a K-9 Unit drops its gun, then a Weapon Crate
    gives it a gun again. That gun cannot shoot this turn, so no shot is pending: a Restraining
    Order, which would force it, is neither listed nor accepted."""
    s = crate(hands={1: "k9_unit", 2: "weapon_crate", 3: "restraining_order"}, guns={0: 1}, up=(0,))
    s = open_window(s, "shoot")
    s, _ = act(s, play(1, "k9_unit", target=0))
    s, _ = act(s, play(2, "weapon_crate"))
    s, _ = act(s, C.Choose(seat=0, target=2))
    assert s.seat(0).gun and 0 in s.guns_locked and s.window.kind == "shoot"
    assert legal_plays(s, 3, "restraining_order") == []
    assert refused_unchanged(s, play(3, "restraining_order")) == "no_effect"


def asked(s, crate_played):
    """The seats the crate asks, in order, each declining."""
    s, events = act(s, crate_played)
    seats = [one(events, E.PromptOpened).seat]
    while s.prompts:
        s, events = act(s, C.Choose(seat=s.prompts[0].seat))
        seats += [e.seat for e in of(events, E.PromptOpened)]
    return seats


def test_asked_in_seat_order_from_the_player():
    """RULES §8.1 Weapon Crate (decision: in seat order from you, you first): seat 3 plays it;
    seats 3, 1 and 2 qualify: asked 3, then 1, then 2."""
    s = crate(hands={3: "weapon_crate"}, up=(1, 2, 3))
    s = end_turn(end_turn(end_turn(s)))
    assert s.turn_seat == 3
    assert asked(s, play(3, "weapon_crate")) == [3, 1, 2]


def test_asked_in_turn_order_once_a_smoke_grenade_reversed_it():
    """RULES §8.1 Weapon Crate (decision: in turn order from you, as the Alarm Clock's guns),
    §7.1 Smoke Grenade: seat 1's grenade turned the table counter-clockwise; seat 3 plays the
    crate in its turn, next after seat 0's: seats 3, 2 and 1 qualify, asked 3, then 2, then 1."""
    s = crate(
        hands={3: "weapon_crate", 1: "smoke_grenade"},
        setup=[play(1, "smoke_grenade")],
        up=(1, 2, 3),
    )
    s = end_turn(s)
    assert s.turn_seat == 3 and s.marks.direction == -1
    assert asked(s, play(3, "weapon_crate")) == [3, 2, 1]


def test_a_smoke_grenade_played_earlier_in_the_turn_does_not_turn_the_order_yet():
    """RULES §8.1 Weapon Crate (decision: turn order), §7.1 Smoke Grenade ('from the end of the
    current turn'): seat 3's grenade in its turn, then seat 1's crate in the window its
    investigation opens: still clockwise from seat 1 (1, 2, 3; reversed it would be 1, 3, 2)."""
    s = crate(hands={1: "weapon_crate", 3: "smoke_grenade"}, up=(1, 2, 3))
    s = end_turn(end_turn(end_turn(s)))
    assert s.turn_seat == 3
    s, _ = act(s, play(3, "smoke_grenade"))
    s = open_window(s, "investigate")
    assert asked(s, play(1, "weapon_crate")) == [1, 2, 3]


def test_a_seat_is_skipped_once_no_gun_is_free():
    """RULES §8.1 Weapon Crate (a seat takes a gun only while one is left in the centre). Classic
    with extra equipment: 2 guns; seat 0 holds one, so one is free: seat 2 takes it, and unarmed
    seat 3 is not asked."""
    s = crate(CLASSIC_EXTRA, guns={0: 1})
    assert s.guns_in_centre == 1
    s, _ = act(s, play(0, "weapon_crate"))
    s, events = act(s, C.Choose(seat=2, target=3))
    assert of(events, E.PromptOpened) == [] and not s.prompts
    assert s.guns_in_centre == 0 and not s.seat(3).gun


def test_a_seat_a_classic_k9_disarmed_in_its_turn_is_not_asked():
    """RULES §7.2 K-9 Unit ("if it is that seat's turn, it may not take a gun this turn"), §8.1
    Weapon Crate. Classic with extra equipment: seat 0, every card face up, holds a gun in its
    turn; seat 1's K-9 Unit drops it. Seat 0's Weapon Crate then asks seat 2 and not seat 0, and
    with seat 2 face down too it is refused: nobody could take or aim a gun."""
    s = crate(CLASSIC_EXTRA, hands={0: "weapon_crate", 1: "k9_unit"}, guns={0: 1}, up=(0, 2))
    s, _ = act(s, C.Investigate(seat=0, target=3, position=1))
    s, _ = act(s, play(1, "k9_unit", target=0))
    assert not s.seat(0).gun and s.marks.arm_barred == 0 and s.guns_in_centre > 0
    s2, events = act(s, play(0, "weapon_crate"))
    assert one(events, E.PromptOpened).seat == 2
    s2, events = act(s2, C.Choose(seat=2))
    assert of(events, E.PromptOpened) == [] and not s2.seat(0).gun
    barred_alone = crate(
        CLASSIC_EXTRA, hands={0: "weapon_crate", 1: "k9_unit"}, guns={0: 1}, up=(0,)
    )
    barred_alone, _ = act(barred_alone, C.Investigate(seat=0, target=3, position=1))
    barred_alone, _ = act(barred_alone, play(1, "k9_unit", target=0))
    assert refused_unchanged(barred_alone, play(0, "weapon_crate")) == "no_effect"


def test_a_zombie_turns_its_arms_and_takes_no_gun():
    """RULES §8.1 Weapon Crate, §8 (cards on guns act on Arms; zombies cannot take a gun): zombie
    3 (all cards face up) is asked after seat 2 and may turn its Arms; it never takes a gun."""
    s = zdeal({0: "weapon_crate"}, zombies={3: 0})
    s = revealed(s, 2)
    centre = s.guns_in_centre
    s, events = act(s, play(0, "weapon_crate"))
    assert one(events, E.PromptOpened).seat == 2
    s, events = act(s, C.Choose(seat=2))
    assert one(events, E.PromptOpened).seat == 3
    s, events = act(s, C.Choose(seat=3, target=1))
    assert one(events, E.ArmsAimed) == E.ArmsAimed(seat=3, target=1)
    assert of(events, E.GunTaken) == [] and not s.seat(3).gun
    assert s.seat(3).arms_aim == 1 and s.guns_in_centre == centre and not s.prompts
    assert violations(s) == []


def test_a_zombie_may_decline():
    """RULES §8.1 Weapon Crate: declining leaves the zombie's Arms where they were."""
    s = zdeal({0: "weapon_crate"}, zombies={3: 0})
    s, events = act(s, play(0, "weapon_crate"))
    assert one(events, E.PromptOpened).seat == 3
    s, events = act(s, C.Choose(seat=3))
    assert of(events, E.ArmsAimed) == [] and s.seat(3).arms_aim == 0


@pytest.mark.parametrize("window", WINDOWS)
def test_in_a_window(window):
    """RULES §8.1 Weapon Crate (any window), §6: the prompts come first, then the window is asked
    again."""
    s = crate(hands={1: "weapon_crate", 3: "coffee"}, guns={0: 1}, up=(2,))
    s = open_window(s, window, avoid=(2,))
    s, events = act(s, play(1, "weapon_crate"))
    assert one(events, E.PromptOpened).seat == 2
    s, events = act(s, C.Choose(seat=2, target=0))
    assert one(events, E.GunTaken) == E.GunTaken(seat=2, aim=0, locked=True)
    assert one(events, E.WindowReopened).kind == window


def test_prompt_answers_are_checked():
    """RULES §8.1 Weapon Crate, §7.3: only the asked seat answers, with a living seat other than
    itself, or nothing; meanwhile nobody else may act."""
    s = crate(hands={0: "weapon_crate", 1: "coffee"}, up=(2, 3))
    s = shot_earlier(s, 3)
    s, _ = act(s, play(0, "weapon_crate"))
    assert s.prompts[0].options == (0, 1)
    assert refused_unchanged(s, C.Choose(seat=2, target=2)) == "invalid_choice"
    assert refused_unchanged(s, C.Choose(seat=2, target=3)) == "invalid_choice"
    assert refused_unchanged(s, C.Choose(seat=2, target=9)) == "invalid_choice"
    assert refused_unchanged(s, C.Choose(seat=2, position=1)) == "invalid_choice"
    assert refused_unchanged(s, C.Choose(seat=2, target=1, card="coffee")) == "invalid_choice"
    assert refused_unchanged(s, C.Choose(seat=0, target=1)) == "not_waiting_for_you"
    assert refused_unchanged(s, play(1, "coffee")) == "prompt_pending"


@pytest.mark.parametrize("options", BOTH)
def test_with_no_seat_to_ask_it_is_refused(options):
    """RULES §8.1 Weapon Crate, §7.3: no seat has all its cards face up."""
    s = crate(options, up=())
    assert legal_plays(s, 0, "weapon_crate") == []
    assert refused_unchanged(s, play(0, "weapon_crate")) == "no_effect"


def test_with_no_gun_to_take_or_hold_it_is_refused():
    """RULES §8.1 Weapon Crate, §7.3: the face-up seats are unarmed and no gun is free (classic with
    extra equipment: both guns held by seats 0 and 1)."""
    s = crate(CLASSIC_EXTRA, guns={0: 1, 1: 0})
    assert legal_plays(s, 0, "weapon_crate") == []
    assert refused_unchanged(s, play(0, "weapon_crate")) == "no_effect"


def test_parameters_are_refused():
    """RULES §8.1 Weapon Crate, §7.3: it takes no parameter."""
    s = crate()
    assert refused_unchanged(s, play(0, "weapon_crate", target=2)) == "bad_parameters"
    assert refused_unchanged(s, play(0, "weapon_crate", aim=2)) == "bad_parameters"


def test_wrong_moments_are_refused():
    """RULES §6: from one's own hand, in one's own turn or when asked in a window."""
    s = crate(hands={1: "weapon_crate"}, guns={0: 1})
    wrong_moments(s, play(1, "weapon_crate"))


@pytest.mark.parametrize("options", BOTH)
def test_every_listed_play_and_answer_is_accepted(options):
    """RULES §7.3: the one play, and each listed answer (3 aims and the decline)."""
    s = crate(options, guns={3: 0})
    assert legal_plays(s, 0, "weapon_crate") == [play(0, "weapon_crate")]
    assert accept_all(s, 0, "weapon_crate") == 1
    s, _ = act(s, play(0, "weapon_crate"))
    assert accept_all_prompt(s) == 4
    s, _ = act(s, C.Choose(seat=2))
    assert accept_all_prompt(s) == 4
