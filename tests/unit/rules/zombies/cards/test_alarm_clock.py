"""Alarm Clock (RULES §8.1; extra equipment only, never with Zombies): choose a living seat. At the
end of its next turn the alarm rings: every unarmed living seat other than it takes a gun from the
centre while one is free, aimed at it; then every other armed seat aims at it. Decisions: free
guns go in turn order from the seat after the alarmed one; an alarm whose seat is eliminated rings
at the end of the current turn, with no effect."""

from __future__ import annotations

import msgspec
import pytest

from gcbc.rules import view
from gcbc.rules.evolve import fold
from gcbc.rules.invariants import violations
from gcbc.rules.setup import equipment_deck
from gcbc_contract.views import AlarmView
from tests.support import EXTRA, ZOMBIES, E, act
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
from tests.unit.rules.zombies.cards.given import CLASSIC_EXTRA, wrong_moments


def turns(s, count):
    """Play ``count`` turns plainly; return the state and every event folded meanwhile."""
    start = len(s.log)
    for _ in range(count):
        s = end_turn(s)
    return s, list(s.log)[start:]


def test_set_then_rings_at_the_end_of_the_seats_next_turn():
    """RULES §8.1 Alarm Clock: seat 0 sets it on seat 2 in turn 1 (not its action). Nothing at the
    end of turns 1 and 2; at the end of seat 2's turn 3 it rings, before turn 4 begins: unarmed
    seats 3 and 0 (in turn order after seat 2) take a gun aimed at seat 2, then armed seat 1 turns
    its gun to seat 2; the alarmed seat's own gun stays as it is."""
    s = deal({0: "alarm_clock"}, guns={1: 0, 2: 1}, options=EXTRA)
    s, events = act(s, play(0, "alarm_clock", target=2))
    assert events[1:] == [E.AlarmSet(seat=2, turn=1, by=0)]
    assert s.alarms == ((2, 1, 0),) and s.step == "action" and s.turn_seat == 0
    s, events = turns(s, 2)
    assert of(events, E.AlarmRang) == [] and s.turn_seat == 2 and s.alarms == ((2, 1, 0),)
    centre = s.guns_in_centre
    s, events = turns(s, 1)
    ring = events[events.index(E.AlarmRang(seat=2)) :]
    assert ring == [
        E.AlarmRang(seat=2),
        E.GunTaken(seat=3, aim=2),
        E.GunTaken(seat=0, aim=2),
        E.GunAimed(seat=1, target=2),
        E.TurnBegan(seat=3, turn=4, direction=1),
    ]
    assert s.alarms == () and s.guns_in_centre == centre - 2
    assert [s.seat(i).aim for i in range(4)] == [2, 2, 1, 2]
    assert s.guns_locked == frozenset() and violations(s) == []


def test_set_in_the_seats_own_turn_waits_for_its_next_turn():
    """RULES §8.1 Alarm Clock ('its next turn'): seat 0 sets it on itself in turn 1: it rings at
    the end of turn 5, not turn 1."""
    s = deal({0: "alarm_clock"}, options=EXTRA)
    s, _ = act(s, play(0, "alarm_clock", target=0))
    s, events = turns(s, 4)
    assert of(events, E.AlarmRang) == [] and s.turn_seat == 0 and s.turn_number == 5
    s, events = turns(s, 1)
    assert one(events, E.AlarmRang).seat == 0
    assert [e.seat for e in of(events, E.GunTaken)] == [1, 2, 3]


@pytest.mark.parametrize("window", WINDOWS)
def test_set_in_a_window(window):
    """RULES §8.1 Alarm Clock (any window), §6: seat 3 sets it on seat 1 in seat 0's window; it
    rings at the end of seat 1's turn 2."""
    s = deal({3: "alarm_clock"}, guns={0: 2}, options=EXTRA)
    s = open_window(s, window)
    s, events = act(s, play(3, "alarm_clock", target=1))
    assert one(events, E.AlarmSet) == E.AlarmSet(seat=1, turn=1, by=3)
    if s.turn_number == 1:  # (the end-of-turn window closed at once: turn 2 has begun)
        s, events = turns(s, 1)
        assert of(events, E.AlarmRang) == []
    assert s.turn_seat == 1 and s.turn_number == 2
    s, events = turns(s, 1)
    ring = events[events.index(E.AlarmRang(seat=1)) :]
    assert ring[1:4] == [
        E.GunTaken(seat=2, aim=1),
        E.GunTaken(seat=3, aim=1),
        E.GunAimed(seat=0, target=1),
    ]


