"""What the HTTP API takes and gives (docs/api.md), as typed msgspec Structs: the table service
decodes and answers with these, its OpenAPI document is generated from them, and the typed client
(clients/python) decodes with them.

A command as a client sends it is the engine's command without ``seat`` (the bearer token names
the seat): each is derived here from its engine Struct, so the two never drift apart, and the
body is a union discriminated on ``type``."""

from __future__ import annotations

import functools
import operator
from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta

from gcbc_contract.events import AnyEvent
from gcbc_contract.fields import Bots, DeadlinesField, DealField, Options, Seat, SeatCount, TableId
from gcbc_contract.options import TableOptions
from gcbc_contract.views import View
from gcbc_contract.wide import Digits, is_wide, shown, shown_type

Token = Annotated[
    str,
    Meta(
        description="the seat's bearer token (Authorization: Bearer <token>): a secret for that"
        " seat of that table only, given once"
    ),
]
Later = Annotated[
    int,
    Meta(
        description="names the recorded request's entry (the same for a retry): an opaque number,"
        " not the log's sequence; the outcome shows in your view later"
    ),
]
ViewUrl = Annotated[str, Meta(description="where the table's view is read (GET)")]
Seeded = Annotated[
    bool,
    Meta(
        description="a scenario table: its creator chose the seed or the deal (cards may be known)"
    ),
]

# --- the lobby ----------------------------------------------------------------------------------
Seats = Annotated[int, Meta(ge=4, le=8, description="4 to 8 players (RULES §1)")]


class CreateTable(msgspec.Struct, forbid_unknown_fields=True):
    """A new table. ``seed`` and ``deal`` make a scenario table (only where the server runs with
    GCBC_ALLOW_SCENARIOS=1; it then says ``"seeded": true`` everywhere)."""

    seats: Seats
    options: Options = TableOptions()
    seed: Annotated[
        Digits | int | None,
        Meta(
            description="a scenario table's random seed (scenario servers only), 0 to 2^63 - 1:"
            " decimal digits, or an integer (a JavaScript client cannot send one past 2^53)"
        ),
    ] = None
    deadlines: Annotated[
        DeadlinesField | None, Meta(description="seconds for each kind of wait (null: defaults)")
    ] = None
    deal: Annotated[
        DealField | None, Meta(description="a scenario table's deal (scenario servers only)")
    ] = None
    first_seat: Annotated[
        int | None,
        Meta(description="the seat that plays first (from 0; none: drawn from the table's seed)"),
    ] = None
    # the sandbox: seats the house plays (its bot worker), taken as the table opens
    bots: Bots | None = None
    invitations: Annotated[
        int,
        Meta(
            ge=0,
            le=8,
            description="how many seats to keep for players you invite (0: none): each gets a"
            " code, given to you once in the answer's `invitations`, which takes that seat"
            " (POST /tables/{table_id}/seats with `invitation`); strangers take only the others."
            " At most the seats the house does not play",
        ),
    ] = 0
    rated: RatedField = False


RatedField = Annotated[
    bool,
    Meta(
        description="a rated table: only registered players take its seats (with a player's"
        " token), besides the house's bots; when it ends its result moves their ratings, and"
        " leaving it counts as a loss"
    ),
]

InvitationCode = Annotated[
    str,
    Meta(
        min_length=1,
        max_length=64,
        description="an invitation's code: a secret that takes the seat kept for it, once",
    ),
]


class Invitation(msgspec.Struct):
    """A seat kept for a player you invite, and the code that takes it: hand the code to that
    player (the server keeps only its hash and shows it nowhere else)."""

    seat: Seat
    code: InvitationCode


class TableCreated(msgspec.Struct):
    """201: the table, waiting for players, with its options and deadlines in force."""

    table_id: TableId
    seats: SeatCount
    options: Options
    deadlines: DeadlinesField
    view_url: ViewUrl
    invitations: Annotated[
        list[Invitation],
        Meta(description="the seats kept for your invitees, with their codes (given only here)"),
    ]


class TableCreatedLater(TableCreated):
    """202: recorded, not answered within the wait; the table will be there."""

    position: Later


class LobbyListing(msgspec.Struct):
    """A table waiting for players, as GET /tables lists it."""

    table_id: TableId
    seats: SeatCount
    taken: Annotated[int, Meta(description="how many seats are taken")]
    options: Options
    deadlines: DeadlinesField
    seeded: Seeded = False
    bots: Bots | None = None  # the seats the house plays (already taken)
    reserved: Annotated[
        int,
        Meta(
            description="how many of the seats not taken are kept for invited players (or a"
            " rematch's): counted in `taken`, only they take them"
        ),
    ] = 0
    rated: RatedField = False


