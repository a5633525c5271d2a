"""Card name -> the module object implementing it. Filled by ``gcbc.rules.equipment``."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gcbc.rules.equipment.base import Card

CARDS: dict[str, Card] = {}


def register(cls: type[Card]) -> type[Card]:
    CARDS[cls.name] = cls()
    return cls
