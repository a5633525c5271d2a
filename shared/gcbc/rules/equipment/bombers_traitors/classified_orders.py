"""Classified Orders (RULES §9): shoot window only (and the bite window, §8). You choose a living
seat other than yourself; that seat chooses where the shooter's weapon aims (a prompt to it, §7.3):
the shooter's gun (or a biting zombie's Arms) aims there and fires. Needs 3 living seats. Forces
the shot (§6).

Decision: the chosen seat may be the shooter, the target, or any other living seat. Its options
are every living seat other than the shooter, the current target and the chosen seat itself
included (the shot is then still forced at it). For a bite, a zombie may be chosen too: a forced
bite lands on any living seat (``query.bite_lands``, RULES §8).
"""

from __future__ import annotations

from gcbc.rules.equipment.base import Answer, Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.moves import Rule
from gcbc.rules.query import aim_event, living, others_alive, pending_shot
from gcbc.rules.targets import other_living_seat
from gcbc.rules.timing import SHOOT_WINDOW
from gcbc_contract.events import PromptAnswered, PromptOpened, ShotRedirected


@register
class ClassifiedOrders(Card):
    name = "classified_orders"
    timing = SHOOT_WINDOW
    requires = (
        Rule("no_effect", "no shot can happen now", lambda s, seat: pending_shot(s) is not None),
        Rule("not_enough_seats", "needs three living seats", lambda s, seat: len(living(s)) >= 3),
    )
    params = (other_living_seat("target"),)
    answer = Answer("target", "choose where to aim among {options}")

    def resolve(self, s, seat, cmd):
        shooter, _ = pending_shot(s)
        options = tuple(others_alive(s, shooter))
        return [PromptOpened(seat=cmd.target, kind=self.name, options=options, about=shooter)]

    def answered(self, s, prompt, cmd):
        return [
            PromptAnswered(seat=prompt.seat, kind=self.name, target=cmd.target),
            aim_event(s, prompt.about, cmd.target),
            ShotRedirected(target=cmd.target),
        ]
