"""Defibrillator (RULES §7.1): bring an eliminated non-Leader seat back (not yourself); its cards
stay face up.

Zombies (RULES §8: 'equipment that targets an eliminated seat may target a zombie; bringing a seat
back to life makes a zombie a non-zombie'): a zombie other than yourself may be chosen: it stops
being a zombie (``ZombieCured``), its Arms return to the centre, its cards stay face up, and its
cards decide its team again. Decision: 'not yourself' holds for a zombie too.
"""

from __future__ import annotations

from gcbc.contract.events import SeatRevived, ZombieCured
from gcbc.rules.equipment import checks
from gcbc.rules.equipment.base import ANY, Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.errors import refuse
from gcbc.rules.teams import holds_leader


@register
class Defibrillator(Card):
    name = "defibrillator"
    timing = ANY
    params = frozenset({"target"})

    def options(self, s, seat):
        return [
            self.play(seat, target=i)
            for i, st in enumerate(s.seats)
            if (st.eliminated or st.zombie) and i != seat and holds_leader(s, i) is None
        ]

    def check(self, s, seat, cmd):
        t = checks.seat_exists(s, cmd.target)
        if t == seat:
            raise refuse("target_is_self", "you cannot revive yourself")
        if not s.seat(t).eliminated and not s.seat(t).zombie:
            what = "neither eliminated nor a zombie" if s.options.zombies else "not eliminated"
            raise refuse("invalid_target", f"seat {t} is {what}")
        if holds_leader(s, t) is not None:
            raise refuse("invalid_target", "a Leader cannot be revived")

    def resolve(self, s, seat, cmd):
        if s.seat(cmd.target).zombie:
            return [ZombieCured(seat=cmd.target)]
        return [SeatRevived(seat=cmd.target)]
