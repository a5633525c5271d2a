"""Riot Shield (RULES §7.1): shoot window only. The target of the shot names a living seat on its
left or right (its nearest living neighbours; a prompt to the target, §7.3); that seat is shot
instead. Forces the shot."""

from __future__ import annotations

import pytest

from gcbc.rules import legal_commands
from gcbc_contract import events as E
from tests.support import C, act, table
from tests.unit.rules.equipment.scenario import (
    FIVE,
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


def test_the_target_names_a_neighbour_who_is_shot_instead():
    """RULES §7.1 Riot Shield, §6 (forced shot): seat 0 shoots seat 2; seat 3 plays the shield;
    seat 2 is asked to name seat 1 or seat 3; it names 3, who is shot."""
    # given
    s = deal({3: "riot_shield", 1: "coffee"}, guns={0: 2})
    s = open_window(s, "shoot")
    # when
    s, events = act(s, play(3, "riot_shield"))
    # then
    assert one(events, E.PromptOpened) == E.PromptOpened(seat=2, kind="riot_shield", options=(1, 3))
    assert legal_commands(s, 2)[:2] == [C.Choose(seat=2, target=1), C.Choose(seat=2, target=3)]
    s, events = act(s, C.Choose(seat=2, target=3))
    assert events[:2] == [
        E.PromptAnswered(seat=2, kind="riot_shield", target=3),
        E.ShotRedirected(target=3),
    ]
    assert s.declared.forced_target == 3
    assert s.seat(0).aim == 2  # the gun is not re-aimed; the shot goes to seat 3
    s, events = act(s, C.Pass(seat=1))
    assert of(events, E.ActionCancelled) == []
    assert one(events, E.SeatShot) == E.SeatShot(shooter=0, target=3)
    assert s.seat(3).eliminated and not s.seat(2).eliminated


def test_the_target_playing_it_names_the_seat_with_the_play():
    """RULES §7.3 (every choice a card needs is part of the command that plays it, a prompt only
    when the choice belongs to another seat): seat 0 shoots seat 2; seat 2 plays its own shield
    naming seat 3, who is shot; the choice is the target's, so another seat may not name it."""
    s = open_window(deal({2: "riot_shield", 3: "coffee"}, guns={0: 2}), "shoot")
    assert play(2, "riot_shield", target=3) in legal_plays(s, 2, "riot_shield")
    t, events = act(s, play(2, "riot_shield", target=3))
    assert events[1:4] == [
        E.PromptOpened(seat=2, kind="riot_shield", options=(1, 3)),
        E.PromptAnswered(seat=2, kind="riot_shield", target=3),
        E.ShotRedirected(target=3),
    ]
    assert not t.prompts and t.declared.forced_target == 3
    t, events = act(t, C.Pass(seat=3))
    assert one(events, E.SeatShot) == E.SeatShot(shooter=0, target=3)
    # a seat not beside the target, refused; and another seat's play leaves the choice to it
    assert refused_unchanged(s, play(2, "riot_shield", target=0)) == "invalid_choice"
    u = open_window(deal({3: "riot_shield"}, guns={0: 2}), "shoot")
    assert refused_unchanged(u, play(3, "riot_shield", target=1)) == "bad_parameters"
    assert legal_plays(u, 3, "riot_shield") == [play(3, "riot_shield")]


def test_the_shooter_itself_may_be_shot():
    """RULES §7.1 Riot Shield (the shooter may even be the one shot): seat 2 shoots seat 3, whose
    neighbours are seat 2 and seat 0; seat 3 names the shooter, who is shot and eliminated; the turn
    passes on."""
    s = deal({3: "riot_shield"}, guns={2: 3}, first_seat=2)
    s = open_window(s, "shoot")
    s, events = act(s, play(3, "riot_shield"))
    assert one(events, E.PromptOpened).options == (0, 2)
    s, events = act(s, C.Choose(seat=3, target=2))
    assert one(events, E.SeatShot) == E.SeatShot(shooter=2, target=2)
    assert one(events, E.SeatEliminated).seat == 2
    assert s.seat(2).eliminated and not s.seat(3).eliminated
    assert s.guns_in_centre == 4
    assert one(events, E.TurnBegan).seat == 3


def test_the_shooter_shot_as_a_leader_is_wounded_and_drops_its_gun():
    """RULES §4, §7.1 Riot Shield: the shooter (Kingpin) shot by its own gun is wounded, draws, and
    its gun returns to the centre."""
    s = deal({0: "riot_shield"}, guns={1: 2}, first_seat=1)
    s = open_window(s, "shoot")
    s, _ = act(s, play(0, "riot_shield"))
    s, events = act(s, C.Choose(seat=2, target=1))
    assert one(events, E.LeaderWounded).seat == 1
    assert one(events, E.GunDropped).seat == 1 and not s.seat(1).gun


def test_eliminated_seats_are_skipped():
    """RULES §7.1 Riot Shield (a living seat on its left or right): 5 seats, seat 2 eliminated;
    seat 3's neighbours are seats 1 and 4."""
    s = deal({1: "riot_shield"}, integrity=FIVE, guns={1: 3}, first_seat=1)
    s = shot_earlier(s, 2)
    s = open_window(s, "shoot")
    s, events = act(s, play(1, "riot_shield"))
    assert one(events, E.PromptOpened) == E.PromptOpened(seat=3, kind="riot_shield", options=(1, 4))


def test_with_two_living_seats_only_the_shooter_can_be_named():
    """RULES §7.1 Riot Shield: with seats 2 and 3 gone, seat 1's only neighbour is the shooter."""
    s = deal({1: "riot_shield"}, guns={0: 1})
    s = shot_earlier(shot_earlier(s, 2), 3)
    s = open_window(s, "shoot")
    s, events = act(s, play(1, "riot_shield"))
    assert one(events, E.PromptOpened).options == (0,)
    assert accept_all_prompt(s) == 1


@pytest.mark.parametrize("window", ["own_turn", "investigate", "end_of_turn", "start_of_game"])
def test_only_in_a_shoot_window(window):
    """RULES §7.1 Riot Shield (shoot window only), §6.6."""
    if window == "start_of_game":
        s, seat = table(FOUR, [[], [], ["riot_shield"], []], start_window=False), 2
    elif window == "own_turn":
        s, seat = deal({0: "riot_shield"}, guns={0: 1}), 0
    else:
        s, seat = open_window(deal({2: "riot_shield"}, guns={0: 1}), window), 2
    assert legal_plays(s, seat, "riot_shield") == []
    assert refused_unchanged(s, play(seat, "riot_shield")) == "not_playable_now"


def test_bad_parameters_and_hands():
    """RULES §7.3: it takes no parameter (the target chooses); from one's own hand."""
    s = open_window(deal({2: "riot_shield", 3: "coffee"}, guns={0: 1}), "shoot")
    assert refused_unchanged(s, play(2, "riot_shield", target=3)) == "bad_parameters"
    assert refused_unchanged(s, play(3, "riot_shield")) == "card_not_in_hand"


def test_prompt_answers_are_checked():
    """RULES §7.1 Riot Shield, §7.3: only the target answers, naming one of its two neighbours."""
    s = open_window(deal({2: "riot_shield", 3: "coffee"}, guns={0: 2}), "shoot")
    s, _ = act(s, play(2, "riot_shield"))
    assert s.prompts[0].seat == 2 and s.prompts[0].options == (1, 3)
    assert refused_unchanged(s, C.Choose(seat=2, target=2)) == "invalid_choice"  # itself
    assert refused_unchanged(s, C.Choose(seat=2, target=0)) == "invalid_choice"  # not beside it
    assert refused_unchanged(s, C.Choose(seat=2)) == "invalid_choice"
    assert refused_unchanged(s, C.Choose(seat=2, target=1, position=1)) == "invalid_choice"
    assert refused_unchanged(s, C.Choose(seat=0, target=1)) == "not_waiting_for_you"
    assert refused_unchanged(s, C.Pass(seat=3)) == "prompt_pending"
    assert refused_unchanged(s, C.Shoot(seat=0)) == "prompt_pending"


def test_every_listed_play_and_answer_is_accepted():
    """RULES §7.3: the play listed in the shoot window, and each listed answer, are accepted."""
    s = open_window(deal({1: "riot_shield"}, guns={0: 2}), "shoot")
    assert accept_all(s, 1, "riot_shield") == 1
    s, _ = act(s, play(1, "riot_shield"))
    assert accept_all_prompt(s) == 2
    s, events = act(s, C.Choose(seat=2, target=1))
    assert one(events, E.LeaderWounded).seat == 1  # the Kingpin, shot in seat 2's place
    assert s.seat(1).face_up == (True, True, True)
