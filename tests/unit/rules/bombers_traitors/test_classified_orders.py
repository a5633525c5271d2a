"""Classified Orders (RULES §9): shoot window only (and the bite window, §8). You choose a living
seat other than yourself; that seat chooses where the shooter's weapon aims (a prompt to it, §7.3),
among the living seats other than the shooter; the shot is then fired there. Needs 3 living seats.
Forces the shot (§6)."""

from __future__ import annotations

import pytest

from gcbc.rules import legal_commands, view
from gcbc_contract import events as E
from tests.support import BOMBERS, C, act, pass_window, table
from tests.unit.rules.bombers_traitors.givens import NO_ROLES, ZOMBIES_BT, bt_deal, zombie
from tests.unit.rules.equipment.scenario import (
    accept_all,
    accept_all_prompt,
    legal_plays,
    of,
    one,
    open_window,
    play,
    refused_unchanged,
    shot_earlier,
)

CARD = "classified_orders"


def given(hands, **kw):
    """No role at the table (seat 0 Agent, seat 1 Kingpin, seat 2 honest, seat 3 crooked)."""
    return bt_deal(hands, integrity=NO_ROLES, **kw)


def test_the_chosen_seat_aims_the_shooters_gun_and_the_shot_is_forced():
    """RULES §9 Classified Orders, §6 (forced shot): seat 0 shoots seat 1; seat 2 plays it naming
    seat 3; seat 3 chooses among every living seat but the shooter (1, 2, 3); it picks seat 2:
    seat 0's gun aims at seat 2, which is shot without a new choice."""
    s = open_window(given({2: CARD, 1: "coffee"}, guns={0: 1}), "shoot")
    s, events = act(s, play(2, CARD, target=3))
    assert one(events, E.EquipmentPlayed).target == 3
    assert one(events, E.PromptOpened) == E.PromptOpened(
        seat=3, kind=CARD, options=(1, 2, 3), about=0
    )
    assert view(s, None, log=False).prompt.seat == 3
    assert legal_commands(s, 3)[:3] == [C.Choose(seat=3, target=t) for t in (1, 2, 3)]
    s, events = act(s, C.Choose(seat=3, target=2))
    assert events[:3] == [
        E.PromptAnswered(seat=3, kind=CARD, target=2),
        E.GunAimed(seat=0, target=2),
        E.ShotRedirected(target=2),
    ]
    assert s.seat(0).aim == 2 and s.declared.forced_target == 2
    assert view(s, None, log=False).declared.forced
    assert one(events, E.WindowReopened).asked == (1,)
    s, events = act(s, C.Pass(seat=1))
    assert of(events, E.ActionCancelled) == []
    assert one(events, E.SeatShot) == E.SeatShot(shooter=0, target=2)
    assert s.seat(2).eliminated and not s.seat(1).eliminated


def test_keeping_the_current_target_still_forces_the_shot():
    """RULES §9 Classified Orders (forces the shot), §6: the chosen seat keeps the gun on the
    Kingpin; equipment was played, yet the shooter may not reconsider: the Kingpin is shot."""
    s = open_window(given({2: CARD}, guns={0: 1}), "shoot")
    s, _ = act(s, play(2, CARD, target=3))
    s, events = act(s, C.Choose(seat=3, target=1))
    assert events[1:3] == [E.GunAimed(seat=0, target=1), E.ShotRedirected(target=1)]
    assert of(events, E.ActionCancelled) == []
    assert one(events, E.SeatShot) == E.SeatShot(shooter=0, target=1)
    assert one(events, E.LeaderWounded).seat == 1


def test_the_chosen_seat_may_aim_the_gun_at_itself():
    """RULES §9 Classified Orders (decision: the chosen seat's options include itself)."""
    s = open_window(given({2: CARD}, guns={0: 1}), "shoot")
    s, _ = act(s, play(2, CARD, target=3))
    s, events = act(s, C.Choose(seat=3, target=3))
    assert one(events, E.SeatShot) == E.SeatShot(shooter=0, target=3)
    assert s.seat(3).eliminated


@pytest.mark.parametrize(("player", "chosen"), [(0, 1), (2, 0), (1, 1)])
def test_the_shooter_or_the_target_may_play_it_or_be_chosen(player, chosen):
    """RULES §9 Classified Orders (any holder in the shoot window; "a seat other than yourself":
    the shooter and the target may be chosen): the chosen seat aims seat 0's gun at seat 3."""
    s = open_window(given({player: CARD}, guns={0: 1}), "shoot")
    s, events = act(s, play(player, CARD, target=chosen if chosen != player else 3))
    prompt = one(events, E.PromptOpened)
    assert prompt.options == (1, 2, 3)
    s, events = act(s, C.Choose(seat=prompt.seat, target=3))
    assert one(events, E.SeatShot) == E.SeatShot(shooter=0, target=3)


