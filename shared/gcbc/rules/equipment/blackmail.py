"""Blackmail (RULES §7.1): two other living seats exchange the cards you choose, each card taking
the other's place and keeping its face. You see neither; each receiver learns what it got.

Zombies (RULES §8, Decision: "no card moves a zombie's integrity cards", Blackmail included): a
zombie is never one of the two seats (``target_is_zombie``), and two other living seats that are not
zombies are needed. A zombie may play it.
"""

from __future__ import annotations

from gcbc.rules.effects import exchange
from gcbc.rules.equipment.base import Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.moves import Rule
from gcbc.rules.query import others_alive
from gcbc.rules.targets import (
    LIVING,
    NOT_SELF,
    card_of,
    not_zombie,
    other_living_seat,
    seat_after,
)
from gcbc.rules.timing import ANY


def candidates(s, seat):
    """The other living seats whose cards may be taken: no zombie (RULES §8)."""
    return [t for t in others_alive(s, seat) if not s.seats[t].zombie]


_NOT_ZOMBIE = not_zombie("seat {value} is a zombie: its cards cannot be taken")


@register
class Blackmail(Card):
    name = "blackmail"
    timing = ANY
    targets_in_any_order = True
    requires = (
        Rule(
            "not_enough_seats",
            "needs two other living seats (not zombies)",
            lambda s, seat: len(candidates(s, seat)) >= 2,
        ),
    )
    params = (
        other_living_seat("targets", _NOT_ZOMBIE, index=0, name="first"),
        seat_after("first", "targets", NOT_SELF, LIVING, _NOT_ZOMBIE, index=1, name="second"),
        # 1-3, or 1 after a classic Defibrillator
        card_of("first", field="positions", index=0, as_="first_card"),
        card_of("second", field="positions", index=1, as_="second_card"),
    )

    def resolve(self, s, seat, cmd):
        return [exchange(s, cmd.targets, cmd.positions)]
