"""Transfusion Tube (RULES §8.1): with both Leader cards face up and held by two different seats,
their holders exchange them (each taking the other's position, face up; the Wounded token moves
with its card in the fourth edition, RULES §4)."""

from __future__ import annotations

import pytest

from gcbc.rules.invariants import violations
from gcbc.rules.teams import is_wounded
from gcbc_contract.options import TableOptions
from tests.support import EXTRA, E, act
from tests.unit.rules.equipment.scenario import (
    WINDOWS,
    accept_all,
    deal,
    legal_plays,
    one,
    open_window,
    play,
    refused_unchanged,
    shot_earlier,
    team,
)
from tests.unit.rules.zombies.cards.given import BOTH, revealed, wrong_moments

# the Agent at seat 3, position 2; the Kingpin at seat 1, position 1
APART = [
    ["honest", "crooked", "honest"],
    ["kingpin", "crooked", "crooked"],
    ["honest", "crooked", "honest"],
    ["crooked", "agent", "honest"],
]


def leaders_up(s):
    """Given: both Leader cards were turned face up earlier."""
    for i, st in enumerate(s.seats):
        for p, cid in enumerate(st.cards, start=1):
            if cid in s.leader_ids and not st.face_up[p - 1]:
                s = revealed(s, i, p)
    return s


@pytest.mark.parametrize("options", BOTH)
def test_the_holders_exchange_the_leaders(options):
    """RULES §8.1 Transfusion Tube, §2 (teams recomputed): seat 2 plays it on its own turn (not as
    its action); the Agent (seat 0) and the Kingpin (seat 1) change hands, each face up at the
    other's position: seat 0 is now crooked, seat 1 honest."""
    s = leaders_up(deal({2: "transfusion_tube"}, first_seat=2, options=options))
    s, events = act(s, play(2, "transfusion_tube"))
    assert events[1:] == [
        E.CardsExchanged(
            seats=(0, 1), positions=(1, 1), card_ids=(0, 3), cards=("agent", "kingpin")
        )
    ]
    assert s.seat(0).cards[0] == 3 and s.seat(1).cards[0] == 0
    assert s.seat(0).face_up[0] and s.seat(1).face_up[0]
    assert team(s, 0) == "crooked" and team(s, 1) == "honest"
    assert s.step == "action" and s.turn_seat == 2 and s.deck[-1] == "transfusion_tube"
    assert violations(s) == []


def test_positions_follow_the_cards_and_seats_are_in_increasing_order():
    """RULES §8.1 Transfusion Tube (as Blackmail's exchange, seats in increasing order): the
    Kingpin (seat 1, position 1) and the Agent (seat 3, position 2)."""
    s = leaders_up(deal({0: "transfusion_tube"}, integrity=APART, options=EXTRA))
    s, events = act(s, play(0, "transfusion_tube"))
    assert one(events, E.CardsExchanged) == E.CardsExchanged(
        seats=(1, 3), positions=(1, 2), card_ids=(3, 10), cards=("kingpin", "agent")
    )
    assert s.seat(1).cards == (10, 4, 5) and s.seat(3).cards == (9, 3, 11)


def test_the_wound_moves_with_its_card():
    """RULES §8.1 Transfusion Tube, §4 (fourth edition: the Wounded token sits on the Leader card
    and moves with it): the wounded Agent goes to seat 1, which is now the wounded Leader."""
    s = deal({2: "transfusion_tube"}, first_seat=2, options=EXTRA)
    s = leaders_up(shot_earlier(s, 0))  # the Agent: wounded, all its cards face up
    assert is_wounded(s, 0) and not is_wounded(s, 1)
    s, _ = act(s, play(2, "transfusion_tube"))
    assert is_wounded(s, 1) and not is_wounded(s, 0)


def test_classic_the_wound_stays_with_its_seat():
    """RULES §8.1 Transfusion Tube, §4 (classic: the seat holds the Wounded card): the wounded
    seat still holds a Leader (the other one) and stays wounded."""
    options = TableOptions(edition="classic", extra_equipment=True)
    s = deal({2: "transfusion_tube"}, first_seat=2, options=options)
    s = leaders_up(shot_earlier(s, 0))
    s, _ = act(s, play(2, "transfusion_tube"))
    assert s.seat(0).cards[0] == 3 and s.seat(0).wounded and not s.seat(0).eliminated
    assert not is_wounded(s, 1) and violations(s) == []


@pytest.mark.parametrize("window", WINDOWS)
def test_in_a_window(window):
    """RULES §8.1 Transfusion Tube (any window), §6."""
    s = leaders_up(deal({3: "transfusion_tube"}, guns={0: 2}, options=EXTRA))
    s = open_window(s, window)
    s, events = act(s, play(3, "transfusion_tube"))
    assert one(events, E.CardsExchanged).seats == (0, 1)
    assert s.seat(1).cards[0] == 0


@pytest.mark.parametrize("face_down", [0, 1])
def test_a_face_down_leader_is_refused(face_down):
    """RULES §8.1 Transfusion Tube, §7.3: both Leader cards must be face up."""
    s = deal({2: "transfusion_tube"}, first_seat=2, options=EXTRA)
    assert refused_unchanged(s, play(2, "transfusion_tube")) == "card_not_face_up"
    s = revealed(s, 1 - face_down, 1)
    assert legal_plays(s, 2, "transfusion_tube") == []
    assert refused_unchanged(s, play(2, "transfusion_tube")) == "card_not_face_up"


def test_parameters_are_refused():
    """RULES §8.1 Transfusion Tube, §7.3: it takes no parameter."""
    s = leaders_up(deal({0: "transfusion_tube"}, options=EXTRA))
    assert refused_unchanged(s, play(0, "transfusion_tube", target=1)) == "bad_parameters"
    assert refused_unchanged(s, play(0, "transfusion_tube", targets=(0, 1))) == "bad_parameters"


def test_wrong_moments_are_refused():
    """RULES §6: from one's own hand, in one's own turn or when asked in a window."""
    s = leaders_up(deal({1: "transfusion_tube"}, guns={0: 1}, options=EXTRA))
    wrong_moments(s, play(1, "transfusion_tube"))


@pytest.mark.parametrize("options", BOTH)
def test_every_listed_play_is_accepted(options):
    """RULES §7.3: the one play, listed once both Leaders are face up."""
    s = deal({0: "transfusion_tube"}, options=options)
    assert legal_plays(s, 0, "transfusion_tube") == []
    s = leaders_up(s)
    assert legal_plays(s, 0, "transfusion_tube") == [play(0, "transfusion_tube")]
    assert accept_all(s, 0, "transfusion_tube") == 1
