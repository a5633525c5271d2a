"""Walkie Talkie (RULES §7.1): choose a living seat; every seat holding a gun aims at it (a gun
holder chosen as the target keeps its own aim). Playable only if some aim would change.

Zombies (RULES §8: 'equipment that acts on guns and shooting acts on Arms and biting the same way'):
every zombie aims its Arms at the chosen seat too (a zombie chosen as the target keeps its own aim).
The chosen seat may be a zombie: guns and the other zombies' Arms then aim at it. Decision: Arms
aimed at the zombie itself (it was shot, or hit by a K-9 Unit: the zombie's 'dropped gun') stay so,
as a seat without a gun is not given one.
"""

from __future__ import annotations

from gcbc.rules.equipment.base import Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.moves import Rule
from gcbc.rules.query import aim_event, aim_of, any_weapon, wielders
from gcbc.rules.targets import living_seat
from gcbc.rules.timing import ANY


def turned(s, target):
    """The seats whose gun or Arms would turn to ``target``, in seat order."""
    return [g for g in wielders(s) if g != target and aim_of(s, g) != target]


@register
class WalkieTalkie(Card):
    name = "walkie_talkie"
    timing = ANY
    needs = any_weapon  # often no gun is held
    params = (
        living_seat(
            "target",
            Rule(
                "no_effect",
                "no gun or Arms would change its aim",
                lambda s, me, t, c: bool(turned(s, t)),
            ),
        ),
    )

    def resolve(self, s, seat, cmd):
        return [aim_event(s, g, cmd.target) for g in turned(s, cmd.target)]
