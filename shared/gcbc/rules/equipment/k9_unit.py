"""K-9 Unit (RULES §7.1): a seat holding a gun drops it to the centre."""

from __future__ import annotations

from gcbc.contract.events import GunDropped
from gcbc.rules.equipment import checks
from gcbc.rules.equipment.base import ANY, Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.errors import refuse
from gcbc.rules.query import armed


@register
class K9Unit(Card):
    name = "k9_unit"
    timing = ANY
    params = frozenset({"target"})

    def options(self, s, seat):
        return [self.play(seat, target=t) for t in armed(s)]

    def check(self, s, seat, cmd):
        t = checks.living(s, cmd.target)
        if not s.seat(t).gun:
            raise refuse("no_gun", f"seat {t} holds no gun")

    def resolve(self, s, seat, cmd):
        return [GunDropped(seat=cmd.target)]
