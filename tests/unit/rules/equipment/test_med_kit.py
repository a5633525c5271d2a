"""Med Kit (RULES §7.1, §4): remove a Wounded token from a seat. Fourth edition: the token sits on
the Leader card and moves with it."""

from __future__ import annotations

import pytest

from gcbc.rules import public_view
from gcbc_contract import events as E
from tests.support import C, act, pass_window
from tests.unit.rules.equipment.scenario import (
    WINDOWS,
    accept_all,
    cid,
    deal,
    legal_plays,
    one,
    open_window,
    play,
    refused_unchanged,
    shot_earlier,
)

KINGPIN = cid(1, 1)


def test_heals_a_wounded_leader_who_then_survives_the_next_shot():
    """RULES §4 (an unwounded Leader shot is wounded, a wounded one eliminated), §7.1 Med Kit: the
    Kingpin (seat 1) was wounded; seat 3 shoots it; seat 2 heals it in the shoot window; seat 3
    shoots anyway and the Kingpin is only wounded again."""
    # given
    s = deal({2: "med_kit"}, guns={3: 1}, first_seat=3)
    s = shot_earlier(s, 1, shooter=0)
    assert s.wounds == frozenset({KINGPIN})
    assert public_view(s, log=False).seats[1].wounded
    # when
    s, _ = act(s, C.Shoot(seat=3))
    s, events = act(s, play(2, "med_kit", target=1))
    # then
    assert one(events, E.WoundHealed) == E.WoundHealed(seat=1, card_id=KINGPIN)
    assert s.wounds == frozenset()
    seat1 = public_view(s, log=False).seats[1]
    assert not seat1.wounded and not seat1.cards[0].wounded
    # the situation changed: seat 3 chooses again, and shoots
    s = pass_window(s)
    assert s.step == "action" and s.turn_seat == 3
    s, _ = act(s, C.Shoot(seat=3))
    s = pass_window(s)
    assert s.step != "finished" and not s.seat(1).eliminated
    assert s.wounds == frozenset({KINGPIN})


@pytest.mark.parametrize("window", WINDOWS)
def test_in_a_window(window):
    """RULES §7.1 Med Kit (any window)."""
    s = shot_earlier(deal({2: "med_kit"}, guns={0: 3}), 1, shooter=0)
    s = open_window(s, window, avoid=(1,))
    s, events = act(s, play(2, "med_kit", target=1))
    assert one(events, E.WoundHealed).seat == 1 and s.wounds == frozenset()


def test_own_turn():
    """RULES §7.1 Med Kit, §6.1: the wounded Kingpin heals itself on its own turn."""
    s = shot_earlier(deal({1: "med_kit"}, first_seat=1), 1, shooter=0)
    # it drew a card when wounded: over the hand limit, it discards that one first (RULES §4, §6)
    held, drawn = s.seat(1).hand
    assert held == "med_kit" and [p.kind for p in s.prompts] == ["discard"]
    assert refused_unchanged(s, play(1, "med_kit", target=1)) == "must_discard"
    s, _ = act(s, C.Discard(seat=1, card=drawn))
    s, events = act(s, play(1, "med_kit", target=1))
    assert one(events, E.WoundHealed) == E.WoundHealed(seat=1, card_id=KINGPIN)
    assert s.step == "action" and s.turn_seat == 1


def test_the_wound_moves_with_the_leader_card():
    """RULES §4 (fourth edition: the Wounded token moves with the Leader card), §7.1 Blackmail and
    Med Kit: the wounded Kingpin goes to seat 2; seat 2 is the wounded one; Med Kit on seat 1 has no
    effect, on seat 2 it heals."""
    s = shot_earlier(deal({2: "med_kit", 3: "blackmail"}), 1, shooter=0)
    s = open_window(s, "investigate", avoid=(1, 2))
    s, _ = act(s, play(3, "blackmail", targets=(1, 2), positions=(1, 1)))
    assert s.seat(2).cards[0] == KINGPIN and s.wounds == frozenset({KINGPIN})
    seats = public_view(s, log=False).seats
    assert (seats[1].wounded, seats[2].wounded) == (False, True)
    assert refused_unchanged(s, play(2, "med_kit", target=1)) == "no_effect"
    assert [c.target for c in legal_plays(s, 2, "med_kit")] == [2]
    s, events = act(s, play(2, "med_kit", target=2))
    assert one(events, E.WoundHealed) == E.WoundHealed(seat=2, card_id=KINGPIN)


def test_the_receiver_of_a_wounded_leader_card_is_eliminated_when_shot():
    """RULES §4 (a seat that receives a wounded Leader card is a wounded Leader): shot, seat 2 is
    eliminated with the Kingpin and Honest wins."""
    s = shot_earlier(deal({3: "blackmail"}, guns={0: 2}), 1, shooter=0)
    s = open_window(s, "shoot")
    s, _ = act(s, play(3, "blackmail", targets=(1, 2), positions=(1, 1)))
    s = pass_window(s)
    s, events = act(s, C.Shoot(seat=0))
    s = pass_window(s)
    assert s.seat(2).eliminated and not s.seat(1).eliminated
    assert s.step == "finished" and s.win_team == "honest"


@pytest.mark.parametrize(
    ("kw", "code"),
    [
        ({"target": 2}, "no_effect"),
        ({"target": 0}, "no_effect"),
        ({"target": 3}, "target_eliminated"),
        ({"target": 9}, "invalid_target"),
        ({}, "bad_parameters"),
        ({"target": 1, "targets": (1,)}, "bad_parameters"),
    ],
)
def test_bad_targets_are_refused(kw, code):
    """RULES §7.1 Med Kit, §7.3 (Med Kit needs a wounded seat): a living wounded seat."""
    s = shot_earlier(shot_earlier(deal({0: "med_kit"}), 1, shooter=0), 3)
    assert refused_unchanged(s, play(0, "med_kit", **kw)) == code


def test_nobody_wounded():
    """RULES §7.3 (Med Kit needs a wounded seat)."""
    s = deal({0: "med_kit"})
    assert legal_plays(s, 0, "med_kit") == []
    assert refused_unchanged(s, play(0, "med_kit", target=1)) == "no_effect"


def test_every_listed_play_is_accepted():
    """RULES §7.3: one play per wounded living seat."""
    s = shot_earlier(deal({0: "med_kit"}), 1, shooter=0)
    assert [c.target for c in legal_plays(s, 0, "med_kit")] == [1]
    assert accept_all(s, 0, "med_kit") == 1
