"""Planted Evidence on a classic table (RULES §7.2: as in §7.1, in front of a living seat its Honest
cards count as Crooked and vice versa; Leaders still decide): the fourth edition's module, checked
on a seat down to its single card (classic Defibrillator)."""

from __future__ import annotations

from gcbc.rules.teams import true_team
from gcbc_contract import events as E
from tests.support import act
from tests.unit.rules.equipment.classic import CLASSIC, revived_earlier
from tests.unit.rules.equipment.scenario import (
    FIVE,
    accept_all,
    deal,
    one,
    play,
    refused_unchanged,
    shot_earlier,
    team,
)


def test_flips_a_seats_majority():
    """RULES §7.2 Planted Evidence: seat 2 (two Honest) counts as Crooked."""
    s = deal({0: "planted_evidence"}, options=CLASSIC)
    s, events = act(s, play(0, "planted_evidence", target=2))
    assert one(events, E.EquipmentPlayed).placed_on == 2
    assert true_team(s, 2) == "crooked" and team(s, 2) == "crooked"


def test_flips_the_single_remaining_card():
    """RULES §7.2 Defibrillator (its single remaining card decides its team) and Planted Evidence:
    seat 2 kept a Crooked card; with Planted Evidence it counts as Honest."""
    s = deal({0: "planted_evidence"}, integrity=FIVE, options=CLASSIC)
    s = revived_earlier(shot_earlier(s, 2), 2, 2)
    assert true_team(s, 2) == "crooked"
    s, _ = act(s, play(0, "planted_evidence", target=2))
    assert true_team(s, 2) == "honest" and team(s, 2) == "honest"


def test_a_leader_still_decides():
    """RULES §7.2 (as in §7.1: Leaders still decide their holder's team)."""
    s = deal({0: "planted_evidence"}, options=CLASSIC)
    s, _ = act(s, play(0, "planted_evidence", target=1))
    assert true_team(s, 1) == "crooked"


def test_refusals_and_listed_plays():
    """RULES §7.3: a living seat."""
    s = shot_earlier(deal({0: "planted_evidence"}, options=CLASSIC), 3)
    assert refused_unchanged(s, play(0, "planted_evidence", target=3)) == "target_eliminated"
    assert refused_unchanged(s, play(0, "planted_evidence")) == "bad_parameters"
    assert accept_all(s, 0, "planted_evidence") == 3
