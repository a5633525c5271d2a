"""Metal Detector on a classic table (RULES §7.2: investigate each seat holding a gun): the fourth
edition's module (one face-down card, your choice, of each other armed seat), with the classic
edition's fewer guns (§1)."""

from __future__ import annotations

from gcbc_contract import events as E
from tests.support import act
from tests.unit.rules.equipment.classic import CLASSIC
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


def test_views_a_card_of_each_armed_seat():
    """RULES §7.2 Metal Detector: at 5 players (3 guns) seats 1, 2 and 4 are armed; seat 0 views
    one card of each."""
    s = deal({0: "metal_detector"}, integrity=FIVE, guns={1: 0, 2: 0, 4: 0}, options=CLASSIC)
    assert s.guns_in_centre == 0
    s, events = act(s, play(0, "metal_detector", targets=(1, 2, 4), positions=(1, 2, 3)))
    assert [(e.seat, e.position) for e in of(events, E.CardViewed)] == [(1, 1), (2, 2), (4, 3)]
    assert known(s, 0, 1, 1) == "kingpin"


def test_a_seat_showing_every_card_is_skipped():
    """RULES §7.3: the armed wounded Kingpin shows all its cards: only seat 3 is investigated."""
    s = shot_earlier(deal({0: "metal_detector"}, guns={1: 0, 3: 0}, options=CLASSIC), 1)
    assert {c.targets for c in legal_plays(s, 0, "metal_detector")} == {(3,)}
    assert refused_unchanged(s, play(0, "metal_detector", targets=(1, 3), positions=(1, 1))) == (
        "invalid_target"
    )


def test_refusals_and_listed_plays():
    """RULES §7.3: every other armed seat, a face-down card of each; none armed: no effect."""
    s = deal({0: "metal_detector"}, options=CLASSIC)
    assert legal_plays(s, 0, "metal_detector") == []
    assert refused_unchanged(s, play(0, "metal_detector", targets=(1,), positions=(1,))) == (
        "no_effect"
    )
    t = deal({0: "metal_detector"}, guns={1: 0, 3: 0}, options=CLASSIC)
    assert accept_all(t, 0, "metal_detector") == 9
