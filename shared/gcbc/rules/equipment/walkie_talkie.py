"""Walkie Talkie (RULES §7.1): choose a living seat; every seat holding a gun aims at it (a gun
holder chosen as the target keeps its own aim). Playable only if some aim would change."""

from __future__ import annotations

from gcbc.contract.events import GunAimed
from gcbc.rules.equipment import checks
from gcbc.rules.equipment.base import ANY, Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.errors import refuse
from gcbc.rules.query import armed, living


def turned(s, target):
    return [g for g in armed(s) if g != target and s.seat(g).aim != target]


@register
class WalkieTalkie(Card):
    name = "walkie_talkie"
    timing = ANY
    params = frozenset({"target"})

    def options(self, s, seat):
        return [self.play(seat, target=t) for t in living(s) if turned(s, t)]

    def check(self, s, seat, cmd):
        t = checks.living(s, cmd.target)
        if not turned(s, t):
            raise refuse("no_effect", "no gun would change its aim")

    def resolve(self, s, seat, cmd):
        return [GunAimed(seat=g, target=cmd.target) for g in turned(s, cmd.target)]
