"""K-9 Unit (RULES §7.1): a seat holding a gun drops it to the centre.

Zombies (RULES §8: 'equipment that would make a zombie drop its gun makes it aim its Arms at
itself'): a zombie whose Arms aim at another seat may be chosen; its Arms turn to aim at itself
(played on a biter in the bite window, the bite becomes impossible and the zombie chooses again).
"""

from __future__ import annotations

from gcbc.rules.equipment.base import Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.moves import Rule
from gcbc.rules.query import any_weapon
from gcbc.rules.targets import living_seat
from gcbc.rules.timing import ANY
from gcbc_contract.events import ArmsAimed, GunDropped


@register
class K9Unit(Card):
    name = "k9_unit"
    timing = ANY
    needs = any_weapon  # often no gun is held
    params = (
        living_seat(
            "target",
            Rule(
                "no_effect",
                "zombie {value}'s Arms already aim at itself",
                lambda s, me, t, c: not (s.seats[t].zombie and s.seats[t].arms_aim == t),
            ),
            Rule(
                "no_gun",
                "seat {value} holds no gun",
                lambda s, me, t, c: s.seats[t].zombie or s.seats[t].gun,
            ),
        ),
    )

    def resolve(self, s, seat, cmd):
        if s.seat(cmd.target).zombie:
            return [ArmsAimed(seat=cmd.target, target=cmd.target)]
        return [GunDropped(seat=cmd.target)]
