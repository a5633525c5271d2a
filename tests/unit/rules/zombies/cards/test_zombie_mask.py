"""Zombie Mask (RULES §8.1, Zombies only): ``targets`` = (a zombie, another living seat). The zombie
stops being one (its Arms return to the centre) and exchanges all its integrity cards with all
those of the other seat: one exchange per position, each card keeping its face, each receiver
learning what it got. Decision: both seats hold the same number of cards, and the other seat is
not a zombie."""

from __future__ import annotations

import pytest

from gcbc.rules import legal_commands
from gcbc.rules.equipment.registry import card as card_rules
from gcbc.rules.evolve import fold
from gcbc.rules.invariants import violations
from gcbc.rules.setup import equipment_deck
from gcbc.rules.teams import is_wounded
from gcbc_contract.options import TableOptions
from tests.support import EXTRA, ZOMBIES, C, E, act
from tests.unit.rules.bombers_traitors.givens import BOMBER_TRAITOR, ZOMBIES_BT
from tests.unit.rules.equipment.scenario import (
    FIVE,
    WINDOWS,
    accept_all,
    deal,
    known,
    legal_plays,
    of,
    one,
    open_window,
    play,
    refused_unchanged,
    shot_earlier,
    team,
)
from tests.unit.rules.zombies.cards.given import wrong_moments
from tests.unit.rules.zombies.given import risen, zdeal


def test_the_zombie_is_cured_and_exchanges_all_its_cards():
    """RULES §8.1 Zombie Mask, §8, §2: seat 0 cures zombie 2 and exchanges its cards with seat 3's,
    position by position: seat 2 now holds seat 3's cards (face down, known to seat 2 only), seat 3
    seat 2's (face up); teams follow the cards; the Arms return to the centre."""
    s = zdeal({0: "zombie_mask"}, zombies={2: 1})
    arms = s.arms_in_centre
    s, events = act(s, play(0, "zombie_mask", targets=(2, 3)))
    assert events[1:] == [
        E.ZombieCured(seat=2),
        E.CardsExchanged(
            seats=(2, 3), positions=(1, 1), card_ids=(6, 9), cards=("honest", "crooked")
        ),
        E.CardsExchanged(
            seats=(2, 3), positions=(2, 2), card_ids=(7, 10), cards=("crooked", "honest")
        ),
        E.CardsExchanged(
            seats=(2, 3), positions=(3, 3), card_ids=(8, 11), cards=("honest", "crooked")
        ),
    ]
    assert not s.seat(2).zombie and s.seat(2).arms_aim is None and s.arms_in_centre == arms + 1
    assert s.seat(2).cards == (9, 10, 11) and s.seat(2).face_up == (False, False, False)
    assert s.seat(3).cards == (6, 7, 8) and s.seat(3).face_up == (True, True, True)
    assert known(s, 2, 2, 1) == "crooked" and known(s, 0, 2, 1) is None
    assert known(s, None, 3, 2) == "crooked"
    assert team(s, 2) == "crooked" and team(s, 3) == "honest"
    assert s.step == "action" and s.turn_seat == 0 and violations(s) == []


def test_exchanging_with_a_leader_moves_the_leader_and_its_wound():
    """RULES §8.1 Zombie Mask, §4 (the Wounded token moves with the Leader card): zombie 3 takes
    the wounded Kingpin's cards (listed in increasing seat order): seat 3 is the wounded Leader."""
    s = zdeal({0: "zombie_mask"}, zombies={3: 0})
    s = shot_earlier(s, 1, shooter=0)
    s, events = act(s, play(0, "zombie_mask", targets=(3, 1)))
    exchanges = of(events, E.CardsExchanged)
    assert [(e.seats, e.positions) for e in exchanges] == [
        ((1, 3), (1, 1)),
        ((1, 3), (2, 2)),
        ((1, 3), (3, 3)),
    ]
    assert s.seat(3).cards == (3, 4, 5) and is_wounded(s, 3) and not is_wounded(s, 1)
    assert team(s, 3) == "crooked" and not s.seat(3).zombie


def test_the_zombie_may_be_you_and_your_turn_goes_on():
    """RULES §8.1 Zombie Mask, §8 (a zombie's turn), §3.1: on its own turn the zombie cures
    itself, taking the Agent's cards: it is no zombie any more and may now investigate."""
    s = zdeal({2: "zombie_mask"}, zombies={2: 1}, first_seat=2)
    s, events = act(s, play(2, "zombie_mask", targets=(2, 0)))
    assert one(events, E.ZombieCured).seat == 2
    assert team(s, 2) == "honest" and s.seat(2).cards == (0, 1, 2)
    assert s.step == "action" and s.turn_seat == 2
    assert any(isinstance(c, C.Investigate) for c in legal_commands(s, 2))
    assert refused_unchanged(s, C.Bite(seat=2)) == "not_a_zombie"


def test_the_other_seat_may_be_you():
    """RULES §8.1 Zombie Mask ('another seat of your choice', yourself included)."""
    s = zdeal({3: "zombie_mask"}, zombies={2: 1})
    s = open_window(s, "investigate", avoid=(2,))
    s, events = act(s, play(3, "zombie_mask", targets=(2, 3)))
    assert s.seat(3).cards == (6, 7, 8) and s.seat(2).cards == (9, 10, 11)


