"""Holster (RULES §9): shoot window only (and the bite window, §8), only as the shooter: change
your aim before shooting, to a living seat other than yourself and the current target (a biting
zombie aims its Arms; a forced bite lands on any living seat, ``query.bite_lands``). Needs 3 living
seats. Forces the shot (§6).

Decision: "only as the shooter" is refused with ``not_playable_now`` for anyone else (the moment is
not theirs); the current target is the one the pending shot would hit (after an earlier redirect,
the redirected one).
"""

from __future__ import annotations

from gcbc.contract.events import ShotRedirected
from gcbc.rules.equipment import checks
from gcbc.rules.equipment.base import SHOOT_WINDOW, Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.errors import refuse
from gcbc.rules.query import aim_event, living, others_alive, pending_shot


@register
class Holster(Card):
    name = "holster"
    timing = SHOOT_WINDOW
    params = frozenset({"aim"})

    def new_aims(self, s, seat):
        shot = pending_shot(s)
        if shot is None or shot[0] != seat or len(living(s)) < 3:
            return []
        return [t for t in others_alive(s, seat) if t != shot[1]]

    def options(self, s, seat):
        return [self.play(seat, aim=t) for t in self.new_aims(s, seat)]

    def check(self, s, seat, cmd):
        shot = pending_shot(s)
        if shot is None:
            raise refuse("no_effect", "no shot can happen now")
        shooter, target = shot
        if seat != shooter:
            raise refuse("not_playable_now", "only the shooter may play holster")
        if len(living(s)) < 3:
            raise refuse("not_enough_seats", "needs three living seats")
        aim = checks.other_living(s, seat, cmd.aim)
        if aim == target:
            raise refuse("invalid_target", "aim at another seat than the current target")

    def resolve(self, s, seat, cmd):
        return [aim_event(s, seat, cmd.aim), ShotRedirected(target=cmd.aim)]
