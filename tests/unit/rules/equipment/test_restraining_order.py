"""Restraining Order (RULES §7.1): shoot window only. The shooter must aim at a different living seat
(not itself, not the old target) of the shooter's choice (a prompt to the shooter, §7.3), then
shoots it. Needs 3 living seats. Forces the shot."""

from __future__ import annotations

import pytest

from gcbc.rules import legal_commands, view
from gcbc_contract import events as E
from tests.support import C, act, pass_window, table
from tests.unit.rules.equipment.scenario import (
    FOUR,
    accept_all,
    accept_all_prompt,
    deal,
    legal_plays,
    of,
    one,
    open_window,
    play,
    refused_unchanged,
    shot_earlier,
)


def test_prompts_the_shooter_and_forces_the_shot_at_its_new_target():
    """RULES §7.1 Restraining Order, §6 (forced shot: no new action): seat 0 shoots seat 1; seat 2
    plays it; seat 0 must choose seat 2 or 3; it picks 3, aims there, and seat 3 is shot."""
    # given
    s = deal({2: "restraining_order", 3: "med_kit"}, guns={0: 1})
    s = open_window(s, "shoot")
    # when
    s, events = act(s, play(2, "restraining_order"))
    # then the shooter is asked
    assert one(events, E.PromptOpened) == E.PromptOpened(
        seat=0, kind="restraining_order", options=(2, 3)
    )
    assert view(s, None, log=False).prompt.seat == 0
    assert legal_commands(s, 0)[:2] == [C.Choose(seat=0, target=2), C.Choose(seat=0, target=3)]
    # when the shooter answers
    s, events = act(s, C.Choose(seat=0, target=3))
    assert events[:3] == [
        E.PromptAnswered(seat=0, kind="restraining_order", target=3),
        E.GunAimed(seat=0, target=3),
        E.ShotRedirected(target=3),
    ]
    assert s.seat(0).aim == 3 and s.declared.forced_target == 3
    declared = view(s, None, log=False).declared
    assert (declared.forced, declared.target) == (True, 3)  # the view says where it now goes
    assert one(events, E.WindowReopened).asked == (3,)
    # then when the window closes the shot is fired at seat 3, without a new choice
    s, events = act(s, C.Pass(seat=3))
    assert of(events, E.ActionCancelled) == []
    assert one(events, E.SeatShot) == E.SeatShot(shooter=0, target=3)
    assert one(events, E.SeatEliminated).seat == 3
    assert not s.seat(1).eliminated and not s.seat(0).gun


def test_the_shooter_may_play_it_and_redirect_onto_a_leader():
    """RULES §7.1 Restraining Order (any holder, the shooter too; the new target may be a Leader)."""
    s = deal({0: "restraining_order"}, guns={0: 2})
    s = open_window(s, "shoot")
    s, events = act(s, play(0, "restraining_order"))
    assert one(events, E.PromptOpened).options == (1, 3)
    s, events = act(s, C.Choose(seat=0, target=1))
    # nobody holds equipment any more: the forced shot resolves at once
    assert one(events, E.SeatShot) == E.SeatShot(shooter=0, target=1)
    assert one(events, E.LeaderWounded).seat == 1
    assert not s.seat(2).eliminated


def test_the_shooter_playing_it_names_the_new_target_with_the_play():
    """RULES §7.3 (a choice of the player's own is part of the command): the shooter plays it
    naming seat 1: the shot is forced there at once, no prompt left open."""
    s = open_window(deal({0: "restraining_order"}, guns={0: 2}), "shoot")
    s, events = act(s, play(0, "restraining_order", target=1))
    assert E.PromptAnswered(seat=0, kind="restraining_order", target=1) in events
    assert one(events, E.SeatShot) == E.SeatShot(shooter=0, target=1)
    s = open_window(deal({0: "restraining_order"}, guns={0: 2}), "shoot")
    for target in (0, 2):  # itself, the old target: not among the choices
        assert refused_unchanged(s, play(0, "restraining_order", target=target)) == "invalid_choice"


@pytest.mark.parametrize("window", ["own_turn", "investigate", "end_of_turn", "start_of_game"])
def test_only_in_a_shoot_window(window):
    """RULES §7.1 Restraining Order (shoot window only), §6.6."""
    if window == "start_of_game":
        s = table(FOUR, [[], [], ["restraining_order"], []], start_window=False)
        seat = 2
    elif window == "own_turn":
        s, seat = deal({0: "restraining_order"}, guns={0: 1}), 0
    else:
        s, seat = open_window(deal({2: "restraining_order"}, guns={0: 1}), window), 2
    assert legal_plays(s, seat, "restraining_order") == []
    assert refused_unchanged(s, play(seat, "restraining_order")) == "not_playable_now"


