"""Wiretap (RULES §7.1): investigate one face-down card of each of two different seats (engine: two
other seats, in either order: ``test_blackmail``)."""

from __future__ import annotations

import pytest

from gcbc.rules import view
from gcbc_contract import events as E
from tests.support import C, act, pass_window
from tests.unit.rules.equipment.scenario import (
    WINDOWS,
    accept_all,
    cid,
    deal,
    end_turn,
    known,
    legal_plays,
    of,
    open_window,
    play,
    refused_unchanged,
    shot_earlier,
)


def test_own_turn_views_one_card_of_each_of_two_seats():
    """RULES §7.1 Wiretap, §11: seat 0 alone sees the two cards; everyone sees which were seen."""
    s = deal({0: "wiretap"})
    s, events = act(s, play(0, "wiretap", targets=(1, 3), positions=(1, 2)))
    assert of(events, E.CardViewed) == [
        E.CardViewed(
            viewer=0, seat=1, position=1, card_id=cid(1, 1), card="kingpin", means="wiretap"
        ),
        E.CardViewed(
            viewer=0, seat=3, position=2, card_id=cid(3, 2), card="honest", means="wiretap"
        ),
    ]
    assert known(s, 0, 1, 1) == "kingpin" and known(s, 0, 3, 2) == "honest"
    assert known(s, 2, 1, 1) is None and known(s, None, 3, 2) is None
    seats = view(s, None, log=False).seats
    assert [(x.seat, x.by) for x in seats[1].cards[0].seen] == [(0, "wiretap")]
    assert [(x.seat, x.by) for x in seats[3].cards[1].seen] == [(0, "wiretap")]
    assert s.step == "action" and s.turn_seat == 0


@pytest.mark.parametrize("window", WINDOWS)
def test_in_a_window(window):
    """RULES §7.1 Wiretap (any window): seat 2 wiretaps seats 0 and 1."""
    s = open_window(deal({2: "wiretap"}, guns={0: 1}), window, avoid=(1,))
    s, events = act(s, play(2, "wiretap", targets=(0, 1), positions=(2, 3)))
    viewed = [(e.seat, e.position) for e in of(events, E.CardViewed) if e.viewer == 2]
    assert viewed == [(0, 2), (1, 3)]
    assert known(s, 2, 1, 3) == "crooked"


def test_disguise_blocks_it():
    """RULES §7.1 Wiretap and Disguise: a disguised seat is not listed and is refused."""
    s = deal({0: "wiretap", 3: "disguise"}, setup=[play(3, "disguise", target=2)])
    cmd = play(0, "wiretap", targets=(1, 2), positions=(1, 1))
    assert refused_unchanged(s, cmd) == "target_disguised"
    assert {c.targets for c in legal_plays(s, 0, "wiretap")} == {(1, 3)}


@pytest.mark.parametrize(
    ("kw", "code"),
    [
        ({"targets": (0, 1), "positions": (1, 1)}, "target_is_self"),
        ({"targets": (1, 1), "positions": (2, 3)}, "invalid_target"),
        ({"targets": (1, 9), "positions": (2, 1)}, "invalid_target"),
        ({"targets": (1,), "positions": (2,)}, "bad_parameters"),
        ({"targets": (1, 2), "positions": (2,)}, "bad_parameters"),
        ({"targets": (1, 2)}, "bad_parameters"),
        ({"targets": (1, 2), "positions": (2, 2), "target": 1}, "bad_parameters"),
        ({"targets": (1, 3), "positions": (2, 1)}, "target_eliminated"),
        ({"targets": (1, 2), "positions": (1, 2)}, "card_not_face_down"),
        ({"targets": (1, 2), "positions": (2, 4)}, "invalid_position"),
    ],
)
def test_bad_targets_are_refused(kw, code):
    """RULES §7.1 Wiretap, §7.3: two different other living seats, a face-down card each."""
    # given seat 1 turned its position 1 face up when it armed; seat 3 is eliminated
    s = shot_earlier(deal({0: "wiretap"}, first_seat=1), 3)
    s, _ = act(s, C.Arm(seat=1, target=2, position=1))
    s, _ = act(s, C.Aim(seat=1, target=2))
    s = end_turn(pass_window(s))
    assert s.turn_seat == 0 and s.seat(1).face_up == (True, False, False)
    assert refused_unchanged(s, play(0, "wiretap", **kw)) == code


def test_needs_two_investigable_seats():
    """RULES §7.3: with only one other seat that can be investigated, it is not listed."""
    s = deal({0: "wiretap", 3: "disguise"}, setup=[play(3, "disguise", target=2)])
    s = shot_earlier(s, 3)
    assert legal_plays(s, 0, "wiretap") == []
    cmd = play(0, "wiretap", targets=(1, 2), positions=(1, 1))
    assert refused_unchanged(s, cmd) == "target_disguised"


def test_every_listed_play_is_accepted():
    """RULES §7.3: 3 pairs of other seats x 3 x 3 face-down cards."""
    s = deal({0: "wiretap"})
    assert len(legal_plays(s, 0, "wiretap")) == 27
    assert accept_all(s, 0, "wiretap") == 27
