"""Evidence Bag, classic wording (RULES §7.2): take an equipment card from any seat's hand (into
yours)."""

from __future__ import annotations

import pytest

from gcbc.rules import view
from gcbc.rules.log import render
from gcbc_contract import events as E
from tests.support import act
from tests.unit.rules.equipment.classic import CLASSIC, CLASSIC_ZOMBIES
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
)


def test_takes_another_seats_card_into_your_hand():
    """RULES §7.2 Evidence Bag, §11 (a hand is private; its count is public): seat 0 takes seat 2's
    Coffee; only seats 0 and 2 learn which card moved; seat 0 may use it later."""
    s = deal({0: "evidence_bag", 2: "coffee"}, options=CLASSIC)
    s, events = act(s, play(0, "evidence_bag", target=2))
    moved = one(events, E.EquipmentMoved)
    assert moved == E.EquipmentMoved(from_seat=2, to_seat=0, card="coffee")
    assert s.seat(0).hand == ("coffee",) and s.seat(2).hand == ()
    assert s.deck[-1] == "evidence_bag" and s.prompts == ()
    for viewer in (0, 2):
        assert render(moved, viewer)["card"] == "coffee"
    for viewer in (None, 1, 3):
        assert "card" not in render(moved, viewer)
    assert view(s, None, log=False).seats[0].equipment_count == 1
    assert view(s, 0, log=False).you.hand == ["coffee"]
    s, events = act(s, play(0, "coffee"))
    assert one(events, E.NextTurnClaimed).seat == 0


@pytest.mark.parametrize("window", WINDOWS)
def test_in_a_window(window):
    """RULES §7.2 Evidence Bag (any window): seat 3 takes seat 1's Smoke Grenade."""
    s = deal({3: "evidence_bag", 1: "smoke_grenade"}, guns={0: 2}, options=CLASSIC)
    s = open_window(s, window)
    s, events = act(s, play(3, "evidence_bag", target=1))
    assert one(events, E.EquipmentMoved).card == "smoke_grenade"
    assert s.seat(3).hand == ("smoke_grenade",)


def test_from_a_zombies_hand():
    """RULES §8 (a zombie keeps its equipment), §7.2 Evidence Bag (any seat's hand)."""
    s = shot_earlier(deal({0: "evidence_bag", 2: "coffee"}, options=CLASSIC_ZOMBIES), 2)
    assert s.seat(2).zombie and s.seat(2).hand == ("coffee",)
    s, events = act(s, play(0, "evidence_bag", target=2))
    assert one(events, E.EquipmentMoved) == E.EquipmentMoved(from_seat=2, to_seat=0, card="coffee")


def test_cards_in_play_are_not_taken():
    """RULES §7.2 Evidence Bag (from a hand): Planted Evidence in play in front of seat 1 is not in
    a hand."""
    s = deal(
        {0: "evidence_bag", 1: "planted_evidence"},
        setup=[play(1, "planted_evidence", target=1)],
        options=CLASSIC,
    )
    assert s.seat(1).in_play == ("planted_evidence",) and s.seat(1).hand == ()
    assert legal_plays(s, 0, "evidence_bag") == []
    assert refused_unchanged(s, play(0, "evidence_bag", target=1)) == "no_effect"


def test_refusals():
    """RULES §7.2 Evidence Bag, §7.3: another living seat with a card in hand; one ``target``."""
    s = shot_earlier(deal({0: "evidence_bag", 1: "coffee", 3: "wiretap"}, options=CLASSIC), 3)
    assert s.seat(3).eliminated and s.seat(3).hand == ()
    assert refused_unchanged(s, play(0, "evidence_bag", target=2)) == "no_effect"
    assert refused_unchanged(s, play(0, "evidence_bag", target=3)) == "target_eliminated"
    assert refused_unchanged(s, play(0, "evidence_bag", target=0)) == "target_is_self"
    assert refused_unchanged(s, play(0, "evidence_bag", target=9)) == "invalid_target"
    assert refused_unchanged(s, play(0, "evidence_bag")) == "bad_parameters"
    assert refused_unchanged(s, play(0, "evidence_bag", targets=(1, 2), choice="hand")) == (
        "bad_parameters"
    )
    assert refused_unchanged(s, play(0, "evidence_bag", target=1, choice="hand")) == (
        "bad_parameters"
    )
    assert refused_unchanged(s, play(2, "evidence_bag", target=1)) == "card_not_in_hand"


def test_nobody_else_holds_equipment():
    """RULES §7.3 (only when its effect can happen)."""
    s = deal({0: "evidence_bag"}, options=CLASSIC)
    assert legal_plays(s, 0, "evidence_bag") == []
    assert refused_unchanged(s, play(0, "evidence_bag", target=1)) == "no_effect"


def test_every_listed_play_is_accepted():
    """RULES §7.3: one play per other seat holding a card."""
    s = deal({0: "evidence_bag", 1: "coffee", 3: "wiretap"}, options=CLASSIC)
    assert [c.target for c in legal_plays(s, 0, "evidence_bag")] == [1, 3]
    assert accept_all(s, 0, "evidence_bag") == 2
