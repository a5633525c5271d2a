"""Transfusion Tube (RULES §8.1): with both Leader cards face up and held by two different seats,
their holders exchange them (each card takes the other's position and stays face up; a Wounded
token moves with its card, RULES §4). The two seats are listed in increasing order, as Blackmail's
exchange."""

from __future__ import annotations

from gcbc.rules.effects import exchange
from gcbc.rules.equipment.base import Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.moves import Rule
from gcbc.rules.timing import ANY


def leader_places(s):
    """(holder, position) of the Agent and of the Kingpin. Two different seats: a seat holding
    both has won at once (RULES §2), and a Leader card never leaves the seats."""
    return [
        next((i, st.cards.index(cid) + 1) for i, st in enumerate(s.seats) if cid in st.cards)
        for cid in s.setup.leader_ids
    ]


def face_up(s):
    return all(s.seat(i).face_up[p - 1] for i, p in leader_places(s))


@register
class TransfusionTube(Card):
    name = "transfusion_tube"
    timing = ANY
    requires = (
        Rule("card_not_face_up", "both Leader cards must be face up", lambda s, seat: face_up(s)),
    )

    def resolve(self, s, seat, cmd):
        (a, pa), (b, pb) = sorted(leader_places(s))
        return [exchange(s, (a, b), (pa, pb))]
