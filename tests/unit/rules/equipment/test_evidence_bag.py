"""Evidence Bag (RULES §7.1): move one equipment card, from another seat's hand or in play in front
of another seat (its effect moves with it), to a third seat; you are never the giver or the
receiver; the receiver discards down to 1 if needed. ``choice`` names the source: "hand" or the
in-play card."""

from __future__ import annotations

import pytest

from gcbc.rules import legal_commands, view
from gcbc_contract import events as E
from tests.support import C, act
from tests.unit.rules.equipment.scenario import (
    WINDOWS,
    accept_all,
    accept_all_prompt,
    deal,
    legal_plays,
    of,
    one,
    open_window,
    play,
    refused_unchanged,
    shot_earlier,
    team,
)


def test_moves_a_card_from_a_hand():
    """RULES §7.1 Evidence Bag: seat 0 moves seat 1's card (in hand) to seat 2; only the giver and
    the receiver learn which card it is."""
    s = deal({0: "evidence_bag", 1: "coffee"})
    s, events = act(s, play(0, "evidence_bag", targets=(1, 2), choice="hand"))
    assert one(events, E.EquipmentMoved) == E.EquipmentMoved(from_seat=1, to_seat=2, card="coffee")
    assert s.seat(1).hand == () and s.seat(2).hand == ("coffee",)
    assert s.seat(0).hand == () and s.deck[-1] == "evidence_bag"
    assert s.step == "action" and s.turn_seat == 0 and not s.prompts
    public = view(s, None, log=False).seats
    assert [x.equipment_count for x in public] == [0, 0, 1, 0]
    entries = {v: view(s, v).log[-1] for v in (0, 1, 2, 3)}
    assert entries[1]["card"] == "coffee" and entries[2]["card"] == "coffee"
    assert "card" not in entries[0] and "card" not in entries[3]


@pytest.mark.parametrize("window", WINDOWS)
def test_in_a_window(window):
    """RULES §7.1 Evidence Bag (any window): the moved card's new holder is asked in the window."""
    s = deal({2: "evidence_bag", 3: "k9_unit"}, guns={0: 1})
    s = open_window(s, window)
    s, events = act(s, play(2, "evidence_bag", targets=(3, 1), choice="hand"))
    assert one(events, E.EquipmentMoved).card == "k9_unit"
    assert one(events, E.WindowReopened).asked == (1,)
    assert s.window.pending == (1,)


def test_a_receiver_over_the_hand_limit_must_discard_first():
    """RULES §6 (hand limit 1), §7.1 Evidence Bag: the receiver holding a card already is prompted
    to discard one before anything else happens; the discarded card goes to the bottom of the deck;
    then the window is asked again."""
    # given
    s = deal({0: "evidence_bag", 1: "coffee", 2: "k9_unit", 3: "med_kit"})
    s = open_window(s, "investigate", avoid=(2,))
    # when
    s, events = act(s, play(0, "evidence_bag", targets=(1, 2), choice="hand"))
    # then
    assert s.seat(2).hand == ("k9_unit", "coffee")
    assert [(p.seat, p.kind) for p in s.prompts] == [(2, "discard")]
    assert not of(events, E.WindowReopened)
    assert legal_commands(s, 2)[:2] == [
        C.Discard(seat=2, card="k9_unit"),
        C.Discard(seat=2, card="coffee"),
    ]
    # everything else waits for the discard
    assert refused_unchanged(s, C.Pass(seat=3)) == "prompt_pending"
    assert refused_unchanged(s, play(3, "med_kit", target=1)) == "prompt_pending"
    assert refused_unchanged(s, play(2, "k9_unit", target=0)) == "must_discard"
    assert refused_unchanged(s, C.Choose(seat=2, target=0)) == "must_discard"
    assert refused_unchanged(s, C.Discard(seat=2, card="taser")) == "card_not_in_hand"
    assert refused_unchanged(s, C.Discard(seat=3, card="med_kit")) == "not_waiting_for_you"
    assert accept_all_prompt(s) == 2
    # when seat 2 discards its old card
    s, events = act(s, C.Discard(seat=2, card="k9_unit"))
    # then
    assert one(events, E.EquipmentDiscarded) == E.EquipmentDiscarded(seat=2, card="k9_unit")
    assert s.seat(2).hand == ("coffee",) and s.deck[-1] == "k9_unit"
    assert one(events, E.WindowReopened).asked == (2, 3)


