"""Restraining Order (RULES §7.1): shoot window only. The shooter must aim at a different living
seat (not itself, not the old target) of the shooter's choice, then shoots it: a prompt to the
shooter. Needs 3 living seats. Forces the shot."""

from __future__ import annotations

from gcbc.contract.commands import Choose
from gcbc.contract.events import GunAimed, PromptAnswered, PromptOpened, ShotRedirected
from gcbc.rules.equipment.base import SHOOT_WINDOW, Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.errors import refuse
from gcbc.rules.query import living, pending_shot


def new_targets(s):
    shot = pending_shot(s)
    if shot is None:
        return []
    shooter, target = shot
    return [t for t in living(s) if t not in (shooter, target)]


@register
class RestrainingOrder(Card):
    name = "restraining_order"
    timing = SHOOT_WINDOW

    def options(self, s, seat):
        return [self.play(seat)] if new_targets(s) else []

    def check(self, s, seat, cmd):
        if pending_shot(s) is None:
            raise refuse("no_effect", "no shot can happen now")
        if not new_targets(s):
            raise refuse("not_enough_seats", "needs a third living seat")

    def resolve(self, s, seat, cmd):
        shooter, _ = pending_shot(s)
        return [PromptOpened(seat=shooter, kind=self.name, options=tuple(new_targets(s)))]

    def prompt_options(self, s, prompt):
        return [Choose(seat=prompt.seat, target=t) for t in prompt.options]

    def answer(self, s, prompt, cmd):
        if cmd.position is not None or cmd.card is not None or cmd.target not in prompt.options:
            raise refuse("invalid_choice", f"choose a target among {list(prompt.options)}")
        return [
            PromptAnswered(seat=prompt.seat, kind=self.name, target=cmd.target),
            GunAimed(seat=prompt.seat, target=cmd.target),
            ShotRedirected(target=cmd.target),
        ]