def test_needs_three_living_seats():
    """RULES §7.1 Restraining Order (needs 3 living seats): with seats 2 and 3 gone, the shot at
    seat 1 cannot be redirected."""
    s = deal({1: "restraining_order"}, guns={0: 1})
    s = shot_earlier(shot_earlier(s, 2), 3)
    s = open_window(s, "shoot")
    assert legal_plays(s, 1, "restraining_order") == []
    assert refused_unchanged(s, play(1, "restraining_order")) == "not_enough_seats"


def test_bad_parameters_and_hands():
    """RULES §7.3: another seat names no target (the shooter chooses); from one's own hand."""
    s = open_window(deal({2: "restraining_order", 3: "coffee"}, guns={0: 1}), "shoot")
    assert refused_unchanged(s, play(2, "restraining_order", target=3)) == "bad_parameters"
    assert refused_unchanged(s, play(3, "restraining_order")) == "card_not_in_hand"


def test_prompt_answers_are_checked():
    """RULES §7.1 Restraining Order, §7.3: only the shooter answers, with a living seat other than
    itself and the old target; meanwhile nobody else may act."""
    s = open_window(deal({2: "restraining_order", 3: "coffee"}, guns={0: 1}), "shoot")
    s, _ = act(s, play(2, "restraining_order"))
    assert refused_unchanged(s, C.Choose(seat=0, target=1)) == "invalid_choice"  # old target
    assert refused_unchanged(s, C.Choose(seat=0, target=0)) == "invalid_choice"  # itself
    assert refused_unchanged(s, C.Choose(seat=0, target=9)) == "invalid_choice"
    assert refused_unchanged(s, C.Choose(seat=0)) == "invalid_choice"
    assert refused_unchanged(s, C.Choose(seat=0, target=2, position=1)) == "invalid_choice"
    assert refused_unchanged(s, C.Choose(seat=0, target=2, card="coffee")) == "invalid_choice"
    assert refused_unchanged(s, C.Discard(seat=0, card="coffee")) == "invalid_choice"
    assert refused_unchanged(s, C.Choose(seat=2, target=3)) == "not_waiting_for_you"
    assert refused_unchanged(s, C.Pass(seat=3)) == "prompt_pending"
    assert refused_unchanged(s, play(3, "coffee")) == "prompt_pending"


def test_every_listed_play_and_answer_is_accepted():
    """RULES §7.3: the play listed in the shoot window, and each listed answer, are accepted."""
    s = open_window(deal({2: "restraining_order"}, guns={0: 1}), "shoot")
    assert accept_all(s, 2, "restraining_order") == 1
    s, _ = act(s, play(2, "restraining_order"))
    assert accept_all_prompt(s) == 2
    s2, _ = act(s, C.Choose(seat=0, target=2))
    s2 = pass_window(s2)
    assert s2.seat(2).eliminated


def test_needs_three_living_seats_after_a_riot_shield_too():
    """RULES §7.1 Restraining Order (needs 3 living seats, in every case): with seats 2 and 3 gone,
    seat 0 shoots seat 1, whose Riot Shield turns the shot back onto seat 0; seat 1 is then a seat
    other than the shooter and the new target, yet the order cannot be played with two seats."""
    s = deal({0: "restraining_order", 1: "riot_shield"}, guns={0: 1})
    s = shot_earlier(shot_earlier(s, 2), 3)
    s = open_window(s, "shoot")
    s, _ = act(s, play(1, "riot_shield"))
    s, _ = act(s, C.Choose(seat=1, target=0))
    assert s.declared.forced_target == 0 and s.window.kind == "shoot" and 0 in s.window.pending
    assert legal_plays(s, 0, "restraining_order") == []
    assert refused_unchanged(s, play(0, "restraining_order")) == "not_enough_seats"


def test_after_a_riot_shield_with_three_living_seats_it_may_be_played():
    """RULES §7.1 Restraining Order, Riot Shield: with seat 3 gone, the shot turned back onto seat
    0 may be sent to seat 1 or 2 (any living seat but the shooter and the current target)."""
    s = deal({0: "restraining_order", 1: "riot_shield"}, guns={0: 1})
    s = open_window(shot_earlier(s, 3), "shoot")
    s, _ = act(s, play(1, "riot_shield"))
    s, _ = act(s, C.Choose(seat=1, target=0))
    s, events = act(s, play(0, "restraining_order"))
    assert one(events, E.PromptOpened).options == (1, 2)
