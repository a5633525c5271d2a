"""Restraining Order, classic wording (RULES §7.2): shoot window only, when **another** seat shoots
(or bites, §8): the shooter must aim at and shoot a different seat. Not usable with only two living
seats. The rest is the fourth edition's card (the shooter's choice, a prompt; the shot is forced).

Decision: the shooter holding it may not play it on its own shot: refused with
``not_playable_now`` (the moment is not its), as Holster refuses anyone but the shooter.
"""

from __future__ import annotations

from gcbc.rules.equipment.registry import register
from gcbc.rules.equipment.restraining_order import RestrainingOrder
from gcbc.rules.moves import Rule
from gcbc.rules.query import pending_shot


def _shooter(s):
    shot = pending_shot(s)
    return None if shot is None else shot[0]


@register
class ClassicRestrainingOrder(RestrainingOrder):
    edition = "classic"
    requires = (
        Rule(
            "not_playable_now",
            "only when another seat shoots (classic wording)",
            lambda s, seat: seat != _shooter(s),
        ),
        *RestrainingOrder.requires,
    )
