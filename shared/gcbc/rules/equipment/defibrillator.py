"""Defibrillator (RULES §7.1): bring an eliminated non-Leader seat back (not yourself); its cards
stay face up."""

from __future__ import annotations

from gcbc.contract.events import SeatRevived
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
            if st.eliminated and i != seat and holds_leader(s, i) is None
        ]

    def check(self, s, seat, cmd):
        t = checks.seat_exists(s, cmd.target)
        if t == seat:
            raise refuse("target_is_self", "you cannot revive yourself")
        if not s.seat(t).eliminated:
            raise refuse("invalid_target", f"seat {t} is not eliminated")
        if holds_leader(s, t) is not None:
            raise refuse("invalid_target", "a Leader cannot be revived")

    def resolve(self, s, seat, cmd):
        return [SeatRevived(seat=cmd.target)]
