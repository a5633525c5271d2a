"""Truth Serum (RULES §7.1): any face-down card of a living seat is turned face up (Disguise does
not protect it; your own cards included).

Zombies (RULES §8): a zombie's cards are all face up, so it is never a target.
"""

from __future__ import annotations

from gcbc.rules.effects import reveal
from gcbc.rules.equipment import checks
from gcbc.rules.equipment.base import ANY, Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.query import face_down, living


@register
class TruthSerum(Card):
    name = "truth_serum"
    timing = ANY
    params = frozenset({"target", "position"})

    def options(self, s, seat):
        return [self.play(seat, target=t, position=p) for t in living(s) for p in face_down(s, t)]

    def check(self, s, seat, cmd):
        t = checks.living(s, cmd.target)
        checks.face_down_card(s, t, cmd.position)

    def resolve(self, s, seat, cmd):
        return [reveal(s, cmd.target, cmd.position)]