class LobbyEvent(msgspec.Struct, omit_defaults=True):
    """One change of the lobby (GET /lobby/stream's `data`; its `event:` is the same `type`)."""

    type: Annotated[
        Literal["listed", "seats", "filled", "started", "closed"],
        Meta(
            description="listed: a table waits for players (opened, or at the stream's start);"
            " seats: a seat was taken or left; filled: every seat is taken (it may start);"
            " started: its game began (it left the lobby); closed: it left the lobby unstarted"
        ),
    ]
    table_id: TableId
    listing: Annotated[
        LobbyListing | None,
        Meta(description="the table as GET /tables lists it now (listed, seats, filled)"),
    ] = None


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
    bot: Annotated[
        bool,
        Meta(
            description="true: the seat is played by a program, and every view shows it"
            " (`seats[].bot`), as the house's bots are shown; false: a person, or not said"
        ),
    ] = False
    invitation: Annotated[
        InvitationCode | None,
        Meta(
            description="an invitation's code from the table's creator: takes the seat kept for"
            " it (403 bad_invitation if it is not this table's, 409 invitation_used once its"
            " seat was taken)"
        ),
    ] = None


class SeatGranted(msgspec.Struct):
    """201: the seat, and its bearer token (a secret for that seat at that table only)."""

    seat: Seat
    token: Token


class SeatLater(msgspec.Struct):
    """202: recorded, not answered within the wait; the token is yours (your view says the seat
    once the rules answer)."""

    position: Later
    token: Token


class Chat(msgspec.Struct, forbid_unknown_fields=True):
    text: Annotated[
        str, Meta(min_length=1, max_length=500, description="1 to 500 printable characters")
    ]


class Position(msgspec.Struct):
    """202: recorded; its outcome shows in your view when answered. ``position`` names the
    command's entry (the same for a retry of its ``command_id``): an opaque number, not the
    log's own sequence, that tells nothing of what others do."""

    position: Later


class StreamTicket(msgspec.Struct):
    """A short-lived ticket that opens your seat's stream of this table (for browsers)."""

    ticket: Annotated[
        str, Meta(description="the ticket: GET /tables/{table_id}/stream?ticket=<ticket>")
    ]
    expires_in: Annotated[float, Meta(description="seconds the ticket opens the stream for")]


class Rematch(msgspec.Struct):
    """201: the rematch table, your seat there (the same as before) and its new token."""

    table_id: TableId
    seat: Annotated[int, Meta(description="your seat there, the same as before (from 0)")]
    token: Token


class ReplayStep(msgspec.Struct):
    """One step of a finished table's replay: the view ``seat`` (or a spectator) had after the
    ``step``-th answered command, of ``steps``."""

    step: Annotated[int, Meta(description="how many answered commands the view follows")]
    steps: Annotated[int, Meta(description="how many answered commands the table had")]
    view: Annotated[View, Meta(description="the view after that step")]


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

    table_id: TableId
    events: Annotated[
        list[AnyShownEvent],  # type: ignore[valid-type]
        Meta(description="every event of the table, in order (the seed as a string)"),
    ]


class Problem(msgspec.Struct, omit_defaults=True):
    """RFC 9457 problem details, with a stable machine-readable ``code`` and, for a request's
    field at fault, ``field``. A 503 of an append whose outcome is unknown also names the
    ``table_id`` or ``token`` the request may have created."""

    type: Annotated[str, Meta(description="a URI naming the problem's kind (by its code)")]
    title: Annotated[str, Meta(description="the code in words")]
    status: Annotated[int, Meta(description="the HTTP status")]
    code: Annotated[
        str, Meta(description="what went wrong, stable and machine-readable (see each status)")
    ]
    detail: Annotated[str, Meta(description="what went wrong, for a person")]
    field: Annotated[str | None, Meta(description="the request's field at fault, if one")] = None
    table_id: Annotated[
        str | None,
        Meta(description="a 503 of an unknown outcome: the table the request may have created"),
    ] = None
    token: Annotated[
        str | None,
        Meta(description="a 503 of an unknown outcome: the token the request may have given"),
    ] = None


class ProblemPage(msgspec.Struct):
    """A problem code's page (GET /problems/{code}, the problem's ``type``): the statuses it
    comes with, what it means and what to do."""

    code: Annotated[str, Meta(description="the problem's stable code")]
    type: Annotated[str, Meta(description="this page's address, the problem's `type`")]
    title: Annotated[str, Meta(description="the code in words")]
    statuses: Annotated[tuple[int, ...], Meta(description="the HTTP statuses it comes with")]
    meaning: Annotated[str, Meta(description="what it means")]
    what_to_do: Annotated[str, Meta(description="what a client does about it")]
