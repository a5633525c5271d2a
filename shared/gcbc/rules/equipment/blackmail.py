"""Blackmail (RULES §7.1): two other living seats exchange the cards you choose, each card taking
the other's place and keeping its face. You see neither; each receiver learns what it got."""

from __future__ import annotations

from gcbc.contract.events import CardsExchanged
from gcbc.rules.equipment import checks
from gcbc.rules.equipment.base import ANY, Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.errors import refuse
from gcbc.rules.query import card_at, others_alive


@register
class Blackmail(Card):
    name = "blackmail"
    timing = ANY
    params = frozenset({"targets", "positions"})

    def options(self, s, seat):
        others = others_alive(s, seat)
        return [
            self.play(seat, targets=(a, b), positions=(pa, pb))
            for i, a in enumerate(others)
            for b in others[i + 1 :]
            for pa in (1, 2, 3)
            for pb in (1, 2, 3)
        ]

    def check(self, s, seat, cmd):
        if len(others_alive(s, seat)) < 2:
            raise refuse("not_enough_seats", "needs two other living seats")
        checks.two_seats(cmd.targets, cmd.positions)
        if cmd.targets[0] > cmd.targets[1]:
            raise refuse("bad_parameters", "list the two seats in increasing order")
        for t, p in zip(cmd.targets, cmd.positions, strict=True):
            checks.other_living(s, seat, t)
            if not 1 <= p <= 3:
                raise refuse("invalid_position", "position must be 1, 2 or 3")

    def resolve(self, s, seat, cmd):
        (a, b), (pa, pb) = cmd.targets, cmd.positions
        ca, cb = card_at(s, a, pa), card_at(s, b, pb)
        return [
            CardsExchanged(
                seats=(a, b),
                positions=(pa, pb),
                card_ids=(ca, cb),
                cards=(s.identities[ca], s.identities[cb]),
            )
        ]
