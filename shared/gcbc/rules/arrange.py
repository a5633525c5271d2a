"""Arrange (RULES §1): before the first turn, each seat may put its three cards in a new order,
once (``positions[i]``: the old position now at i+1). The order is private (``CardsArranged`` is
seen by its seat only)."""

from __future__ import annotations

from itertools import permutations
from typing import Any

from gcbc.rules.moves import Move, Param, Rule
from gcbc_contract import commands as C
from gcbc_contract import events as E

ORDERS = [tuple(p) for p in permutations((1, 2, 3))]


class Arrange(Move):
    name = "arrange"
    command = C.Arrange
    requires = (
        Rule(
            "already_arranged",
            "you have already arranged your cards",
            lambda s, seat: not s.seats[seat].arranged,
        ),
    )
    params = (
        Param(
            "positions",
            lambda s, seat, c: ORDERS,
            ("invalid_arrangement", "positions must be an order of 1, 2 and 3"),
        ),
    )

    def resolve(self, s, seat, cmd) -> list[Any]:
        return [E.CardsArranged(seat=seat, positions=tuple(cmd.positions))]


ARRANGE = Arrange()