@pytest.mark.parametrize("window", WINDOWS)
def test_in_a_window(window):
    """RULES §8.1 Zombie Mask (any window), §6."""
    s = zdeal({1: "zombie_mask"}, zombies={3: 1}, guns={0: 2})
    s = open_window(s, window, avoid=(3,))
    s, events = act(s, play(1, "zombie_mask", targets=(3, 2)))
    assert one(events, E.ZombieCured).seat == 3
    assert len(of(events, E.CardsExchanged)) == 3


def test_in_the_bite_window_the_cured_biter_chooses_again():
    """RULES §8.1 Zombie Mask, §8, §6 (the declared bite became impossible): zombie 2 declares a
    bite; seat 0 cures it: no bite, and seat 2, no zombie any more, chooses a new action."""
    s = zdeal({0: "zombie_mask"}, zombies={2: 1}, first_seat=2)
    s, _ = act(s, C.Bite(seat=2))
    s, events = act(s, play(0, "zombie_mask", targets=(2, 3)))
    assert one(events, E.ActionCancelled) == E.ActionCancelled(seat=2, reason="impossible")
    assert of(events, E.SeatBitten) == [] and not s.seat(2).zombie
    assert s.step == "action" and s.turn_seat == 2


@pytest.mark.parametrize(
    ("targets", "code"),
    [
        ((0, 1), "not_a_zombie"),
        ((3, 3), "invalid_target"),
        ((3, 2), "target_eliminated"),
        ((2, 3), "target_eliminated"),
        ((9, 0), "invalid_target"),
        ((3, 9), "invalid_target"),
        ((3,), "bad_parameters"),
        ((3, 0, 1), "bad_parameters"),
    ],
)
def test_bad_targets_are_refused(targets, code):
    """RULES §8.1 Zombie Mask, §7.3: a zombie, then another living seat. With Bombers & Traitors
    too (RULES §9: a Bomber never becomes a zombie): the Traitor (seat 3) rose as a zombie, the
    Bomber (seat 2) shot itself and is out."""
    s = deal({1: "zombie_mask"}, integrity=BOMBER_TRAITOR, first_seat=1, options=ZOMBIES_BT)
    s = shot_earlier(risen(s, 3), 2, shooter=2)
    assert s.seat(2).eliminated and s.seat(3).zombie
    assert refused_unchanged(s, play(1, "zombie_mask", targets=targets)) == code


def test_the_other_seat_must_not_be_a_zombie():
    """RULES §8.1 Zombie Mask (decision: the other seat is no zombie)."""
    s = zdeal({0: "zombie_mask"}, zombies={2: 1, 3: 1})
    assert refused_unchanged(s, play(0, "zombie_mask", targets=(3, 2))) == "target_is_zombie"
    assert all(set(c.targets) != {2, 3} for c in legal_plays(s, 0, "zombie_mask"))


def test_parameters_are_refused():
    """RULES §8.1 Zombie Mask, §7.3: only ``targets``."""
    s = zdeal({0: "zombie_mask"}, zombies={2: 1})
    assert refused_unchanged(s, play(0, "zombie_mask")) == "bad_parameters"
    cmd = play(0, "zombie_mask", targets=(2, 3), target=2)
    assert refused_unchanged(s, cmd) == "bad_parameters"


def test_both_seats_must_hold_as_many_cards():
    """RULES §8.1 Zombie Mask (decision: the same number of cards). Classic with Zombies, 5 seats:
    zombie 3 was brought back by a classic Defibrillator keeping one card (RULES §7.2), then rose
    again: it cannot exchange with a seat holding three."""
    options = TableOptions(edition="classic", zombies=True)
    s = deal({0: "zombie_mask"}, integrity=FIVE, options=options)
    s = risen(s, 3)
    defib = card_rules(s, "defibrillator")
    s = fold(defib.resolve(s, 4, play(4, "defibrillator", target=3, position=1)), s)
    s = risen(s, 3)
    assert len(s.seat(3).cards) == 1 and s.seat(3).zombie and violations(s) == []
    assert refused_unchanged(s, play(0, "zombie_mask", targets=(3, 2))) == "invalid_target"
    assert all(3 not in c.targets for c in legal_plays(s, 0, "zombie_mask"))


def test_wrong_moments_are_refused():
    """RULES §6: from one's own hand, in one's own turn or when asked in a window."""
    s = zdeal({1: "zombie_mask"}, zombies={2: 1}, guns={0: 1})
    wrong_moments(s, play(1, "zombie_mask", targets=(2, 3)))


def test_only_in_the_zombies_deck():
    """RULES §8.1: Zombie Mask needs zombies: extra equipment alone does not add it."""
    assert "zombie_mask" in equipment_deck(ZOMBIES, 4)
    assert "zombie_mask" not in equipment_deck(EXTRA, 4)


def test_every_listed_play_is_accepted():
    """RULES §7.3: one play per zombie and other living non-zombie seat; none without a zombie."""
    assert legal_plays(zdeal({0: "zombie_mask"}), 0, "zombie_mask") == []
    s = zdeal({0: "zombie_mask"}, zombies={2: 1, 3: 2})
    assert [c.targets for c in legal_plays(s, 0, "zombie_mask")] == [(2, 0), (2, 1), (3, 0), (3, 1)]
    assert accept_all(s, 0, "zombie_mask") == 4
