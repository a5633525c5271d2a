"""Truth Serum (RULES §7.1): any face-down card of a living seat is turned face up (Disguise does
not protect it; your own cards included).

Zombies (RULES §8): a zombie's cards are all face up, so it is never a target.
"""

from __future__ import annotations

from gcbc.rules.effects import reveal
from gcbc.rules.equipment.base import Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.query import any_face_down
from gcbc.rules.targets import face_down_card_of, living_seat
from gcbc.rules.timing import ANY


@register
class TruthSerum(Card):
    name = "truth_serum"
    timing = ANY
    needs = any_face_down  # late in a game, every card may be face up
    params = (living_seat("target"), face_down_card_of("target"))

    def resolve(self, s, seat, cmd):
        return [reveal(s, cmd.target, cmd.position)]
