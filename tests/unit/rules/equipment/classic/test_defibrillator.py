"""Defibrillator, classic wording (RULES §7.2, 5+ players): revive an eliminated seat (not
yourself): you discard two of its integrity cards; its single remaining card decides its team for
the rest of the game. With Zombies (§8) a zombie may be chosen: it is brought back to life."""

from __future__ import annotations

import pytest

from gcbc.rules import legal_commands, public_view, view
from gcbc.rules.invariants import violations
from gcbc.rules.teams import true_team
from gcbc_contract import events as E
from tests.support import C, act, pass_window
from tests.unit.rules.equipment.classic import CLASSIC, CLASSIC_ZOMBIES, revived_earlier
from tests.unit.rules.equipment.scenario import (
    FIVE,
    WINDOWS,
    accept_all,
    cid,
    deal,
    end_turn,
    legal_plays,
    of,
    one,
    open_window,
    play,
    refused_unchanged,
    shot_earlier,
    team,
)


def five(hands, **kw):
    return deal(hands, integrity=FIVE, options=kw.pop("options", CLASSIC), **kw)


def test_revives_keeping_the_one_card_chosen():
    """RULES §7.2 Defibrillator: seat 2 (honest, crooked, honest) was shot; seat 1 revives it
    keeping position 2: positions 1 and 3 leave the game (face up: public), seat 2 is alive with
    one card, the Crooked, which makes it Crooked; seat 1's turn goes on."""
    s = shot_earlier(five({1: "defibrillator"}, first_seat=1), 2)
    s, events = act(s, play(1, "defibrillator", target=2, position=2))
    assert events[1:3] == [
        E.CardsDiscarded(
            seat=2,
            positions=(1, 3),
            card_ids=(cid(2, 1), cid(2, 3)),
            cards=("honest", "honest"),
        ),
        E.SeatRevived(seat=2),
    ]
    st = s.seat(2)
    assert not st.eliminated and st.cards == (cid(2, 2),) and st.face_up == (True,)
    assert s.discarded == (cid(2, 1), cid(2, 3))
    assert true_team(s, 2) == "crooked" and team(s, 2) == "crooked"
    seat2 = public_view(s, log=False).seats[2]
    assert not seat2.eliminated and [c.card for c in seat2.cards] == ["crooked"]
    assert violations(s) == []
    assert s.step == "action" and s.turn_seat == 1 and s.deck[-1] == "defibrillator"


def test_the_revived_seat_plays_its_turns():
    """RULES §7.2 Defibrillator (back in the game): seat 2 takes its turn; with its one card face
    up, it may arm without turning a card face up; nobody can investigate it."""
    s = shot_earlier(five({1: "defibrillator"}, first_seat=1), 2)
    s, _ = act(s, play(1, "defibrillator", target=2, position=1))
    assert not any(isinstance(c, C.Investigate) and c.target == 2 for c in legal_commands(s, 1))
    s = end_turn(s)
    assert s.turn_seat == 2
    assert C.Arm(seat=2, target=0) in legal_commands(s, 2)
    s, events = act(s, C.Arm(seat=2, target=0))
    assert one(events, E.GunTaken) == E.GunTaken(seat=2, aim=0)


@pytest.mark.parametrize("window", WINDOWS)
def test_in_a_window(window):
    """RULES §7.2 Defibrillator (any window)."""
    s = shot_earlier(five({3: "defibrillator"}, guns={0: 1}), 2)
    s = open_window(s, window, avoid=(2,))
    s, events = act(s, play(3, "defibrillator", target=2, position=3))
    assert one(events, E.SeatRevived).seat == 2
    assert s.seat(2).cards == (cid(2, 3),)


def test_a_seat_down_to_one_card_keeps_it():
    """RULES §7.2 Defibrillator. Decision: a seat revived before and eliminated again has one card
    left: it keeps it (position 1) and nothing is discarded."""
    s = revived_earlier(shot_earlier(five({1: "defibrillator"}, first_seat=1), 2), 2, 2)
    s = shot_earlier(s, 2)
    assert s.seat(2).eliminated and len(s.seat(2).cards) == 1
    assert [c.position for c in legal_plays(s, 1, "defibrillator")] == [1]
    assert refused_unchanged(s, play(1, "defibrillator", target=2, position=2)) == (
        "invalid_position"
    )
    s, events = act(s, play(1, "defibrillator", target=2, position=1))
    assert of(events, E.CardsDiscarded) == [] and one(events, E.SeatRevived).seat == 2
    assert s.seat(2).cards == (cid(2, 2),) and not s.seat(2).eliminated


