"""Table options, deadlines and scenario deals: what a table is created with."""

from __future__ import annotations

from typing import Literal

import msgspec


class TableOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """The table options of API.md. The engine refuses those it does not offer yet."""

    edition: Literal["fourth", "classic"] = "fourth"
    zombies: bool = False
    bombers_traitors: bool = False
    extra_equipment: bool = False


class Deadlines(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Seconds allowed for each kind of wait (RULES §10)."""

    turn: float = 90.0
    reaction: float = 20.0
    prompt: float = 20.0
    arrange: float = 60.0


class Deal(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """A scenario deal (API.md): who holds what, the deck's top, the first seat."""

    integrity: tuple[tuple[str, ...], ...]
    equipment: tuple[tuple[str, ...], ...] = ()
    equipment_deck: tuple[str, ...] = ()
    first_seat: int | None = None
