"""Fake ID (RULES §9): exchange one face-up Honest/Crooked card with another face-up Honest/Crooked
card (any icons; never a Leader) of two different living seats: ``targets`` the two seats in
increasing order, ``positions`` the card of each. Each card takes the other's position and stays
face up. Past 200 choices it lists one template per pair of seats (RULES §7.3).

Decision: either seat may be your own. A zombie's cards are never exchanged (``target_is_zombie``):
RULES §8 (Decision) names Fake ID among the exchanges that never move a zombie's integrity cards, as
the publisher's help says "you can no longer move the Integrity Cards of zombies" (seeds/000,
revision of 2023-03-23, still so in the latest one). Both cards are face up, so the exchange reveals
nothing new.
"""

from __future__ import annotations

from gcbc.rules.effects import exchange
from gcbc.rules.equipment.base import Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.moves import Rule
from gcbc.rules.targets import LIVING, card_of, living_seat, not_zombie, seat_after
from gcbc.rules.timing import ANY
from gcbc_contract.cards import CROOKED, HONEST, side_of

_NOT_ZOMBIE = not_zombie("seat {value} is a zombie: its cards cannot move")


def exchangeable(s, seat):
    """The positions of the seat's face-up Honest/Crooked cards."""
    st = s.seat(seat)
    return [
        p
        for p in range(1, len(st.cards) + 1)
        if st.face_up[p - 1] and side_of(s.setup.identities[st.cards[p - 1]]) in (HONEST, CROOKED)
    ]


def _exchangeable_card_of(name, index):
    return card_of(
        name,
        Rule(
            "card_not_face_up",
            "that card is face down",
            lambda s, me, p, c: s.seats[c[name]].face_up[p - 1],
        ),
        Rule(
            "card_is_leader",
            "that card is a Leader",
            lambda s, me, p, c: p in exchangeable(s, c[name]),
        ),
        field="positions",
        index=index,
        as_=f"{name}_card",
    )


@register
class FakeId(Card):
    name = "fake_id"
    timing = ANY
    targets_in_any_order = True
    params = (
        living_seat("targets", _NOT_ZOMBIE, index=0, name="first"),
        seat_after("first", "targets", LIVING, _NOT_ZOMBIE, index=1, name="second"),
        _exchangeable_card_of("first", 0),
        _exchangeable_card_of("second", 1),
    )
    template_field = "positions"  # past 200 choices, one template per pair of seats (RULES §7.3)

    def resolve(self, s, seat, cmd):
        return [exchange(s, cmd.targets, cmd.positions)]
