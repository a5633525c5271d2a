"""Riot Shield (RULES §7.1): shoot window only. The target of the shot names a living seat on its
left or right (its nearest living neighbours; the shooter may be one): that seat is shot
instead. A prompt to the target; the target playing it names the seat with the play (§7.3: a
choice of its own), or answers the prompt. Forces the shot.

Zombies (RULES §8: 'equipment that acts on guns and shooting acts on Arms and biting the same way'):
in a bite window the bitten seat names a neighbour, who is bitten instead. Decision: as for a shot,
either neighbour may be named, a zombie or the biter itself included: a forced bite at a zombie
resolves like a shot at a zombie (its Arms turn to aim at itself; ``query.bite_lands``).
"""

from __future__ import annotations

from gcbc.rules.equipment.base import Answer, Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.moves import Rule
from gcbc.rules.query import neighbours, pending_shot
from gcbc.rules.timing import SHOOT_WINDOW
from gcbc_contract.events import PromptAnswered, PromptOpened, ShotRedirected


@register
class RiotShield(Card):
    name = "riot_shield"
    timing = SHOOT_WINDOW
    requires = (
        Rule("no_effect", "no shot can happen now", lambda s, seat: pending_shot(s) is not None),
    )
    answer = Answer("target", "name a seat beside you: {options}")

    def asks(self, s, seat, cmd):
        _, target = pending_shot(s)
        return target, tuple(sorted(set(neighbours(s, target)) - {target}))

    def resolve(self, s, seat, cmd):
        target, sides = self.asks(s, seat, cmd)
        return [PromptOpened(seat=target, kind=self.name, options=sides)]

    def answered(self, s, prompt, cmd):
        return [
            PromptAnswered(seat=prompt.seat, kind=self.name, target=cmd.target),
            ShotRedirected(target=cmd.target),
        ]
