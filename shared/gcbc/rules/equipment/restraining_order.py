"""Restraining Order (RULES §7.1): shoot window only. The shooter must aim at a different living
seat (not itself, not the old target) of the shooter's choice, then shoots it: a prompt to the
shooter (the shooter playing it names the seat with the play, §7.3, or answers the prompt). Needs
3 living seats. Forces the shot.

Decision (RULES §7.1: "Needs at least 3 living seats"; §7.2: "Not with only two living seats"): in
every case the count is of living seats, whatever the pending shot's target: a shot a Riot Shield
turned back onto the shooter leaves, with two living seats, the other one as a "different" seat, yet
the card is not playable.

Zombies (RULES §8: 'equipment that acts on guns and shooting acts on Arms and biting the same way'):
in a bite window the biter must aim its Arms at a different living seat of its choice, then bites
it. Decision: as for a shot, any living seat but the biter and the old target may be chosen, a
zombie included: a forced bite at a zombie resolves like a shot at a zombie (its Arms turn to aim at
itself; ``query.bite_lands``).
"""

from __future__ import annotations

from gcbc.rules.equipment.base import Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.moves import Rule
from gcbc.rules.query import aim_event, living, pending_shot
from gcbc.rules.timing import SHOOT_WINDOW
from gcbc_contract.events import PromptAnswered, PromptOpened, ShotRedirected


def new_targets(s):
    shot = pending_shot(s)
    seats = living(s)
    if shot is None or len(seats) < 3:
        return []
    shooter, target = shot
    return [t for t in seats if t not in (shooter, target)]


@register
class RestrainingOrder(Card):
    name = "restraining_order"
    timing = SHOOT_WINDOW
    requires = (
        Rule("no_effect", "no shot can happen now", lambda s, seat: pending_shot(s) is not None),
        Rule("not_enough_seats", "needs a third living seat", lambda s, seat: bool(new_targets(s))),
    )

    def asks(self, s, seat, cmd):
        shooter, _ = pending_shot(s)
        return shooter, tuple(new_targets(s))

    def resolve(self, s, seat, cmd):
        shooter, options = self.asks(s, seat, cmd)
        return [PromptOpened(seat=shooter, kind=self.name, options=options)]

    def answered(self, s, prompt, cmd):
        return [
            PromptAnswered(seat=prompt.seat, kind=self.name, target=cmd.target),
            aim_event(s, prompt.seat, cmd.target),  # the gun, or a biter's Arms (RULES §8)
            ShotRedirected(target=cmd.target),
        ]
