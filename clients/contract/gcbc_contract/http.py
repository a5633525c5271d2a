"""What the HTTP API takes and gives (docs/api.md), as typed msgspec Structs: the table service
decodes and answers with these, its OpenAPI document is generated from them, and the typed client
(clients/python) decodes with them.

A command as a client sends it is the engine's command without ``seat`` (the bearer token names
the seat): each is derived here from its engine Struct, so the two never drift apart, and the
body is a union discriminated on ``type``."""

from __future__ import annotations

import functools
import operator
from typing import Annotated, Any

import msgspec
from msgspec import Meta

from gcbc_contract import commands as C
from gcbc_contract.events import AnyEvent
from gcbc_contract.options import Deadlines, Deal, HouseBots, TableOptions
from gcbc_contract.views import View
from gcbc_contract.wide import Digits, is_wide, shown, shown_type

# --- the lobby ----------------------------------------------------------------------------------
Seats = Annotated[int, Meta(ge=4, le=8, description="4 to 8 players (RULES §1)")]


class CreateTable(msgspec.Struct, forbid_unknown_fields=True):
    """A new table. ``seed`` and ``deal`` make a scenario table (only where the server runs with
    GCBC_ALLOW_SCENARIOS=1; it then says ``"seeded": true`` everywhere)."""

    seats: Seats
    options: TableOptions = TableOptions()
    # decimal digits (an integer too, as before: a JavaScript client cannot send one past 2^53)
    seed: Digits | int | None = None
    deadlines: Deadlines | None = None
    deal: Deal | None = None
    first_seat: int | None = None
    # the sandbox: seats the house plays (its bot worker), taken as the table opens
    bots: HouseBots | None = None


class TableCreated(msgspec.Struct):
    table_id: str
    seats: int
    options: TableOptions
    deadlines: Deadlines
    view_url: str


class TableCreatedLater(TableCreated):
    """202: recorded, not answered within the wait; the table will be there."""

    position: int


class LobbyListing(msgspec.Struct):
    """A table waiting for players, as GET /tables lists it."""

    table_id: str
    seats: int
    taken: int
    options: TableOptions
    deadlines: Deadlines
    seeded: bool = False
    bots: HouseBots | None = None  # the seats the house plays (already taken)


class TakeSeat(msgspec.Struct, forbid_unknown_fields=True):
    name: Annotated[
        str,
        Meta(
            min_length=1,
            max_length=40,
            description="1 to 40 printable characters, kept normalised (NFKC, trimmed, one space"
            " between words); 409 name_taken if it looks like a name at the table (any case,"
            " width or script), 422 name_reserved for the house's (House bot 3)",
        ),
    ]


class SeatGranted(msgspec.Struct):
    """201: the seat, and its bearer token (a secret for that seat at that table only)."""

    seat: int
    token: str


class SeatLater(msgspec.Struct):
    """202: recorded, not answered within the wait; the token is yours (your view says the seat
    once the rules answer)."""

    position: int
    token: str


class Chat(msgspec.Struct, forbid_unknown_fields=True):
    text: Annotated[
        str, Meta(min_length=1, max_length=500, description="1 to 500 printable characters")
    ]


class Position(msgspec.Struct):
    """202: recorded; its outcome shows in your view when answered. ``position`` names the
    command's entry (the same for a retry of its ``command_id``): an opaque number, not the
    log's own sequence, that tells nothing of what others do."""

    position: int


class StreamTicket(msgspec.Struct):
    """A short-lived ticket that opens your seat's stream of this table (for browsers)."""

    ticket: str
    expires_in: float


class Rematch(msgspec.Struct):
    """201: the rematch table, your seat there (the same as before) and its new token."""

    table_id: str
    seat: int
    token: str


class ReplayStep(msgspec.Struct):
    """One step of a finished table's replay: the view ``seat`` (or a spectator) had after the
    ``step``-th answered command, of ``steps``."""

    step: int
    steps: int
    view: View


def _shown_event(event: type) -> type:
    """An event as the API shows it: its ``Wide`` integers (the seed) as strings."""
    fields = msgspec.structs.fields(event)
    wide = [
        (f.name, shown_type(f.type), f.default)
        if f.default is not msgspec.NODEFAULT
        else (f.name, shown_type(f.type))
        for f in fields
        if is_wide(f.type)
    ]
    if not wide:
        return event
    tag = event.__struct_config__.tag
    return msgspec.defstruct(event.__name__, wide, bases=(event,), tag=tag, module=__name__)


SHOWN_EVENTS: dict[type, type] = {e: _shown_event(e) for e in AnyEvent.__args__}
AnyShownEvent = functools.reduce(operator.or_, SHOWN_EVENTS.values())


_WIDE_FIELDS = {
    e: frozenset(f.name for f in msgspec.structs.fields(e) if is_wide(f.type)) for e in SHOWN_EVENTS
}


def shown_event(event: Any) -> Any:
    """``event`` as the API shows it (the history): its wide integers as decimal strings."""
    wide = _WIDE_FIELDS[type(event)]
    if not wide:
        return event
    values = {f: getattr(event, f) for f in event.__struct_fields__}
    for f in wide:
        values[f] = shown(values[f])
    return SHOWN_EVENTS[type(event)](**values)


_RECORDED = {shown: event for event, shown in SHOWN_EVENTS.items()}


def recorded_event(event: Any) -> Any:
    """A history's event as the log records it (its wide integers as integers): what the engine
    folds."""
    recorded = _RECORDED[type(event)]
    if recorded is type(event):
        return event
    values = {f: getattr(event, f) for f in event.__struct_fields__}
    for f in _WIDE_FIELDS[recorded]:
        values[f] = None if values[f] is None else int(values[f])
    return recorded(**values)


class History(msgspec.Struct):
    """A finished table's every event, every card revealed (the seed as a string)."""

    table_id: str
    events: list[AnyShownEvent]  # type: ignore[valid-type]


class Problem(msgspec.Struct, omit_defaults=True):
    """RFC 9457 problem details, with a stable machine-readable ``code`` and, for a request's
    field at fault, ``field``. A 503 of an append whose outcome is unknown also names the
    ``table_id`` or ``token`` the request may have created."""

    type: str
    title: str
    status: int
    code: str
    detail: str
    field: str | None = None
    table_id: str | None = None
    token: str | None = None


class ProblemCode(msgspec.Struct):
    """A problem code's page (GET /problems/{code}, the problem's ``type``): the statuses it
    comes with, what it means and what to do."""

    code: str
    type: str
    title: str
    statuses: tuple[int, ...]
    meaning: str
    what_to_do: str


# --- commands as a client sends them ------------------------------------------------------------
def _without_seat(command: type[C.Command]) -> Any:
    config = command.__struct_config__
    fields = [
        (f.name, f.type) if f.required else (f.name, f.type, f.default)
        for f in msgspec.structs.fields(command)
        if f.name != "seat"
    ]
    return msgspec.defstruct(
        command.__name__,
        fields,
        kw_only=True,
        tag_field="type",
        tag=config.tag,
        forbid_unknown_fields=True,
        omit_defaults=True,
        module=__name__,
    )


CLIENT_COMMANDS: dict[type, Any] = {c: _without_seat(c) for c in C.GameCommand.__args__}
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
