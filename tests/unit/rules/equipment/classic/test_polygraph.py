"""Polygraph on a classic table (RULES §7.2: as in §7.1, another seat sees all your integrity cards,
then you see all of its): the fourth edition's module, also with a seat down to one card."""

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
    of,
    play,
    refused_unchanged,
    shot_earlier,
)


def test_each_sees_the_others_cards():
    """RULES §7.2 Polygraph: seat 3 sees seat 0's cards, then seat 0 sees seat 3's."""
    s = deal({0: "polygraph"}, options=CLASSIC)
    s, events = act(s, play(0, "polygraph", target=3))
    viewed = [(e.viewer, e.seat, e.position) for e in of(events, E.CardViewed)]
    assert viewed == [(3, 0, p) for p in (1, 2, 3)] + [(0, 3, p) for p in (1, 2, 3)]
    assert [known(s, 0, 3, p) for p in (1, 2, 3)] == ["crooked", "honest", "crooked"]
    assert [known(s, 3, 0, p) for p in (1, 2, 3)] == ["agent", "honest", "honest"]


def test_with_a_seat_down_to_one_face_down_card():
    """RULES §7.2 Polygraph, Defibrillator and Flashbang: seat 2 holds one card, face down again;
    the Polygraph shows that one card."""
    s = deal({0: "polygraph"}, integrity=FIVE, options=CLASSIC)
    s = revived_earlier(shot_earlier(s, 2), 2, 2)
    s = fold([CardsShuffled(seat=2, positions=(1,))], s)
    s, events = act(s, play(0, "polygraph", target=2))
    assert [(e.viewer, e.seat, e.position) for e in of(events, E.CardViewed) if e.viewer == 0] == [
        (0, 2, 1)
    ]
    assert known(s, 0, 2, 1) == "crooked"


def test_refusals_and_listed_plays():
    """RULES §7.3: another living seat."""
    s = shot_earlier(deal({0: "polygraph"}, options=CLASSIC), 3)
    assert refused_unchanged(s, play(0, "polygraph", target=0)) == "target_is_self"
    assert refused_unchanged(s, play(0, "polygraph", target=3)) == "target_eliminated"
    assert refused_unchanged(s, play(0, "polygraph")) == "bad_parameters"
    assert accept_all(s, 0, "polygraph") == 2
