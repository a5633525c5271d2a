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
OwnPosition = Annotated[
    int,
    msgspec.Meta(
        ge=1, le=3, description="your own face-down card to turn face up (1 to 3), if any"
    ),
]
CommandId = Annotated[
    str | None,
    msgspec.Meta(
        description="your id for this command, 1 to 64 printable ASCII characters: the same one"
        " again returns the first answer and records nothing new"
    ),
]
EquipmentCard = Annotated[
    str, msgspec.Meta(description="an equipment card of your hand, by its snake_case name")
]


def _about(text: str) -> msgspec.Meta:
    return msgspec.Meta(description=text)


def _position(text: str) -> Any:
    """A card's position, 1 to 3, as one field uses it (one Meta: OpenAPI shows both)."""
    return Annotated[int, msgspec.Meta(ge=1, le=3, description=text)]


class Command(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    tag_field="type",
    forbid_unknown_fields=True,
    omit_defaults=True,
):
    seat: int = -1
    command_id: CommandId = None


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
    # seats kept for named players: a rematch's (the finished table it follows), or invited
    # ones, each with its code's hash (the table service checks a code; the rules count them)
    rematch_of: str | None = None
    held: tuple[int, ...] = ()
    invitations: tuple[str, ...] = ()
    rated: bool = False  # only registered players take its seats; its result moves ratings


class TakeSeat(Command, tag="take_seat"):
    name: str
    # a held seat, claimed by its player (the table service checked the token of the table
    # before, or the invitation's code); None: the first free seat that is not held
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
    target: Annotated[int, _about("the seat whose card you look at (from 0)")]
    position: Annotated[Position, _about("that seat's card to look at, 1 to 3")]


class Equip(Command, tag="equip"):
    position: OwnPosition | None = None


class Arm(Command, tag="arm"):
    target: Annotated[int, _about("the seat the gun aims at at once (from 0)")]
    position: OwnPosition | None = None


class Shoot(Command, tag="shoot"):
    pass


class Bite(Command, tag="bite"):
    pass


class Aim(Command, tag="aim"):
    target: Annotated[
        int,
        _about(
            "the seat your gun (or a zombie's Arms) aims at now (from 0); a zombie names its own"
            " seat to keep its Arms on itself"
        ),
    ]


class PlayEquipment(Command, tag="play_equipment"):
    card: EquipmentCard
    target: Annotated[int | None, _about("the seat the card names, if its rules ask for one")] = (
        None
    )
    targets: Annotated[
        tuple[int, ...], _about("the seats the card names, if its rules ask for several")
    ] = ()
    position: _position("the card position (1 to 3) the card's rules ask for, if any") | None = None
    positions: Positions = ()
    choice: Annotated[
        str | None, _about("the option the card's rules let you pick, by name, if any")
    ] = None
    aim: Annotated[
        int | None,
        _about("where the gun the card moves or gives you is aimed afterwards (a seat), if asked"),
    ] = None


class Pass(Command, tag="pass"):
    pass


class Choose(Command, tag="choose"):
    """The answer to a prompt: the values the prompt asks for."""

    target: Annotated[int | None, _about("the seat chosen, if the prompt asks for one")] = None
    position: _position("the card position chosen (1 to 3), if the prompt asks for one") | None = (
        None
    )
    card: Annotated[str | None, _about("the card chosen by name, if the prompt asks for one")] = (
        None
    )


class Discard(Command, tag="discard"):
    card: Annotated[str, _about("the equipment card of your hand to discard, by name")]


class SetAutoPass(Command, tag="set_auto_pass"):
    enabled: Annotated[bool, _about("pass reaction windows automatically (true) or not (false)")]


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
