"""Blackmail (RULES §7.1): two other living seats exchange the cards you choose, each card taking
the other's place and keeping its face. You see neither; each receiver learns what it got.

Zombies (RULES §8: 'Blackmail cannot take a zombie's card'): a zombie is never one of the two
seats (``target_is_zombie``), and two other living seats that are not zombies are needed. A zombie
may play it.
"""

from __future__ import annotations

from gcbc.rules.effects import exchange
from gcbc.rules.equipment import checks
from gcbc.rules.equipment.base import ANY, Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.errors import refuse
from gcbc.rules.query import others_alive, positions


def candidates(s, seat):
    """The other living seats whose cards may be taken: no zombie (RULES §8)."""
    return [t for t in others_alive(s, seat) if not s.seat(t).zombie]


@register
class Blackmail(Card):
    name = "blackmail"
    timing = ANY
    params = frozenset({"targets", "positions"})

    def options(self, s, seat):
        others = candidates(s, seat)
        return [
            self.play(seat, targets=(a, b), positions=(pa, pb))
            for i, a in enumerate(others)
            for b in others[i + 1 :]
            for pa in positions(s, a)
            for pb in positions(s, b)
        ]

    def check(self, s, seat, cmd):
        if len(candidates(s, seat)) < 2:
            raise refuse("not_enough_seats", "needs two other living seats (not zombies)")
        checks.two_seats(cmd.targets, cmd.positions)
        if cmd.targets[0] > cmd.targets[1]:
            raise refuse("bad_parameters", "list the two seats in increasing order")
        for t, p in zip(cmd.targets, cmd.positions, strict=True):
            checks.other_living(s, seat, t)
            if s.seat(t).zombie:
                raise refuse("target_is_zombie", f"seat {t} is a zombie: its cards cannot be taken")
            if p not in positions(s, t):  # 1-3, or 1 after a classic Defibrillator
                raise refuse("invalid_position", f"seat {t} has no card at position {p}")

    def resolve(self, s, seat, cmd):
        return [exchange(s, cmd.targets, cmd.positions)]