def test_a_biting_zombie_s_arms_are_aimed():
    """RULES §9 Classified Orders with §8 (equipment that affects shooting affects biting): the
    zombie at seat 3 bites seat 1; seat 2 names seat 0, who aims the zombie's Arms at seat 2: the
    forced bite lands on seat 2, which rises as a zombie."""
    s = given({2: CARD}, options=ZOMBIES_BT, first_seat=2)
    s = zombie(s, 3, aim=1)
    s, _ = act(s, C.Bite(seat=3))
    assert s.window.kind == "bite"
    s, events = act(s, play(2, CARD, target=0))
    assert one(events, E.PromptOpened) == E.PromptOpened(
        seat=0, kind=CARD, options=(0, 1, 2), about=3
    )
    s, events = act(s, C.Choose(seat=0, target=2))
    assert events[1:3] == [E.ArmsAimed(seat=3, target=2), E.ShotRedirected(target=2)]
    assert one(events, E.SeatBitten) == E.SeatBitten(biter=3, target=2)
    assert one(events, E.BecameZombie).seat == 2


@pytest.mark.parametrize("window", ["own_turn", "investigate", "end_of_turn", "start_of_game"])
def test_only_in_a_shoot_window(window):
    """RULES §9 Classified Orders (shoot window), §6.6."""
    if window == "start_of_game":
        s = table(NO_ROLES, [[], [], [CARD], []], start_window=False, options=BOMBERS)
        seat = 2
    elif window == "own_turn":
        s, seat = given({0: CARD}, guns={0: 1}), 0
    else:
        s, seat = open_window(given({2: CARD}, guns={0: 1}), window), 2
    assert legal_plays(s, seat, CARD) == []
    assert refused_unchanged(s, play(seat, CARD, target=3)) == "not_playable_now"


def test_needs_three_living_seats():
    """RULES §9 Classified Orders (≥ 3 living seats): with seats 2 and 3 gone, nothing is listed
    and the play is refused."""
    s = given({1: CARD}, guns={0: 1})
    s = open_window(shot_earlier(shot_earlier(s, 2), 3), "shoot")
    assert legal_plays(s, 1, CARD) == []
    assert refused_unchanged(s, play(1, CARD, target=0)) == "not_enough_seats"


def test_no_effect_once_the_shot_cannot_happen():
    """RULES §7.3 (only when its effect can happen): a K-9 Unit took the shooter's gun in the
    window: no shot is pending, so Classified Orders is neither listed nor accepted."""
    s = open_window(given({1: "k9_unit", 2: CARD}, guns={0: 1}), "shoot")
    s, _ = act(s, play(1, "k9_unit", target=0))
    assert not s.seat(0).gun and s.window.kind == "shoot"
    assert legal_plays(s, 2, CARD) == []
    assert refused_unchanged(s, play(2, CARD, target=3)) == "no_effect"


def test_bad_targets_and_parameters():
    """RULES §9 Classified Orders ("a seat other than yourself", living), §7.3."""
    s = given({2: CARD, 3: "coffee"}, guns={0: 1})
    s = open_window(shot_earlier(s, 3), "shoot")
    assert refused_unchanged(s, play(2, CARD, target=2)) == "target_is_self"
    assert refused_unchanged(s, play(2, CARD, target=3)) == "target_eliminated"
    assert refused_unchanged(s, play(2, CARD, target=9)) == "invalid_target"
    assert refused_unchanged(s, play(2, CARD)) == "bad_parameters"
    assert refused_unchanged(s, play(2, CARD, target=1, aim=1)) == "bad_parameters"
    assert refused_unchanged(s, play(2, CARD, target=1, position=1)) == "bad_parameters"
    assert refused_unchanged(s, play(1, CARD, target=2)) == "card_not_in_hand"


def test_prompt_answers_are_checked():
    """RULES §9 Classified Orders, §7.3: only the chosen seat answers, with a living seat other than
    the shooter; meanwhile nobody else may act."""
    s = open_window(given({2: CARD, 1: "coffee"}, guns={0: 1}), "shoot")
    s, _ = act(s, play(2, CARD, target=3))
    assert refused_unchanged(s, C.Choose(seat=3, target=0)) == "invalid_choice"  # the shooter
    assert refused_unchanged(s, C.Choose(seat=3, target=9)) == "invalid_choice"
    assert refused_unchanged(s, C.Choose(seat=3)) == "invalid_choice"
    assert refused_unchanged(s, C.Choose(seat=3, target=2, position=1)) == "invalid_choice"
    assert refused_unchanged(s, C.Choose(seat=3, target=2, card="coffee")) == "invalid_choice"
    assert refused_unchanged(s, C.Discard(seat=3, card="coffee")) == "invalid_choice"
    assert refused_unchanged(s, C.Choose(seat=0, target=2)) == "not_waiting_for_you"
    assert refused_unchanged(s, C.Pass(seat=1)) == "prompt_pending"
    assert refused_unchanged(s, play(1, "coffee")) == "prompt_pending"


def test_every_listed_play_and_answer_is_accepted():
    """RULES §7.3: exactly the plays naming another living seat are listed, and each is accepted;
    so is each listed answer."""
    s = open_window(given({2: CARD}, guns={0: 1}), "shoot")
    assert legal_plays(s, 2, CARD) == [play(2, CARD, target=t) for t in (0, 1, 3)]
    assert accept_all(s, 2, CARD) == 3
    s, _ = act(s, play(2, CARD, target=1))
    assert accept_all_prompt(s) == 3
    s2, _ = act(s, C.Choose(seat=1, target=2))
    s2 = pass_window(s2)
    assert s2.seat(2).eliminated
