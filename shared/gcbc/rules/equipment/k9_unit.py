"""K-9 Unit (RULES §7.1): a seat holding a gun drops it to the centre.

Zombies (RULES §8: 'equipment that would make a zombie drop its gun makes it aim its Arms at
itself'): a zombie whose Arms aim at another seat may be chosen; its Arms turn to aim at itself
(played on a biter in the bite window, the bite becomes impossible and the zombie chooses again).
"""

from __future__ import annotations

from gcbc.contract.events import ArmsAimed, GunDropped
from gcbc.rules.equipment import checks
from gcbc.rules.equipment.base import ANY, Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.errors import refuse
from gcbc.rules.query import wielders


@register
class K9Unit(Card):
    name = "k9_unit"
    timing = ANY
    params = frozenset({"target"})

    def options(self, s, seat):
        return [self.play(seat, target=t) for t in wielders(s)]

    def check(self, s, seat, cmd):
        t = checks.living(s, cmd.target)
        if s.seat(t).zombie:
            if s.seat(t).arms_aim == t:
                raise refuse("no_effect", f"zombie {t}'s Arms already aim at itself")
        elif not s.seat(t).gun:
            raise refuse("no_gun", f"seat {t} holds no gun")

    def resolve(self, s, seat, cmd):
        if s.seat(cmd.target).zombie:
            return [ArmsAimed(seat=cmd.target, target=cmd.target)]
        return [GunDropped(seat=cmd.target)]