def test_free_guns_go_in_turn_order_from_the_seat_after_it():
    """RULES §8.1 Alarm Clock ('while any is free'; decision: in turn order from the seat after the
    alarmed one). Classic with extra equipment: 2 guns; seat 0 holds one: one is free, and seat 3
    (right after seat 2) takes it, seat 1 does not."""
    s = deal({0: "alarm_clock"}, guns={0: 1}, options=CLASSIC_EXTRA)
    s, _ = act(s, play(0, "alarm_clock", target=2))
    s, events = turns(s, 3)
    ring = events[events.index(E.AlarmRang(seat=2)) :]
    assert ring[1:3] == [E.GunTaken(seat=3, aim=2), E.GunAimed(seat=0, target=2)]
    assert type(ring[3]) is E.TurnBegan
    assert not s.seat(1).gun and s.guns_in_centre == 0


def test_turn_order_reversed():
    """RULES §8.1 Alarm Clock (decision: turn order), §7.1 Smoke Grenade: counter-clockwise, seat
    1 comes right after seat 2 and takes the one free gun."""
    s = deal(
        {0: "alarm_clock", 3: "smoke_grenade"},
        setup=[play(3, "smoke_grenade")],
        guns={0: 1},
        options=CLASSIC_EXTRA,
    )
    s, _ = act(s, play(0, "alarm_clock", target=2))
    s, events = turns(s, 3)
    assert [e.seat for e in of(events, E.TurnBegan)] == [3, 2, 1]
    assert one(events, E.GunTaken) == E.GunTaken(seat=1, aim=2)


def test_a_smoke_grenade_played_in_the_ringing_turn_turns_the_order_after_the_ring():
    """RULES §8.1 Alarm Clock, §7.1 Smoke Grenade ('from the end of the current turn'). Decision:
    the alarm rings in the turn's end, before the reversal takes effect: seat 2 plays a Smoke
    Grenade in the turn its alarm rings; the one free gun goes clockwise (seat 3, right after it
    as the table still turns, the direction every view shows), then turn 4 goes the other way."""
    s = deal({0: "alarm_clock", 2: "smoke_grenade"}, guns={0: 1}, options=CLASSIC_EXTRA)
    s, _ = act(s, play(0, "alarm_clock", target=2))
    s, _ = turns(s, 2)
    assert s.turn_seat == 2 and s.step == "action"
    s, _ = act(s, play(2, "smoke_grenade"))
    s, events = turns(s, 1)
    ring = events[events.index(E.AlarmRang(seat=2)) :]
    assert ring[1:3] == [E.GunTaken(seat=3, aim=2), E.GunAimed(seat=0, target=2)]
    assert ring[3] == E.TurnBegan(seat=1, turn=4, direction=-1)


def test_an_eliminated_seat_s_alarm_rings_with_no_effect():
    """RULES §8.1 Alarm Clock (decision): seat 2 is eliminated before its turn: the alarm rings at
    the end of the current turn, and nobody takes or turns a gun."""
    s = deal({0: "alarm_clock"}, guns={1: 0}, options=EXTRA)
    s, _ = act(s, play(0, "alarm_clock", target=2))
    s = shot_earlier(s, 2)
    s, events = turns(s, 1)
    ring = events[events.index(E.AlarmRang(seat=2)) :]
    assert ring == [E.AlarmRang(seat=2), E.TurnBegan(seat=1, turn=2, direction=1)]
    assert s.alarms == () and s.seat(1).aim == 0


