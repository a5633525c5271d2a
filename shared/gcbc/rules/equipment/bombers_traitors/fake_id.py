"""Fake ID (RULES §9): exchange one face-up Honest/Crooked card with another face-up Honest/Crooked
card (any icons; never a Leader) of two different living seats: ``targets`` the two seats in
increasing order, ``positions`` the card of each. Each card takes the other's position and stays
face up. Past 200 choices it lists one template per pair of seats (RULES §7.3).

Decision: either seat may be your own. A zombie's cards are never exchanged
(``target_is_zombie``): RULES §8 names only Blackmail, but the publisher's help says "you can no
longer move the Integrity Cards of zombies" (seeds/000, revision of 2023-03-23, still so in the
latest one). Both cards are face up, so the exchange reveals nothing new.
"""

from __future__ import annotations

from itertools import combinations
from math import prod

from gcbc.contract.cards import CROOKED, HONEST, side_of
from gcbc.rules.effects import exchange
from gcbc.rules.equipment import checks
from gcbc.rules.equipment.base import ANY, Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.errors import refuse
from gcbc.rules.query import living, positions


def exchangeable(s, seat):
    """The positions of the seat's face-up Honest/Crooked cards."""
    st = s.seat(seat)
    return [
        p
        for p in positions(s, seat)
        if st.face_up[p - 1] and side_of(s.identities[st.cards[p - 1]]) in (HONEST, CROOKED)
    ]


@register
class FakeId(Card):
    name = "fake_id"
    timing = ANY
    params = frozenset({"targets", "positions"})

    def options(self, s, seat):
        from gcbc.rules.legal import TEMPLATE_LIMIT, template

        cards = {t: exchangeable(s, t) for t in living(s) if not s.seat(t).zombie}
        pairs = [(a, b) for a, b in combinations(sorted(cards), 2) if cards[a] and cards[b]]
        if sum(prod((len(cards[a]), len(cards[b]))) for a, b in pairs) > TEMPLATE_LIMIT:
            return [
                template(self.name, seat, {"targets": (a, b)}, {"positions": [cards[a], cards[b]]})
                for a, b in pairs
            ]
        return [
            self.play(seat, targets=(a, b), positions=(pa, pb))
            for a, b in pairs
            for pa in cards[a]
            for pb in cards[b]
        ]

    def check(self, s, seat, cmd):
        checks.two_seats(cmd.targets, cmd.positions)
        if cmd.targets[0] > cmd.targets[1]:
            raise refuse("bad_parameters", "list the two seats in increasing order")
        for t, p in zip(cmd.targets, cmd.positions, strict=True):
            checks.living(s, t)
            if s.seat(t).zombie:
                raise refuse("target_is_zombie", f"seat {t} is a zombie: its cards cannot move")
            if p not in positions(s, t):
                raise refuse("invalid_position", f"seat {t} has no card at position {p}")
            if not s.seat(t).face_up[p - 1]:
                raise refuse("card_not_face_up", f"seat {t}'s card at {p} is face down")
            if p not in exchangeable(s, t):
                raise refuse("card_is_leader", f"seat {t}'s card at {p} is a Leader")

    def resolve(self, s, seat, cmd):
        return [exchange(s, cmd.targets, cmd.positions)]
