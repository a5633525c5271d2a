"""Med Kit (RULES §7.1): remove the Wounded token from a living seat's Leader card.

Zombies (RULES §8): unchanged; a zombie holds no Leader card (a Leader is never made a zombie),
so it carries no Wounded token.
"""

from __future__ import annotations

from gcbc.contract.events import WoundHealed
from gcbc.rules.equipment import checks
from gcbc.rules.equipment.base import ANY, Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.errors import refuse
from gcbc.rules.query import living


def wound_of(s, seat):
    for c in s.seat(seat).cards:
        if c in s.wounds:
            return c
    return None


@register
class MedKit(Card):
    name = "med_kit"
    timing = ANY
    params = frozenset({"target"})

    def options(self, s, seat):
        return [self.play(seat, target=t) for t in living(s) if wound_of(s, t) is not None]

    def check(self, s, seat, cmd):
        t = checks.living(s, cmd.target)
        if wound_of(s, t) is None:
            raise refuse("no_effect", f"seat {t} is not wounded")

    def resolve(self, s, seat, cmd):
        return [WoundHealed(seat=cmd.target, card_id=wound_of(s, cmd.target))]
