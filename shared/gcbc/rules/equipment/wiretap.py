"""Wiretap (RULES §7.1): investigate one face-down card of each of two different other seats
(seats in increasing order).

Zombies (RULES §8): a zombie's cards are all face up, so it is never one of the two seats.
Decision: a zombie may play it (only the Investigate action is barred to zombies).
"""

from __future__ import annotations

from gcbc.rules.effects import view_card
from gcbc.rules.equipment import checks
from gcbc.rules.equipment.base import ANY, Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.errors import refuse
from gcbc.rules.query import can_investigate, face_down, others_alive


@register
class Wiretap(Card):
    name = "wiretap"
    timing = ANY
    params = frozenset({"targets", "positions"})

    def options(self, s, seat):
        seats = [
            t for t in others_alive(s, seat) if can_investigate(s, seat, t) and face_down(s, t)
        ]
        return [
            self.play(seat, targets=(a, b), positions=(pa, pb))
            for i, a in enumerate(seats)
            for b in seats[i + 1 :]
            for pa in face_down(s, a)
            for pb in face_down(s, b)
        ]

    def check(self, s, seat, cmd):
        checks.two_seats(cmd.targets, cmd.positions)
        if cmd.targets[0] > cmd.targets[1]:
            raise refuse("bad_parameters", "list the two seats in increasing order")
        for t, p in zip(cmd.targets, cmd.positions, strict=True):
            checks.investigable(s, seat, t)
            checks.face_down_card(s, t, p)

    def resolve(self, s, seat, cmd):
        events = []
        for t, p in zip(cmd.targets, cmd.positions, strict=True):
            events += view_card(s, seat, t, p, self.name)
        return events
