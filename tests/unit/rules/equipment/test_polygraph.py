"""Polygraph (RULES §7.1): choose another seat not protected by Disguise: it sees all your integrity
cards, then you see all of its (face-up cards are public already)."""

from __future__ import annotations

import pytest

from gcbc.rules.effects import reveal
from gcbc.rules.evolve import fold
from gcbc_contract import events as E
from tests.support import C, act
from tests.unit.rules.equipment.scenario import (
    WINDOWS,
    accept_all,
    cid,
    deal,
    known,
    legal_plays,
    of,
    open_window,
    play,
    refused_unchanged,
    shot_earlier,
)


def test_own_turn_both_ways():
    """RULES §7.1 Polygraph: seat 1 first sees seat 0's three cards, then seat 0 sees seat 1's;
    seats 2 and 3 learn nothing."""
    s = deal({0: "polygraph"})
    s, events = act(s, play(0, "polygraph", target=1))
    assert of(events, E.CardViewed) == [
        E.CardViewed(
            viewer=1, seat=0, position=1, card_id=cid(0, 1), card="agent", means="polygraph"
        ),
        E.CardViewed(
            viewer=1, seat=0, position=2, card_id=cid(0, 2), card="honest", means="polygraph"
        ),
        E.CardViewed(
            viewer=1, seat=0, position=3, card_id=cid(0, 3), card="honest", means="polygraph"
        ),
        E.CardViewed(
            viewer=0, seat=1, position=1, card_id=cid(1, 1), card="kingpin", means="polygraph"
        ),
        E.CardViewed(
            viewer=0, seat=1, position=2, card_id=cid(1, 2), card="crooked", means="polygraph"
        ),
        E.CardViewed(
            viewer=0, seat=1, position=3, card_id=cid(1, 3), card="crooked", means="polygraph"
        ),
    ]
    assert [known(s, 1, 0, p) for p in (1, 2, 3)] == ["agent", "honest", "honest"]
    assert [known(s, 0, 1, p) for p in (1, 2, 3)] == ["kingpin", "crooked", "crooked"]
    for viewer in (2, 3, None):
        assert [known(s, viewer, 0, p) for p in (1, 2, 3)] == [None, None, None]
        assert [known(s, viewer, 1, p) for p in (1, 2, 3)] == [None, None, None]
    assert s.step == "action" and s.turn_seat == 0


@pytest.mark.parametrize("window", WINDOWS)
def test_in_a_window(window):
    """RULES §7.1 Polygraph (any window): seat 2 and seat 3 see each other's cards."""
    s = deal({2: "polygraph"}, guns={0: 1})
    s = open_window(s, window)
    s, events = act(s, play(2, "polygraph", target=3))
    pairs = [(e.viewer, e.seat) for e in of(events, E.CardViewed) if e.means == "polygraph"]
    assert pairs == [(3, 2)] * 3 + [(2, 3)] * 3
    assert known(s, 2, 3, 1) == "crooked" and known(s, 3, 2, 2) == "crooked"


def test_face_up_cards_are_not_viewed_again():
    """RULES §7.1 Polygraph, §11: a face-up card is public; only face-down cards are shown."""
    s = deal({3: "polygraph"})
    s, _ = act(s, C.Arm(seat=0, target=1, position=2))
    s, _ = act(s, C.Aim(seat=0, target=1))
    assert s.window.kind == "end_of_turn"
    s, events = act(s, play(3, "polygraph", target=0))
    assert [(e.viewer, e.seat, e.position) for e in of(events, E.CardViewed)] == [
        (0, 3, 1),
        (0, 3, 2),
        (0, 3, 3),
        (3, 0, 1),
        (3, 0, 3),
    ]


def test_disguise_blocks_it():
    """RULES §7.1 Polygraph (a seat not protected by Disguise), Disguise."""
    s = deal({0: "polygraph", 3: "disguise"}, setup=[play(3, "disguise", target=1)])
    assert refused_unchanged(s, play(0, "polygraph", target=1)) == "target_disguised"
    assert [c.target for c in legal_plays(s, 0, "polygraph")] == [2, 3]


