"""Holster (RULES §9): shoot window only (and the bite window, §8), only as the shooter: change
your aim before shooting, to a living seat other than yourself and the current target (a biting
zombie aims its Arms; a forced bite lands on any living seat, ``query.bite_lands``). Needs 3 living
seats. Forces the shot (§6).

Decision: "as the shooter only" (RULES §9): anyone else is refused with ``not_playable_now`` (the
moment is not theirs); the current target is the one the pending shot would hit (after an earlier
redirect, the redirected one).
"""

from __future__ import annotations

from gcbc.rules.equipment.base import Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.moves import Rule
from gcbc.rules.query import aim_event, living, pending_shot
from gcbc.rules.targets import other_living_seat
from gcbc.rules.timing import SHOOT_WINDOW
from gcbc_contract.events import ShotRedirected


@register
class Holster(Card):
    name = "holster"
    timing = SHOOT_WINDOW
    requires = (
        Rule("no_effect", "no shot can happen now", lambda s, seat: pending_shot(s) is not None),
        Rule(
            "not_playable_now",
            "only the shooter may play holster",
            lambda s, seat: pending_shot(s)[0] == seat,
        ),
        Rule("not_enough_seats", "needs three living seats", lambda s, seat: len(living(s)) >= 3),
    )
    params = (
        other_living_seat(
            "aim",
            Rule(
                "invalid_target",
                "aim at another seat than the current target",
                lambda s, me, t, c: t != pending_shot(s)[1],
            ),
        ),
    )

    def resolve(self, s, seat, cmd):
        return [aim_event(s, seat, cmd.aim), ShotRedirected(target=cmd.aim)]
