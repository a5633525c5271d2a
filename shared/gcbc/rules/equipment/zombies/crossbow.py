"""Crossbow (RULES §8.1): choose a non-wounded living seat whose gun aims at you: it is shot, by
you (RULES §4).

Decision (RULES §8, "equipment that acts on guns and shooting acts on Arms and biting the same
way"): a zombie whose Arms aim at you may be chosen too; shot, its Arms turn to aim at itself.
"""

from __future__ import annotations

from gcbc.rules.effects import get_shot
from gcbc.rules.equipment.base import Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.moves import Rule
from gcbc.rules.query import aim_of, wields
from gcbc.rules.targets import other_living_seat
from gcbc.rules.teams import is_wounded
from gcbc.rules.timing import ANY


def aims_at(s, seat, target):
    """Whether ``seat``'s gun (a zombie: its Arms) aims at ``target``."""
    return wields(s, seat) and aim_of(s, seat) == target


@register
class Crossbow(Card):
    name = "crossbow"
    timing = ANY
    params = (
        other_living_seat(
            "target",
            Rule(
                "not_aimed",
                "seat {value} does not aim at you",
                lambda s, me, t, c: aims_at(s, t, me),
            ),
            Rule(
                "target_wounded",
                "seat {value} is wounded",
                lambda s, me, t, c: not is_wounded(s, t),
            ),
        ),
    )

    def resolve(self, s, seat, cmd):
        return get_shot(s, seat, cmd.target)