def test_moving_disguise_moves_its_protection():
    """RULES §7.1 Evidence Bag (an in-play card's effect moves with it), Disguise: the Disguise in
    front of seat 1 goes to seat 2; seat 1 can be investigated again, seat 2 no longer."""
    s = deal({0: "evidence_bag", 3: "disguise"}, setup=[play(3, "disguise", target=1)])
    assert refused_unchanged(s, C.Investigate(seat=0, target=1, position=1)) == "target_disguised"
    s, events = act(s, play(0, "evidence_bag", targets=(1, 2), choice="disguise"))
    assert one(events, E.EquipmentMoved) == E.EquipmentMoved(
        from_seat=1, to_seat=2, card="disguise", in_play=True
    )
    assert s.seat(1).in_play == () and s.seat(2).in_play == ("disguise",)
    assert view(s, None, log=False).seats[2].in_play == ["disguise"]
    assert refused_unchanged(s, C.Investigate(seat=0, target=2, position=1)) == "target_disguised"
    s, events = act(s, C.Investigate(seat=0, target=1, position=1))
    assert one(events, E.ActionDeclared).target == 1


def test_moving_planted_evidence_moves_the_flip():
    """RULES §2, §7.1 Evidence Bag and Planted Evidence: seat 2 (honest majority) is crooked while
    the card is in front of it; moved to seat 3 (crooked majority), seat 2 is honest again and seat
    3 honest."""
    s = deal(
        {0: "evidence_bag", 3: "planted_evidence"}, setup=[play(3, "planted_evidence", target=2)]
    )
    assert (team(s, 2), team(s, 3)) == ("crooked", "crooked")
    s, _ = act(s, play(0, "evidence_bag", targets=(2, 3), choice="planted_evidence"))
    assert (team(s, 2), team(s, 3)) == ("honest", "honest")


def test_moving_surveillance_camera_moves_who_watches():
    """RULES §7.1 Evidence Bag and Surveillance Camera: the camera moved from seat 1 to seat 2 now
    prompts seat 2 when seat 2 is investigated, and nobody when seat 1 is."""
    s = deal(
        {0: "evidence_bag", 1: "surveillance_camera"},
        setup=[play(1, "surveillance_camera")],
    )
    s, _ = act(s, play(0, "evidence_bag", targets=(1, 2), choice="surveillance_camera"))
    assert s.seat(2).in_play == ("surveillance_camera",)
    # seat 0 investigates seat 2: seat 2 is prompted
    a, events = act(s, C.Investigate(seat=0, target=2, position=1))
    assert one(events, E.PromptOpened) == E.PromptOpened(
        seat=2, kind="surveillance_camera", options=(1, 2, 3), about=0
    )
    # seat 0 investigates seat 1: nobody is
    b, events = act(s, C.Investigate(seat=0, target=1, position=1))
    assert of(events, E.PromptOpened) == [] and b.prompts == ()


@pytest.mark.parametrize(
    ("kw", "code"),
    [
        ({"targets": (0, 2), "choice": "hand"}, "target_is_self"),
        ({"targets": (1, 0), "choice": "hand"}, "target_is_self"),
        ({"targets": (1, 1), "choice": "hand"}, "invalid_target"),
        ({"targets": (1, 9), "choice": "hand"}, "invalid_target"),
        ({"targets": (1, 3), "choice": "hand"}, "target_eliminated"),
        ({"targets": (3, 1), "choice": "hand"}, "target_eliminated"),
        ({"targets": (2, 1), "choice": "hand"}, "invalid_choice"),  # seat 2 holds nothing
        ({"targets": (1, 2), "choice": "disguise"}, "invalid_choice"),  # not in play there
        ({"targets": (1, 2), "choice": "coffee"}, "invalid_choice"),  # in hand, not in play
        ({"targets": (1, 2)}, "bad_parameters"),
        ({"choice": "hand"}, "bad_parameters"),
        ({"targets": (1,), "choice": "hand"}, "bad_parameters"),
        ({"targets": (1, 2, 3), "choice": "hand"}, "bad_parameters"),
        ({"targets": (1, 2), "choice": "hand", "target": 2}, "bad_parameters"),
    ],
)
def test_bad_targets_are_refused(kw, code):
    """RULES §7.1 Evidence Bag, §7.3: a living giver and receiver, both other seats and different,
    and a source the giver has."""
    s = shot_earlier(deal({0: "evidence_bag", 1: "coffee"}), 3)
    assert refused_unchanged(s, play(0, "evidence_bag", **kw)) == code


def test_nothing_to_move():
    """RULES §7.3: with no equipment in other seats' hands or in play, it is not listed."""
    s = deal({0: "evidence_bag"})
    assert legal_plays(s, 0, "evidence_bag") == []
    assert refused_unchanged(s, play(0, "evidence_bag", targets=(1, 2), choice="hand")) == (
        "invalid_choice"
    )


def test_every_listed_play_is_accepted():
    """RULES §7.3: from seat 1's hand and from the Disguise in front of seat 3, to each other seat."""
    s = deal({0: "evidence_bag", 1: "coffee", 3: "disguise"}, setup=[play(3, "disguise", target=3)])
    plays = legal_plays(s, 0, "evidence_bag")
    assert {(c.targets, c.choice) for c in plays} == {
        ((1, 2), "hand"),
        ((1, 3), "hand"),
        ((3, 1), "disguise"),
        ((3, 2), "disguise"),
    }
    assert accept_all(s, 0, "evidence_bag") == 4
