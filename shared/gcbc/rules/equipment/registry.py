"""Card name -> the object implementing it. Filled by importing ``gcbc.rules.equipment``.

A name has one implementation for every edition, unless the classic edition words it differently
(RULES §7.2): then the classic one is registered with ``edition = "classic"`` and ``card`` picks it
for classic tables.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gcbc.rules.equipment.base import Card
    from gcbc.rules.state import State

CARDS: dict[str, Card] = {}  # every edition (the fourth edition's wording)
CLASSIC: dict[str, Card] = {}  # classic wording, where it differs


def register(cls: type[Card]) -> type[Card]:
    table = CLASSIC if cls.edition == "classic" else CARDS
    assert cls.name not in table, f"{cls.name} registered twice"
    table[cls.name] = cls()
    return cls


def card(s: State, name: str) -> Card:
    """The implementation of ``name`` at this table (its edition)."""
    if s.setup.options.edition == "classic":
        variant = CLASSIC.get(name)
        if variant is not None:
            return variant
    return CARDS[name]