def test_a_zombie_is_brought_back_to_life():
    """RULES §8 (bringing a seat back to life makes a zombie a non-zombie; equipment that targets
    an eliminated seat may target a zombie), §7.2 Defibrillator: zombie seat 2 keeps position 3
    (an Honest): no longer a zombie, its Arms back in the centre, Honest."""
    s = shot_earlier(five({1: "defibrillator"}, first_seat=1, options=CLASSIC_ZOMBIES), 2)
    assert s.seat(2).zombie and not s.seat(2).eliminated
    arms = s.arms_in_centre
    s, events = act(s, play(1, "defibrillator", target=2, position=3))
    assert one(events, E.CardsDiscarded).positions == (1, 2)
    assert one(events, E.ZombieCured) == E.ZombieCured(seat=2)
    assert of(events, E.SeatRevived) == []
    st = s.seat(2)
    assert not st.zombie and st.arms_aim is None and s.arms_in_centre == arms + 1
    assert st.cards == (cid(2, 3),) and true_team(s, 2) == "honest"
    assert view(s, 2, log=False).you.team == "honest"
    assert violations(s) == []


def test_a_seat_that_fell_for_losing_its_wounded_leader_card_comes_back_unwounded():
    """RULES §4 (classic: a wounded seat that no longer holds a Leader card is eliminated), §7.2
    Defibrillator. Decision: the revived seat no longer holds the Wounded card, so it stays in."""
    s = shot_earlier(five({3: "blackmail", 4: "defibrillator"}, first_seat=3), 1)
    assert s.seat(1).wounded
    s, events = act(s, play(3, "blackmail", targets=(1, 2), positions=(1, 1)))
    assert one(events, E.SeatEliminated) == E.SeatEliminated(seat=1)
    assert s.step == "action" and s.winners is None
    s = open_window(s, "investigate", avoid=(1,))
    s, events = act(s, play(4, "defibrillator", target=1, position=1))
    assert one(events, E.SeatRevived).seat == 1
    st = s.seat(1)
    assert not st.eliminated and not st.wounded and st.cards == (cid(2, 1),)
    s = pass_window(s)
    assert not s.seat(1).eliminated and s.winners is None


def test_refusals():
    """RULES §7.2 Defibrillator, §7.3: an eliminated seat (or a zombie), never yourself, one of its
    cards' positions."""
    s = shot_earlier(five({0: "defibrillator"}), 2)
    assert refused_unchanged(s, play(0, "defibrillator", target=1, position=1)) == (
        "invalid_target"
    )
    assert refused_unchanged(s, play(0, "defibrillator", target=0, position=1)) == (
        "target_is_self"
    )
    assert refused_unchanged(s, play(0, "defibrillator", target=9, position=1)) == (
        "invalid_target"
    )
    assert refused_unchanged(s, play(0, "defibrillator", target=-1, position=1)) == (
        "invalid_target"
    )
    for position in (0, 4):
        assert refused_unchanged(s, play(0, "defibrillator", target=2, position=position)) == (
            "invalid_position"
        )
    assert refused_unchanged(s, play(0, "defibrillator", target=2)) == "bad_parameters"
    assert refused_unchanged(s, play(0, "defibrillator", position=1)) == "bad_parameters"
    assert refused_unchanged(s, play(0, "defibrillator", targets=(2,), position=1)) == (
        "bad_parameters"
    )
    assert refused_unchanged(s, play(1, "defibrillator", target=2, position=1)) == (
        "card_not_in_hand"
    )


def test_nothing_to_revive():
    """RULES §7.3: with nobody eliminated, it is not listed and is refused."""
    s = five({0: "defibrillator"})
    assert legal_plays(s, 0, "defibrillator") == []
    assert refused_unchanged(s, play(0, "defibrillator", target=2, position=1)) == (
        "invalid_target"
    )


def test_every_listed_play_is_accepted():
    """RULES §7.3: each eliminated seat but yourself, each of its cards to keep: 2 x 3 plays."""
    s = shot_earlier(shot_earlier(five({0: "defibrillator"}), 2), 3)
    plays = legal_plays(s, 0, "defibrillator")
    assert {(c.target, c.position) for c in plays} == {(t, p) for t in (2, 3) for p in (1, 2, 3)}
    assert accept_all(s, 0, "defibrillator") == 6
