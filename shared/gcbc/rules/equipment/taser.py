"""Taser (RULES §7.1): your own turn only, not your action. You hold no gun: take another living
seat's gun and aim it at once (``aim``); it cannot shoot this turn.

Zombies (RULES §8: 'Taser cannot target a zombie'; 'zombies cannot ... steal a gun'): a zombie
cannot play it (``zombie_cannot``), and a zombie is never its target (``target_is_zombie``; a
zombie holds no gun anyway). The new aim may be a zombie.
"""

from __future__ import annotations

from gcbc.contract.events import GunTaken
from gcbc.rules.equipment import checks
from gcbc.rules.equipment.base import OWN_TURN, Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.errors import refuse
from gcbc.rules.query import armed, others_alive


@register
class Taser(Card):
    name = "taser"
    timing = OWN_TURN
    params = frozenset({"target", "aim"})

    def options(self, s, seat):
        if s.seat(seat).gun or s.seat(seat).zombie:
            return []
        return [
            self.play(seat, target=t, aim=a)
            for t in armed(s)
            if t != seat and not s.seat(t).zombie
            for a in others_alive(s, seat)
        ]

    def check(self, s, seat, cmd):
        if s.seat(seat).zombie:
            raise refuse("zombie_cannot", "a zombie cannot steal a gun")
        if s.seat(seat).gun:
            raise refuse("has_gun", "you already hold a gun")
        t = checks.other_living(s, seat, cmd.target)
        if s.seat(t).zombie:
            raise refuse("target_is_zombie", "the Taser cannot target a zombie")
        if not s.seat(t).gun:
            raise refuse("no_gun", f"seat {t} holds no gun")
        checks.other_living(s, seat, cmd.aim)

    def resolve(self, s, seat, cmd):
        return [GunTaken(seat=seat, aim=cmd.aim, from_seat=cmd.target, locked=True)]
