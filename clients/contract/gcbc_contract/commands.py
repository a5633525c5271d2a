"""Commands: what a seat (or the system) asks the table to do.

Wire form: a JSON object with a ``type`` tag and its parameters (docs/api.md). ``seat`` is never
sent by a client: the table service fills it from the bearer token. System commands (lobby, start,
deadline passed) are issued by the services themselves.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from gcbc_contract.options import Deadlines, Deal, HouseBots, TableOptions

# RULES §1: a seat's cards lie in positions 1 to 3, so any other position can never be valid (a
# position a seat no longer fills, its cards discarded, is the rules' to refuse)
Position = Annotated[int, msgspec.Meta(ge=1, le=3, description="a card's position, 1 to 3")]
Positions = Annotated[
    tuple[Position, ...], msgspec.Meta(description="cards' positions, each 1 to 3")
]


class Command(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    tag_field="type",
    forbid_unknown_fields=True,
    omit_defaults=True,
):
    seat: int = -1
    command_id: str | None = None


# --- lobby (system and seats) -------------------------------------------------------------------
class OpenTable(Command, tag="open_table"):
    table_id: str
    seats: int
    options: TableOptions = TableOptions()
    deadlines: Deadlines = Deadlines()
    deal: Deal | None = None
    first_seat: int | None = None
    random_seed: int | None = None  # the creator's seed (tests, tutorials): else drawn at start
    chat_per_seat: int | None = None  # the server's limit, recorded with the table (None: 200)
    bots: HouseBots | None = None  # seats the house plays (taken when the table opens)
    # a rematch: the finished table it follows, and the seats held for that table's players
    rematch_of: str | None = None
    held: tuple[int, ...] = ()


class TakeSeat(Command, tag="take_seat"):
    name: str
    # a held seat of a rematch, claimed by its player (the table service checked the token of the
    # table before); None: the first free seat that is not held
    seat_wanted: int | None = None


class LeaveSeat(Command, tag="leave_seat"):
    pass


class StartGame(Command, tag="start"):
    random_seed: int


# --- the game -----------------------------------------------------------------------------------
class Arrange(Command, tag="arrange"):
    """RULES §1: new order of the seat's three cards; positions[i] is the old position now at i+1."""

    positions: Positions


class Investigate(Command, tag="investigate"):
    target: int
    position: Position


class Equip(Command, tag="equip"):
    position: Position | None = None  # the own face-down card to turn face up (if any)


class Arm(Command, tag="arm"):
    target: int  # where the gun aims at once
    position: Position | None = None  # the own face-down card to turn face up (if any)


class Shoot(Command, tag="shoot"):
    pass


class Bite(Command, tag="bite"):
    pass


class Aim(Command, tag="aim"):
    target: int


class PlayEquipment(Command, tag="play_equipment"):
    card: str
    target: int | None = None
    targets: tuple[int, ...] = ()
    position: Position | None = None
    positions: Positions = ()
    choice: str | None = None
    aim: int | None = None


class Pass(Command, tag="pass"):
    pass


class Choose(Command, tag="choose"):
    """The answer to a prompt: the values the prompt asks for."""

    target: int | None = None
    position: Position | None = None
    card: str | None = None


class Discard(Command, tag="discard"):
    card: str


class SetAutoPass(Command, tag="set_auto_pass"):
    enabled: bool


class Resume(Command, tag="resume"):
    """An absent seat (RULES §10) takes its seat back from the autopilot."""


class PostChat(Command, tag="chat"):
    text: str


class CloseTable(Command, tag="close_table"):
    """System: a table still waiting for players after the server's lobby time closes."""

    reason: str = "not_started"


class DeadlinePassed(Command, tag="deadline_passed"):
    """System: the deadline of wait ``wait`` expired; the autopilot acts (RULES §10)."""

    wait: int


GameCommand = (
    Arrange
    | Investigate
    | Equip
    | Arm
    | Shoot
    | Bite
    | Aim
    | PlayEquipment
    | Pass
    | Choose
    | Discard
    | SetAutoPass
    | Resume
)

AnyCommand = (
    OpenTable
    | TakeSeat
    | LeaveSeat
    | StartGame
    | GameCommand
    | PostChat
    | CloseTable
    | DeadlinePassed
)
