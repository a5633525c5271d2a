"""Table options, deadlines and scenario deals: what a table is created with."""

from __future__ import annotations

from typing import Literal

import msgspec
from msgspec.structs import replace


def default_wounds(edition: str) -> Literal["token", "card"]:
    """RULES §4: where a wound lives unless the table says: on the Wounded card the seat takes
    (the printed rulebooks: ``classic``), or as a token on the Leader card (``fourth``)."""
    return "card" if edition == "classic" else "token"


class HouseBots(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Seats the house plays (the sandbox, docs/api.md ``bots``): a bot worker plays them through
    the same command path as any client. They are taken when the table opens, named "House bot N".

    ``think``: seconds a house bot waits before each action, as a person would (each wait drawn
    between half and one and a half of it, and never past half the wait's deadline). A table
    records it filled in with the server's default when not asked; None (absent from older logs)
    means the bot worker's default."""

    seats: tuple[int, ...]
    kind: Literal["random", "heuristic"] = "random"
    think: float | None = None


class TableOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """The table options of docs/api.md. The engine refuses those it does not offer yet.

    ``wounds`` (RULES §4): "token" or "card"; None (and absent from older logs) means the
    edition's default, so a log written before the option existed folds as it did. A table
    records it filled in (``with_defaults``) when it opens, so views show where wounds live."""

    edition: Literal["fourth", "classic"] = "fourth"
    zombies: bool = False
    bombers_traitors: bool = False
    extra_equipment: bool = False
    wounds: Literal["token", "card"] | None = None

    def chooses_wounds(self) -> bool:
        """Whether the table asks for the wound placement that is not its edition's default."""
        return self.wounds is not None and self.wounds != default_wounds(self.edition)

    def with_defaults(self) -> TableOptions:
        """The same options with ``wounds`` filled in from the edition when not given."""
        if self.wounds is not None:
            return self
        return replace(self, wounds=default_wounds(self.edition))


class Deadlines(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Seconds allowed for each kind of wait (RULES §10)."""

    turn: float = 90.0
    reaction: float = 20.0
    prompt: float = 20.0
    arrange: float = 60.0


class Deal(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """A scenario deal (docs/api.md): who holds what, the deck's top, the first seat."""

    integrity: tuple[tuple[str, ...], ...]
    equipment: tuple[tuple[str, ...], ...] = ()
    equipment_deck: tuple[str, ...] = ()
    first_seat: int | None = None
