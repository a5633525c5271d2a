"""Flashbang (RULES §7.2, classic only): any window. Shuffle your integrity cards, look at them, and
lay them face down again in the order you like (face-up cards become face down).

``positions``: the new order, a permutation of your positions (``positions[i]`` is the old
position now at i+1; a seat down to one card after a classic Defibrillator has only ``(1,)``).
``CardsShuffled``: your cards are face down in that order, and every other seat loses track of
them (it can no longer tell which card is where). The new order is private: the public
``EquipmentPlayed`` leaves it out (``hidden_params``); only you see it in ``CardsShuffled``.

Decision: always playable (even with every card face down and unseen: the order still changes
for all others), except by a zombie (``zombie_cannot``): the publisher's help says "you can no
longer move the Integrity Cards of zombies" (seeds/000, revision of 2023-03-23, still so in the
latest one), and a zombie's cards stay revealed (§8), so the card has no effect it could have.

Decision (RULES §4 with `wounds: "token"`, which the classic wording never met): the Wounded token
sits on the Leader card and moves with it, so it stays on that card when it is laid face down:
everyone can still follow that one card (it stays known to all, though face down; ``evolve``);
the seat's other cards are hidden as usual.
"""

from __future__ import annotations

from itertools import permutations

from gcbc.rules.equipment.base import Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.moves import Param, Rule
from gcbc.rules.query import positions
from gcbc.rules.timing import ANY
from gcbc_contract.events import CardsShuffled


def orders(s, seat, chosen):
    """Every order of the seat's own cards (3, or 1 after a classic Defibrillator)."""
    return list(permutations(positions(s, seat)))


@register
class Flashbang(Card):
    name = "flashbang"
    timing = ANY
    requires = (
        Rule(
            "zombie_cannot",
            "a zombie's integrity cards cannot be moved",
            lambda s, seat: not s.seats[seat].zombie,
        ),
    )
    params = (
        Param(
            "positions",
            orders,
            ("invalid_arrangement", "positions must be an order of your cards' positions"),
        ),
    )
    hidden_params = frozenset({"positions"})

    def resolve(self, s, seat, cmd):
        return [CardsShuffled(seat=seat, positions=tuple(cmd.positions))]
