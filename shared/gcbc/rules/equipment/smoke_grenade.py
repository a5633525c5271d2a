"""Smoke Grenade (RULES §7.1): the turn order reverses, permanently, from the end of this turn.

Zombies (RULES §8): unchanged; zombies are living seats and keep their place in the turn order.
"""

from __future__ import annotations

from gcbc.rules.equipment.base import Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.timing import ANY
from gcbc_contract.events import TurnOrderReversed


@register
class SmokeGrenade(Card):
    name = "smoke_grenade"
    timing = ANY

    def resolve(self, s, seat, cmd):
        return [TurnOrderReversed(seat=seat)]