def test_does_not_trigger_surveillance_camera():
    """RULES §7.1 Surveillance Camera ('investigates'); engine decision (surveillance_camera.py):
    Polygraph is an exchange, not an investigation, so the camera owner is not prompted."""
    s = deal({0: "polygraph", 1: "surveillance_camera"}, setup=[play(1, "surveillance_camera")])
    s, events = act(s, play(0, "polygraph", target=1))
    assert of(events, E.PromptOpened) == [] and s.prompts == ()


@pytest.mark.parametrize(
    ("kw", "code"),
    [
        ({"target": 0}, "target_is_self"),
        ({"target": 3}, "target_eliminated"),
        ({"target": 9}, "invalid_target"),
        ({}, "bad_parameters"),
        ({"target": 1, "position": 1}, "bad_parameters"),
    ],
)
def test_bad_targets_are_refused(kw, code):
    """RULES §7.1 Polygraph, §7.3: another living seat."""
    s = shot_earlier(deal({0: "polygraph"}), 3)
    assert refused_unchanged(s, play(0, "polygraph", **kw)) == code


def test_every_listed_play_is_accepted():
    """RULES §7.3: one play per other living seat."""
    s = deal({0: "polygraph"})
    assert [c.target for c in legal_plays(s, 0, "polygraph")] == [1, 2, 3]
    assert accept_all(s, 0, "polygraph") == 3


def test_a_user_protected_by_disguise_shows_none_of_its_cards():
    """RULES §7.1 Polygraph (if you are protected by Disguise, it sees none of yours; the publisher's
    code makes each look an investigation): seat 0, disguised, plays it on seat 1: seat 1 views
    nothing; seat 0 still views all of seat 1's cards."""
    s = deal({0: "polygraph", 3: "disguise"}, setup=[play(3, "disguise", target=0)])
    s, events = act(s, play(0, "polygraph", target=1))
    viewed = of(events, E.CardViewed)
    assert [(e.viewer, e.seat, e.position) for e in viewed] == [(0, 1, 1), (0, 1, 2), (0, 1, 3)]
    assert [known(s, 1, 0, p) for p in (1, 2, 3)] == [None, None, None]
    assert [known(s, 0, 1, p) for p in (1, 2, 3)] == ["kingpin", "crooked", "crooked"]


def _face_up(s, *seats):
    """Every card of ``seats`` face up (revealed earlier in the game)."""
    return fold([reveal(s, seat, p) for seat in seats for p in (1, 2, 3)], s)


def test_nothing_to_show_either_way_is_refused():
    """RULES §7.3 (a card is played only when its effect can happen): seat 0 and seat 1 have every
    card face up, so neither would see anything new: refused on seat 1 and not listed for it;
    seat 2, whose cards are face down, can still be chosen."""
    s = _face_up(deal({0: "polygraph"}), 0, 1)
    assert refused_unchanged(s, play(0, "polygraph", target=1)) == "no_effect"
    assert [c.target for c in legal_plays(s, 0, "polygraph")] == [2, 3]
    assert accept_all(s, 0, "polygraph") == 2


def test_one_side_to_show_is_enough():
    """RULES §7.1, §7.3: a target with every card face up still sees the user's face-down cards
    (and a user with every card face up still sees the target's)."""
    s = _face_up(deal({0: "polygraph"}), 1)
    s2, events = act(s, play(0, "polygraph", target=1))
    assert [(e.viewer, e.seat) for e in of(events, E.CardViewed)] == [(1, 0)] * 3
    s = _face_up(deal({0: "polygraph"}), 0)
    s2, events = act(s, play(0, "polygraph", target=1))
    assert [(e.viewer, e.seat) for e in of(events, E.CardViewed)] == [(0, 1)] * 3


def test_a_disguised_user_needs_a_target_with_a_face_down_card():
    """RULES §7.1 (a user protected by Disguise shows none of its cards), §7.3: its Polygraph on a
    seat with every card face up would show nothing to anyone."""
    s = deal({0: "polygraph", 3: "disguise"}, setup=[play(3, "disguise", target=0)])
    s = _face_up(s, 1)
    assert refused_unchanged(s, play(0, "polygraph", target=1)) == "no_effect"
    assert [c.target for c in legal_plays(s, 0, "polygraph")] == [2, 3]
