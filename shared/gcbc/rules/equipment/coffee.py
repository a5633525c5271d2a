"""Coffee (RULES §7.1): when the current turn ends, your turn comes next.

Zombies (RULES §8): a zombie may play it; its turn (a zombie's turn) comes next.
"""

from __future__ import annotations

from gcbc.rules.equipment.base import Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.timing import ANY
from gcbc_contract.events import NextTurnClaimed


@register
class Coffee(Card):
    name = "coffee"
    timing = ANY

    def resolve(self, s, seat, cmd):
        return [NextTurnClaimed(seat=seat)]
