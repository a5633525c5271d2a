"""Wiretap on a classic table (RULES §7.2: investigate any two seats): the fourth edition's module
(one face-down card of each of two other seats), also with a seat down to one card."""

from __future__ import annotations

from gcbc.rules.evolve import fold
from gcbc_contract import events as E
from gcbc_contract.events import CardsShuffled
from tests.support import act
from tests.unit.rules.equipment.classic import CLASSIC, revived_earlier
from tests.unit.rules.equipment.scenario import (
    FIVE,
    accept_all,
    deal,
    known,
    legal_plays,
    of,
    play,
    refused_unchanged,
    shot_earlier,
)


def test_views_one_card_of_each_of_two_seats():
    """RULES §7.2 Wiretap: seat 0 views seat 1's position 1 and seat 3's position 2."""
    s = deal({0: "wiretap"}, options=CLASSIC)
    s, events = act(s, play(0, "wiretap", targets=(1, 3), positions=(1, 2)))
    assert [(e.seat, e.position) for e in of(events, E.CardViewed)] == [(1, 1), (3, 2)]
    assert known(s, 0, 1, 1) == "kingpin" and known(s, 0, 3, 2) == "honest"
    assert known(s, 2, 1, 1) is None


def test_a_seat_down_to_one_card():
    """RULES §7.2 Wiretap and Defibrillator (single remaining card): seat 2's only card (face down
    again after a Flashbang) is at position 1; position 2 is refused, not a crash."""
    s = deal({0: "wiretap"}, integrity=FIVE, options=CLASSIC)
    s = revived_earlier(shot_earlier(s, 2), 2, 2)
    s = fold([CardsShuffled(seat=2, positions=(1,))], s)
    assert {c.positions[0] for c in legal_plays(s, 0, "wiretap") if c.targets[0] == 2} == {1}
    assert refused_unchanged(s, play(0, "wiretap", targets=(2, 3), positions=(2, 1))) == (
        "invalid_position"
    )
    s, events = act(s, play(0, "wiretap", targets=(2, 3), positions=(1, 1)))
    assert known(s, 0, 2, 1) == "crooked"


def test_refusals_and_listed_plays():
    """RULES §7.3: two different other living seats, a face-down card of each."""
    s = deal({0: "wiretap"}, options=CLASSIC)
    assert refused_unchanged(s, play(0, "wiretap", targets=(1, 1), positions=(1, 2))) == (
        "invalid_target"
    )
    assert refused_unchanged(s, play(0, "wiretap", targets=(0, 1), positions=(1, 2))) == (
        "target_is_self"
    )
    assert refused_unchanged(s, play(0, "wiretap", targets=(1, 2), positions=(1, 4))) == (
        "invalid_position"
    )
    assert accept_all(s, 0, "wiretap") == 27
