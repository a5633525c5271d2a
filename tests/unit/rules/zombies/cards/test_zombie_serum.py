"""Zombie Serum (RULES §8.1, Zombies only): you are shot (by yourself, RULES §4; a non-Leader rises
as a zombie, §8). You name Agent or Kingpin (``choice``): its holder must turn it face up, if it
is still face down."""

from __future__ import annotations

import pytest

from gcbc.rules.invariants import violations
from gcbc.rules.setup import equipment_deck
from tests.support import EXTRA, ZOMBIES, C, E, act
from tests.unit.rules.equipment.scenario import (
    WINDOWS,
    accept_all,
    legal_plays,
    of,
    one,
    open_window,
    play,
    refused_unchanged,
    shot_earlier,
)
from tests.unit.rules.zombies.cards.given import revealed, wrong_moments
from tests.unit.rules.zombies.given import zdeal


def test_a_non_leader_rises_and_plays_its_turn_as_a_zombie():
    """RULES §8.1 Zombie Serum, §8: seat 2 plays it on its own turn: shot by itself, its cards are
    revealed and it rises as a zombie; the Agent (seat 0, position 1) is turned face up. Seat 2's
    turn goes on as a zombie's (RULES §8, "when you are a zombie and you take your turn"): its
    action is Bite or Equip (its Arms aim at itself: Equip), then it may aim its Arms."""
    s = zdeal({2: "zombie_serum"}, first_seat=2)
    s, events = act(s, play(2, "zombie_serum", choice="agent"))
    assert events[1:7] == [
        E.SeatShot(shooter=2, target=2),
        E.CardRevealed(seat=2, position=1, card_id=6, card="honest"),
        E.CardRevealed(seat=2, position=2, card_id=7, card="crooked"),
        E.CardRevealed(seat=2, position=3, card_id=8, card="honest"),
        E.BecameZombie(seat=2, by=2),
        E.CardRevealed(seat=0, position=1, card_id=0, card="agent"),
    ]
    assert of(events, E.AimRequested) == [] and of(events, E.TurnBegan) == []
    assert s.seat(2).zombie and s.seat(2).arms_aim == 2 and s.seat(0).face_up[0]
    assert s.turn_seat == 2 and s.step == "action" and violations(s) == []
    assert refused_unchanged(s, C.Investigate(seat=2, target=3, position=1)) == "zombie_cannot"
    s, events = act(s, C.Equip(seat=2))
    assert one(events, E.AimRequested) == E.AimRequested(seat=2)
    s, events = act(s, C.Aim(seat=2, target=3))
    assert s.seat(2).arms_aim == 3


@pytest.mark.parametrize("window", WINDOWS)
def test_in_a_window_naming_the_kingpin(window):
    """RULES §8.1 Zombie Serum (any window): seat 3 plays it in seat 0's window: it rises, and the
    Kingpin (seat 1) is turned face up; seat 0's turn goes on."""
    s = zdeal({3: "zombie_serum"}, guns={0: 2})
    s = open_window(s, window, avoid=(1,))
    s, events = act(s, play(3, "zombie_serum", choice="kingpin"))
    assert one(events, E.BecameZombie) == E.BecameZombie(seat=3, by=3)
    assert E.CardRevealed(seat=1, position=1, card_id=3, card="kingpin") in events
    assert s.seat(3).zombie and s.seat(1).face_up == (True, False, False)


def test_a_leader_is_wounded_and_its_own_card_revealed_once():
    """RULES §8.1 Zombie Serum, §4: the Kingpin's holder shoots itself: wounded, it draws; naming
    the Kingpin turns nothing more face up (the shot revealed it)."""
    s = zdeal({1: "zombie_serum"}, first_seat=1)
    s, events = act(s, play(1, "zombie_serum", choice="kingpin"))
    assert one(events, E.LeaderWounded) == E.LeaderWounded(seat=1, card_id=3)
    assert len(of(events, E.CardRevealed)) == 3
    assert of(events, E.EquipmentDrawn)[0].seat == 1
    assert not s.seat(1).eliminated and s.turn_seat == 1 and s.step == "action"


def test_a_leader_face_up_already_is_not_revealed_again():
    """RULES §8.1 Zombie Serum (only a Leader card still face down is turned face up): the Agent is
    already face up."""
    s = revealed(zdeal({2: "zombie_serum"}, first_seat=2), 0, 1)
    s, events = act(s, play(2, "zombie_serum", choice="agent"))
    assert [e.seat for e in of(events, E.CardRevealed)] == [2, 2, 2]


def test_a_wounded_leader_shoots_itself_dead():
    """RULES §8.1 Zombie Serum, §4, §2: the wounded Agent shoots itself: eliminated (by itself),
    and the Crooked team wins."""
    s = zdeal({0: "zombie_serum"})
    s = shot_earlier(s, 0, shooter=3)
    s, _ = act(s, C.Discard(seat=0, card=s.seat(0).hand[-1]))  # the card drawn when wounded
    s, events = act(s, play(0, "zombie_serum", choice="kingpin"))
    assert one(events, E.SeatEliminated) == E.SeatEliminated(seat=0, by=0)
    assert one(events, E.GameWon).team == "crooked" and s.step == "finished"


def test_a_zombie_turns_its_arms_on_itself():
    """RULES §8.1 Zombie Serum, §8 (shooting a zombie): a zombie that plays it is not eliminated:
    its Arms turn to aim at itself."""
    s = zdeal({3: "zombie_serum"}, zombies={3: 0})
    s = open_window(s, "investigate", avoid=(1,))
    s, events = act(s, play(3, "zombie_serum", choice="kingpin"))
    assert events[1:4] == [
        E.SeatShot(shooter=3, target=3),
        E.ArmsAimed(seat=3, target=3),
        E.CardRevealed(seat=1, position=1, card_id=3, card="kingpin"),
    ]
    assert s.seat(3).zombie and s.seat(3).arms_aim == 3


@pytest.mark.parametrize(
    ("kw", "code"),
    [
        ({"choice": "honest"}, "invalid_choice"),
        ({"choice": "Agent"}, "invalid_choice"),
        ({}, "bad_parameters"),
        ({"choice": "agent", "target": 1}, "bad_parameters"),
    ],
)
def test_bad_choices_are_refused(kw, code):
    """RULES §8.1 Zombie Serum, §7.3: ``choice`` is "agent" or "kingpin", and nothing else."""
    s = zdeal({0: "zombie_serum"})
    assert refused_unchanged(s, play(0, "zombie_serum", **kw)) == code


def test_wrong_moments_are_refused():
    """RULES §6: from one's own hand, in one's own turn or when asked in a window."""
    s = zdeal({1: "zombie_serum"}, guns={0: 1})
    wrong_moments(s, play(1, "zombie_serum", choice="agent"))


def test_only_in_the_zombies_deck():
    """RULES §8.1: Zombie Serum needs zombies: extra equipment alone does not add it."""
    assert "zombie_serum" in equipment_deck(ZOMBIES, 4)
    assert "zombie_serum" not in equipment_deck(EXTRA, 4)


def test_every_listed_play_is_accepted():
    """RULES §7.3: two plays, one per Leader named."""
    s = zdeal({0: "zombie_serum"})
    assert [c.choice for c in legal_plays(s, 0, "zombie_serum")] == ["agent", "kingpin"]
    assert accept_all(s, 0, "zombie_serum") == 2
    w = open_window(zdeal({2: "zombie_serum"}, guns={0: 1}), "shoot")
    assert accept_all(w, 2, "zombie_serum") == 2
