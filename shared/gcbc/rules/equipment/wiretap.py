"""Wiretap (RULES §7.1): investigate one face-down card of each of two different other seats
(named in either order: ``Card.targets_in_any_order``).

Zombies (RULES §8): a zombie's cards are all face up, so it is never one of the two seats.
Decision: a zombie may play it (only the Investigate action is barred to zombies).
"""

from __future__ import annotations

from gcbc.rules.effects import view_card
from gcbc.rules.equipment.base import Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.query import investigable_face_down
from gcbc.rules.targets import (
    LIVING,
    NOT_DISGUISED,
    NOT_SELF,
    face_down_card_of,
    investigable_seat,
    seat_after,
)
from gcbc.rules.timing import ANY


def _two_investigable(s, me):
    """Whether two other living seats that Disguise does not protect have a face-down card
    (late in a game, every card may be face up)."""
    return investigable_face_down(s, me, 2)


@register
class Wiretap(Card):
    name = "wiretap"
    timing = ANY
    targets_in_any_order = True
    needs = _two_investigable
    params = (
        investigable_seat("targets", index=0, name="first"),
        seat_after("first", "targets", NOT_SELF, LIVING, NOT_DISGUISED, index=1, name="second"),
        face_down_card_of("first", field="positions", index=0, as_="first_card"),
        face_down_card_of("second", field="positions", index=1, as_="second_card"),
    )

    def resolve(self, s, seat, cmd):
        events = []
        for t, p in zip(cmd.targets, cmd.positions, strict=True):
            events += view_card(s, seat, t, p, self.name)
        return events
