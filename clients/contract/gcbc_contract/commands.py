"""Commands: what a seat (or the system) asks the table to do.

Wire form: a JSON object with a ``type`` tag and its parameters (docs/api.md). ``seat`` is never
sent by a client: the table service fills it from the bearer token. System commands (lobby, start,
deadline passed) are issued by the services themselves.
"""

from __future__ import annotations

import functools
import operator
from typing import Annotated, Any

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
    bot: bool = False  # the seat says a program plays it (shown to everyone)


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


# --- commands as a client sends them ------------------------------------------------------------
class Sendable(msgspec.Struct):
    """What every command a client sends has: its ``type``, as in JSON."""

    @property
    def type(self) -> str:
        """The command's ``type`` in JSON (``"investigate"``...)."""
        return self.__struct_config__.tag  # type: ignore[return-value]


def _fields(struct: Any, leaving: str = "") -> list[tuple[Any, ...]]:
    """The struct's fields as ``defstruct`` takes them (but the one named ``leaving``)."""
    return [
        (f.name, f.type) if f.required else (f.name, f.type, f.default)
        for f in msgspec.structs.fields(struct)
        if f.name != leaving
    ]


def _without_seat(command: type[Command]) -> Any:
    config = command.__struct_config__
    return msgspec.defstruct(
        command.__name__,
        _fields(command, leaving="seat"),
        kw_only=True,
        tag_field="type",
        tag=config.tag,
        forbid_unknown_fields=True,
        omit_defaults=True,
        module=__name__,
        bases=(Sendable,),
    )


CLIENT_COMMANDS: dict[type, Any] = {c: _without_seat(c) for c in GameCommand.__args__}
for _engine, _client in CLIENT_COMMANDS.items():
    _client.__doc__ = (_engine.__doc__ or f"The {_engine.__struct_config__.tag} command.") + (
        " ``command_id``: 1 to 64 printable ASCII characters; the same one again returns the"
        " first answer and records nothing new."
    )
# the body of POST /commands: a union discriminated on ``type``
ClientCommand: Any = functools.reduce(operator.or_, CLIENT_COMMANDS.values())
ENGINE_OF = {client: engine for engine, client in CLIENT_COMMANDS.items()}


def to_engine(command: Any, seat: int) -> Any:
    """The engine's command for a client's, with the seat its token names."""
    return ENGINE_OF[type(command)](**msgspec.structs.asdict(command), seat=seat)


# --- commands as a view offers them -------------------------------------------------------------
CHOOSE_DESCRIPTION = (
    "Present only in a template (a card whose choices multiply past ~200 combinations): the"
    " parameters left open, each with the values it may take; for a list parameter (`targets`,"
    " `positions`), one list of allowed values per element. Pick one value each, put them in the"
    " command under the same names and send it without `choose`."
)


def _offered(client: Any) -> Any:
    """The client form of play_equipment with ``choose``: a template when it is present."""
    config = client.__struct_config__
    choose = Annotated[dict[str, list[Any]] | None, msgspec.Meta(description=CHOOSE_DESCRIPTION)]
    return msgspec.defstruct(
        "PlayEquipmentOffered",
        [*_fields(client), ("choose", choose, None)],
        kw_only=True,
        tag_field="type",
        tag=config.tag,
        omit_defaults=True,
        module=__name__,
        bases=(Sendable,),
    )


PlayEquipmentOffered: Any = _offered(CLIENT_COMMANDS[PlayEquipment])
PlayEquipmentOffered.__doc__ = (
    "A play of the seat's equipment card, ready to send; or, with `choose`, a template to fill."
)
# a seat's settings and its presence, apart from the game's moves: always open to the seat
SETTINGS = (SetAutoPass, Resume)
# what ``legal_commands`` lists: the game's moves open to the seat now, each ready to send
LegalCommand: Any = functools.reduce(
    operator.or_,
    (
        PlayEquipmentOffered if engine is PlayEquipment else client
        for engine, client in CLIENT_COMMANDS.items()
        if engine not in SETTINGS
    ),
)
# what ``seat_commands`` lists: the seat's settings and presence (auto-pass, resume)
SeatCommand: Any = functools.reduce(operator.or_, (CLIENT_COMMANDS[c] for c in SETTINGS))
