"""Alarm Clock (RULES §8.1; only in the extra equipment deck, never with Zombies): choose a living
seat (yourself included). At the end of its next turn (a later turn than the one the alarm was set
in) the alarm rings: every unarmed living seat other than it (not a zombie) takes a gun from the
centre while one is free, aimed at it; then every other armed seat aims at it.

Decisions: the seats take the free guns in turn order from the seat after the alarmed one; a gun
taken then is not locked (the turn is over). An alarm whose seat is eliminated rings at the end of
the current turn, with no effect. It rings before a Smoke Grenade played in the same turn takes
effect ("from the end of the current turn"): its turn order is the one the table still shows."""

from __future__ import annotations

from gcbc.rules.equipment.base import Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.query import turn_order
from gcbc.rules.targets import living_seat
from gcbc.rules.timing import ANY
from gcbc_contract.events import AlarmRang, AlarmSet, GunAimed, GunTaken


def ring(s, seat):
    """The alarm on ``seat`` rings: the guns taken, then the aims turned to it."""
    others = [
        i for i in turn_order(s, seat)[1:] if not s.seat(i).eliminated and not s.seat(i).zombie
    ]
    events: list = [AlarmRang(seat=seat)]
    free = s.guns_in_centre
    taking = []
    for i in others:
        if not s.seat(i).gun and free > 0:
            taking.append(i)
            free -= 1
    events += [GunTaken(seat=i, aim=seat) for i in taking]
    events += [
        GunAimed(seat=i, target=seat) for i in others if s.seat(i).gun and s.seat(i).aim != seat
    ]
    return events


@register
class AlarmClock(Card):
    name = "alarm_clock"
    timing = ANY
    params = (living_seat("target"),)

    def resolve(self, s, seat, cmd):
        return [AlarmSet(seat=cmd.target, turn=s.turn_number, by=seat)]

    def at_turn_end(self, s):
        for seat, turn, _ in s.alarms:
            if s.seat(seat).eliminated:
                return [AlarmRang(seat=seat)]
            if s.turn_seat == seat and s.turn_number > turn:
                return ring(s, seat)
        return []
