"""Planted Evidence (RULES §7.1): stays in front of a living seat; its Honest cards count as
Crooked and vice versa (a Leader still decides its holder's team).

Zombies (RULES §8): it may be put in front of a zombie; while a zombie, the seat is on team
Zombie whatever its cards (``teams.team_from``); if it stops being a zombie (Defibrillator), the
card flips its majority again.
"""

from __future__ import annotations

from gcbc.rules.equipment import checks
from gcbc.rules.equipment.base import ANY, Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.query import living


@register
class PlantedEvidence(Card):
    name = "planted_evidence"
    timing = ANY
    stays_in_play = True
    flips_majority = True
    params = frozenset({"target"})

    def options(self, s, seat):
        return [self.play(seat, target=t) for t in living(s)]

    def check(self, s, seat, cmd):
        checks.living(s, cmd.target)

    def placed_on(self, s, seat, cmd):
        return cmd.target

    def resolve(self, s, seat, cmd):
        return []
