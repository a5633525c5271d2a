"""Disguise (RULES §7.1): stays in play in front of a seat you choose: that seat's cards cannot be
investigated for the rest of the game (Investigate, Metal Detector, Wiretap, Polygraph; Truth
Serum still reaches them)."""

from __future__ import annotations

import pytest

from gcbc.rules import legal_commands, view
from gcbc_contract import events as E
from tests.support import C, act
from tests.unit.rules.equipment.scenario import (
    WINDOWS,
    accept_all,
    deal,
    end_turn,
    legal_plays,
    of,
    one,
    open_window,
    play,
    refused_unchanged,
    shot_earlier,
)


def test_own_turn_protects_the_chosen_seat():
    """RULES §7.1 Disguise, §3.1 (Investigate: not on a seat protected by Disguise): seat 0 puts it
    in front of seat 1; seat 1's cards can no longer be investigated; others still can."""
    s = deal({0: "disguise"})
    deck = s.deck
    s, events = act(s, play(0, "disguise", target=1))
    assert one(events, E.EquipmentPlayed).placed_on == 1
    assert s.seat(1).in_play == ("disguise",) and s.deck == deck and s.seat(0).hand == ()
    assert view(s, None, log=False).seats[1].in_play == ["disguise"]
    for p in (1, 2, 3):
        assert refused_unchanged(s, C.Investigate(seat=0, target=1, position=p)) == (
            "target_disguised"
        )
    targets = {c.target for c in legal_commands(s, 0) if isinstance(c, C.Investigate)}
    assert targets == {2, 3}
    s, events = act(s, C.Investigate(seat=0, target=2, position=1))
    assert one(events, E.ActionDeclared).target == 2


@pytest.mark.parametrize("window", WINDOWS)
def test_in_a_window(window):
    """RULES §7.1 Disguise (any window): seat 2 disguises itself during seat 0's turn."""
    s = open_window(deal({2: "disguise"}, guns={0: 1}), window, avoid=(2,))
    s, events = act(s, play(2, "disguise", target=2))
    assert one(events, E.EquipmentPlayed).placed_on == 2
    assert s.seat(2).in_play == ("disguise",)


def test_played_in_the_investigate_window_it_cancels_the_investigation():
    """RULES §6 (the declared action became impossible: the acting seat chooses again), §7.1
    Disguise: seat 0 declared an investigation of seat 1; seat 3 disguises seat 1; nothing is seen
    and seat 0 chooses another action."""
    s = deal({3: "disguise"})
    s, _ = act(s, C.Investigate(seat=0, target=1, position=1))
    s, events = act(s, play(3, "disguise", target=1))
    assert one(events, E.ActionCancelled) == E.ActionCancelled(seat=0, reason="impossible")
    assert of(events, E.CardViewed) == []
    assert s.step == "action" and s.turn_seat == 0
    assert refused_unchanged(s, C.Investigate(seat=0, target=1, position=1)) == "target_disguised"


@pytest.mark.parametrize(
    ("card", "kw", "code"),
    [
        ("wiretap", {"targets": (1, 2), "positions": (1, 1)}, "target_disguised"),
        ("polygraph", {"target": 1}, "target_disguised"),
        ("metal_detector", {"targets": (1, 2), "positions": (1, 1)}, "invalid_target"),
    ],
)
def test_blocks_the_investigating_cards(card, kw, code):
    """RULES §7.1 Disguise blocks Wiretap, Polygraph and Metal Detector (seat 1, disguised and
    armed, is left out of the Metal Detector's seats)."""
    s = deal({0: card, 3: "disguise"}, setup=[play(3, "disguise", target=1)], guns={1: 0, 2: 0})
    assert refused_unchanged(s, play(0, card, **kw)) == code
    assert all(1 not in (c.targets or (c.target,)) for c in legal_plays(s, 0, card))


def test_truth_serum_still_reaches():
    """RULES §7.1 Disguise (Truth Serum still reaches them)."""
    s = deal({0: "truth_serum", 3: "disguise"}, setup=[play(3, "disguise", target=1)])
    s, events = act(s, play(0, "truth_serum", target=1, position=2))
    assert one(events, E.CardRevealed).seat == 1


def test_lasts_for_the_rest_of_the_game():
    """RULES §7.1 Disguise (for the rest of the game): turns later, seat 1 is still protected."""
    s = deal({3: "disguise"}, setup=[play(3, "disguise", target=1)])
    for _ in range(4):
        s = end_turn(s)
    assert s.turn_seat == 0 and s.turn_number == 5
    assert refused_unchanged(s, C.Investigate(seat=0, target=1, position=3)) == "target_disguised"


@pytest.mark.parametrize(
    ("kw", "code"),
    [
        ({"target": 3}, "target_eliminated"),
        ({"target": 9}, "invalid_target"),
        ({}, "bad_parameters"),
        ({"target": 1, "position": 1}, "bad_parameters"),
    ],
)
def test_bad_targets_are_refused(kw, code):
    """RULES §7.1 Disguise, §7.3: a living seat."""
    s = shot_earlier(deal({0: "disguise"}), 3)
    assert refused_unchanged(s, play(0, "disguise", **kw)) == code


def test_every_listed_play_is_accepted():
    """RULES §7.3: one play per living seat, the player's own included."""
    s = deal({0: "disguise"})
    assert [c.target for c in legal_plays(s, 0, "disguise")] == [0, 1, 2, 3]
    assert accept_all(s, 0, "disguise") == 4