def test_a_second_alarm_set_in_the_seats_turn_rings_at_its_following_turn():
    """RULES §8.1 Alarm Clock ('its next turn', each alarm on its own): seat 0 sets one on seat 1
    in turn 1; in seat 1's turn 2 another is set on it (the engine's own event, as if the card were
    played again): the first rings at the end of turn 2, the second at the end of turn 6."""
    s = deal({0: "alarm_clock"}, options=EXTRA)
    s, _ = act(s, play(0, "alarm_clock", target=1))
    s = end_turn(s)
    assert s.turn_seat == 1
    s = fold([E.AlarmSet(seat=1, turn=2, by=3)], s)
    s, events = turns(s, 1)
    assert len(of(events, E.AlarmRang)) == 1 and s.alarms == ((1, 2, 3),)
    s, events = turns(s, 3)
    assert of(events, E.AlarmRang) == []
    s, events = turns(s, 1)
    assert len(of(events, E.AlarmRang)) == 1 and s.alarms == ()


@pytest.mark.parametrize(
    ("kw", "code"),
    [
        ({"target": 3}, "target_eliminated"),
        ({"target": 9}, "invalid_target"),
        ({"target": -1}, "invalid_target"),
        ({}, "bad_parameters"),
        ({"target": 1, "aim": 2}, "bad_parameters"),
    ],
)
def test_bad_targets_are_refused(kw, code):
    """RULES §8.1 Alarm Clock, §7.3: a living seat, and nothing else."""
    s = shot_earlier(deal({0: "alarm_clock"}, options=EXTRA), 3)
    assert refused_unchanged(s, play(0, "alarm_clock", **kw)) == code


def test_wrong_moments_are_refused():
    """RULES §6: from one's own hand, in one's own turn or when asked in a window."""
    s = deal({1: "alarm_clock"}, guns={0: 1}, options=EXTRA)
    wrong_moments(s, play(1, "alarm_clock", target=2))


def test_only_in_the_extra_deck_without_zombies():
    """RULES §8.1: Alarm Clock is added by extra equipment, never in a Zombies game."""
    assert "alarm_clock" in equipment_deck(EXTRA, 4)
    assert "alarm_clock" not in equipment_deck(ZOMBIES, 4)
    both = type(EXTRA)(zombies=True, extra_equipment=True)
    assert "alarm_clock" not in equipment_deck(both, 4)


def test_every_listed_play_is_accepted():
    """RULES §7.3: one play per living seat, yourself included."""
    s = shot_earlier(deal({0: "alarm_clock"}, options=EXTRA), 3)
    assert [c.target for c in legal_plays(s, 0, "alarm_clock")] == [0, 1, 2]
    assert accept_all(s, 0, "alarm_clock") == 3


# --- the view (RULES §11: every played card and its public effect) ------------------------------
def test_a_pending_alarm_is_a_public_fact_of_every_view():
    """RULES §8.1 Alarm Clock, §11 (public: every played card and its public effect): once seat 0
    sets it on seat 2, every view, the public one included, shows the pending alarm (on whom, who
    set it, in which turn) without reading the log; once it rang, no view shows it."""
    s = deal({0: "alarm_clock"}, options=EXTRA)
    assert all(view(s, v, log=False).alarms == [] for v in (None, 0, 1, 2, 3))
    s, _ = act(s, play(0, "alarm_clock", target=2))
    for v in (None, 0, 1, 2, 3):
        assert view(s, v, log=False).alarms == [AlarmView(seat=2, set_by=0, turn=1)]
    assert msgspec.to_builtins(view(s, None, log=False))["alarms"] == [
        {"seat": 2, "set_by": 0, "turn": 1}
    ]
    s, _ = turns(s, 3)
    assert all(view(s, v, log=False).alarms == [] for v in (None, 0, 1, 2, 3))


def test_an_alarm_set_names_its_setter():
    """RULES §8.1 Alarm Clock: the event names who set the alarm (the view's ``set_by``); an
    ``alarm_set`` without it is not an event of this log."""
    with pytest.raises(msgspec.ValidationError, match="by"):
        msgspec.json.decode(b'{"type":"alarm_set","seat":1,"turn":1}', type=E.AnyEvent)
