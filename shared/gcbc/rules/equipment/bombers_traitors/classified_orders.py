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

from gcbc.contract.events import PromptAnswered, PromptOpened, ShotRedirected
from gcbc.rules.equipment import checks
from gcbc.rules.equipment.base import SHOOT_WINDOW, Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.errors import refuse
from gcbc.rules.query import aim_event, living, others_alive, pending_shot


@register
class ClassifiedOrders(Card):
    name = "classified_orders"
    timing = SHOOT_WINDOW
    params = frozenset({"target"})

    def options(self, s, seat):
        if pending_shot(s) is None or len(living(s)) < 3:
            return []
        return [self.play(seat, target=t) for t in others_alive(s, seat)]

    def check(self, s, seat, cmd):
        if pending_shot(s) is None:
            raise refuse("no_effect", "no shot can happen now")
        if len(living(s)) < 3:
            raise refuse("not_enough_seats", "needs three living seats")
        checks.other_living(s, seat, cmd.target)

    def resolve(self, s, seat, cmd):
        shooter, _ = pending_shot(s)
        options = tuple(others_alive(s, shooter))
        return [PromptOpened(seat=cmd.target, kind=self.name, options=options, about=shooter)]

    def answer(self, s, prompt, cmd):
        if cmd.position is not None or cmd.card is not None or cmd.target not in prompt.options:
            raise refuse("invalid_choice", f"choose where to aim among {list(prompt.options)}")
        return [
            PromptAnswered(seat=prompt.seat, kind=self.name, target=cmd.target),
            aim_event(s, prompt.about, cmd.target),
            ShotRedirected(target=cmd.target),
        ]
