"""Table options, deadlines and scenario deals: what a table is created with."""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta
from msgspec.structs import replace

from gcbc_contract.vocabulary import BotKind, Edition, Wounds


def default_wounds(edition: str) -> Wounds:
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

    seats: Annotated[tuple[int, ...], Meta(description="the seats the house plays (from 0)")]
    kind: Annotated[
        BotKind,
        Meta(description="random: any legal move; heuristic: plays to win, as a person might"),
    ] = "random"
    think: Annotated[
        float | None,
        Meta(description="seconds a house bot waits before each action (null: the default)"),
    ] = None


class TableOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The table options of docs/api.md. The engine refuses those it does not offer yet.

    ``wounds`` (RULES §4): "token" or "card"; None (and absent from older logs) means the
    edition's default, so a log written before the option existed folds as it did. A table
    records it filled in (``with_defaults``) when it opens, so views show where wounds live."""

    edition: Annotated[
        Edition,
        Meta(
            description="fourth: one gun per player, the 18-card deck (RULES §7.1); classic: the"
            " printed 1st to 3rd edition (RULES §7.2)"
        ),
    ] = "fourth"
    zombies: Annotated[bool, Meta(description="the Zombies expansion (RULES §8)")] = False
    bombers_traitors: Annotated[
        bool, Meta(description="the Bombers & Traitors expansion (RULES §9)")
    ] = False
    extra_equipment: Annotated[
        bool, Meta(description="every compatible expansion equipment card (RULES §8.1)")
    ] = False
    wounds: Annotated[
        Wounds | None,
        Meta(
            description="where a wound lives (RULES §4): token, on the Leader card; card, the"
            " Wounded card the seat holds; null: the edition's default"
        ),
    ] = None

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

    turn: Annotated[float, Meta(description="seconds for a turn's action")] = 90.0
    reaction: Annotated[float, Meta(description="seconds to answer a reaction window")] = 20.0
    prompt: Annotated[
        float, Meta(description="seconds to answer a prompt, and to aim after the action")
    ] = 20.0
    arrange: Annotated[float, Meta(description="seconds to arrange the cards at the start")] = 60.0


class Deal(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """A scenario deal (docs/api.md): who holds what, the deck's top, the first seat."""

    integrity: Annotated[
        tuple[tuple[str, ...], ...],
        Meta(description="per seat (from 0), its three integrity cards by name, positions 1 to 3"),
    ]
    equipment: Annotated[
        tuple[tuple[str, ...], ...], Meta(description="per seat (from 0), its equipment hand")
    ] = ()
    equipment_deck: Annotated[
        tuple[str, ...], Meta(description="the equipment deck, top first (by name)")
    ] = ()
    first_seat: Annotated[
        int | None, Meta(description="the seat that plays first (from 0); null: drawn")
    ] = None
