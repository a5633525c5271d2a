"""Crossbow (RULES §8.1): choose a non-wounded living seat whose gun aims at you: it is shot, by
you (RULES §4).

Decision (RULES §8, "equipment that affects guns/shooting affects Arms the same way"): a zombie
whose Arms aim at you may be chosen too; shot, its Arms turn to aim at itself.
"""

from __future__ import annotations

from gcbc.rules.effects import get_shot
from gcbc.rules.equipment import checks
from gcbc.rules.equipment.base import ANY, Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.errors import refuse
from gcbc.rules.query import aim_of, others_alive, wields
from gcbc.rules.teams import is_wounded


def aims_at(s, seat, target):
    """Whether ``seat``'s gun (a zombie: its Arms) aims at ``target``."""
    return wields(s, seat) and aim_of(s, seat) == target


def targets(s, seat):
    return [t for t in others_alive(s, seat) if aims_at(s, t, seat) and not is_wounded(s, t)]


@register
class Crossbow(Card):
    name = "crossbow"
    timing = ANY
    params = frozenset({"target"})

    def options(self, s, seat):
        return [self.play(seat, target=t) for t in targets(s, seat)]

    def check(self, s, seat, cmd):
        t = checks.other_living(s, seat, cmd.target)
        if not aims_at(s, t, seat):
            raise refuse("not_aimed", f"seat {t} does not aim at you")
        if is_wounded(s, t):
            raise refuse("target_wounded", f"seat {t} is wounded")

    def resolve(self, s, seat, cmd):
        return get_shot(s, seat, cmd.target)
