"""What the generated OpenAPI document says beyond the handlers' signatures: every status an
operation answers with its typed body, the problem codes behind each error status, the bearer
scheme, and examples — the views in them made by the engine itself, so they never go stale."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any

import msgspec
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import Components, Example, SecurityScheme, Tag
from litestar.params import Parameter

from gcbc.rules import legal_commands, run, view
from gcbc.rules.errors import CODES
from gcbc.rules.state import initial_state
from gcbc_contract import commands as C
from gcbc_contract import http as B
from gcbc_contract.ids import TABLE_ID_PATTERN
from gcbc_contract.options import Deal
from gcbc_contract.views import View
from services.table.problems import NEVER_VALID, NOT_FOUND, Problem, type_of
from services.table.vocabularies import Vocabularies

TableId = Annotated[
    str,
    Parameter(
        pattern=TABLE_ID_PATTERN,
        description="the id POST /tables gave (any other form is 404 no_table)",
    ),
]
BEARER = [{"bearer": []}]
COMPONENTS = Components(
    security_schemes={
        "bearer": SecurityScheme(
            type="http",
            scheme="bearer",
            description="the token POST /tables/{table_id}/seats gave: it acts for that seat of"
            " that table only",
        )
    }
)

# the problem codes behind each error status (RFC 9457 bodies with a stable `code`)
# not_seated: a token's seat left, answered as every seat endpoint answers that (403 forbidden)
_RULE_CONFLICTS = sorted(CODES - NEVER_VALID - NOT_FOUND - {"not_seated"})
PROBLEM_CODES: dict[int, list[str]] = {
    400: [
        "malformed_request",
        "malformed_json",
        "json_too_deep",
        "duplicate_key",
        "invalid_parameter",
    ],
    401: ["unauthorized"],
    403: ["forbidden", "scenarios_not_allowed", "bad_invitation", "players_only"],
    404: ["no_table", "no_player", "not_found"],
    409: sorted(
        {
            *_RULE_CONFLICTS,
            "table_busy",
            "not_finished_yet",
            "log_too_long",
            "command_id_reused",
            "invitation_used",
            "already_seated",
            "already_queued",
            "already_playing",
            "not_queued",
            "queue_busy",
            "table_starting",
        }
    ),
    413: ["body_too_large"],
    415: ["unsupported_media_type"],
    422: sorted({*NEVER_VALID, "invalid_body", "option_not_offered", "no_seat_for_you"}),
    429: ["rate_limited", "too_many_streams", "too_many_held", "too_many_connections"],
    503: [
        "log_unavailable",
        "outcome_unknown",
        "views_unavailable",
        "replays_busy",
        "house_full",
        "too_many_connections",
    ],
    500: ["internal_error"],
}
# the document's closed sets of names as components, and a Problem's codes as one of them
# (and the codes no operation lists: a connection refused before any operation, its head too
# slow or too large; a method no route takes; another failure of the HTTP layer)
EDGE_CODES = {
    "request_timeout",
    "headers_too_large",
    "uri_too_long",
    "method_not_allowed",
    "http_error",
}
VOCABULARIES = Vocabularies(
    sorted({code for codes in PROBLEM_CODES.values() for code in codes} | EDGE_CODES)
)
_WHY = {
    400: "the body is not JSON (or gives a key twice), or a query or path parameter is out of its"
    " range",
    401: "no bearer token where one is needed",
    403: "the token is not a seat of this table (never was, or its seat was left), or not this"
    " seat, or not a player's current token; a scenario field on a server that takes none; an"
    " invitation not this table's",
    404: "no such table or player (any id not of the server's own form)",
    409: "not now: the table's state refuses it (a turn, a phase, a card since turned: what a stale"
    " view causes)",
    413: "the body is over 64 KiB",
    415: "a body is JSON: Content-Type: application/json",
    422: "never valid: a field's type or range, an unknown card, aiming at yourself",
    429: "over a limit; Retry-After says when to try again",
    503: "NATS or Redis is away; Retry-After says when to try again (`outcome_unknown`: retry with"
    " the same command_id)",
    500: "the server failed",
}


def problem(status: int, *codes: str) -> ResponseSpec:
    listed = codes or PROBLEM_CODES[status]
    return ResponseSpec(
        Problem,
        description=f"{_WHY[status]}. `code`: " + ", ".join(f"`{c}`" for c in listed),
        media_type="application/problem+json",
        generate_examples=False,
        examples=[
            Example(
                summary=listed[0],
                value={
                    "type": type_of(listed[0]),
                    "title": listed[0].replace("_", " "),
                    "status": status,
                    "code": listed[0],
                    "detail": _WHY[status],
                },
            )
        ],
    )


def ok(data: Any, description: str, example: Any = None) -> ResponseSpec:
    examples = [Example(summary=description, value=example)] if example is not None else None
    return ResponseSpec(data, description=description, generate_examples=False, examples=examples)


def ndjson(item: Any, description: str) -> ResponseSpec:
    """JSON lines (``application/x-ndjson``): the schema is one line's, ``item``."""
    return ResponseSpec(
        item, description=description, media_type="application/x-ndjson", generate_examples=False
    )


def responses(
    success: dict[int, ResponseSpec], errors: Sequence[int] = ()
) -> dict[int, ResponseSpec]:
    """The operation's answers: ``success``, and a problem for each status of ``errors``."""
    out = dict(success)
    for status in (400, *errors, 500):  # 400: every operation has a parameter or a body to check
        out[status] = problem(status)
    return out


# --- examples made by the engine ----------------------------------------------------------------
H, K, A, KP = "honest", "crooked", "agent", "kingpin"
TABLE_ID = "4f2a9c1e7b3d5a60"


_DEAL = Deal(
    integrity=((A, H, H), (KP, K, K), (H, K, H), (K, H, K)),
    equipment=(("coffee",), ("riot_shield",), ("k9_unit",), ("med_kit",)),
)


def _example_table() -> Any:
    deal = msgspec.structs.replace(_DEAL, first_seat=0)
    s, _ = run(initial_state(), C.OpenTable(table_id=TABLE_ID, seats=4, deal=deal))
    for name in ("ann", "bob", "cleo", "dev"):
        s, _ = run(s, C.TakeSeat(name=name))
    s, _ = run(s, C.StartGame(seat=0, random_seed=7))
    for seat in range(4):
        s, _ = run(s, C.Arrange(seat=seat, positions=(1, 2, 3)))
    return s


_builtins = msgspec.to_builtins
_state = _example_table()
VIEW_EXAMPLE = _builtins(view(_state, 0, log_limit=5))
PUBLIC_EXAMPLE = _builtins(view(_state, None, log_limit=5))
CREATED_EXAMPLE = {
    "table_id": TABLE_ID,
    "seats": 4,
    "options": {},
    "deadlines": _builtins(_state.deadlines),
    "view_url": f"/tables/{TABLE_ID}",
    "invitations": [],
}
LISTING_EXAMPLE = [
    {
        "table_id": TABLE_ID,
        "seats": 4,
        "taken": 1,
        "options": {},
        "deadlines": _builtins(_state.deadlines),
        "seeded": False,
        "reserved": 0,
    }
]

# one example per command type: as legal_commands offers them where it can, else as written
_COMMAND_EXAMPLES: dict[str, dict[str, Any]] = {
    "arrange": {"type": "arrange", "positions": [3, 1, 2]},
    "investigate": {"type": "investigate", "target": 2, "position": 3},
    "equip": {"type": "equip", "position": 1},
    "arm": {"type": "arm", "target": 1, "position": 2},
    "shoot": {"type": "shoot"},
    "bite": {"type": "bite"},
    "aim": {"type": "aim", "target": 3},
    "play_equipment": {"type": "play_equipment", "card": "coffee"},
    "pass": {"type": "pass"},
    "choose": {"type": "choose", "target": 1},
    "discard": {"type": "discard", "card": "k9_unit"},
    "set_auto_pass": {"type": "set_auto_pass", "enabled": True},
    "resume": {"type": "resume"},
}
for _command in legal_commands(_state, 0):
    _listed = {k: v for k, v in _builtins(_command).items() if k != "seat"}
    if _listed["type"] in _COMMAND_EXAMPLES and "choose" not in _listed:
        _COMMAND_EXAMPLES[_listed["type"]] = _listed
assert set(_COMMAND_EXAMPLES) == {c.__struct_config__.tag for c in C.GameCommand.__args__}
COMMAND_EXAMPLES = [
    Example(summary=kind, value={**value, "command_id": f"{kind}-1"})
    for kind, value in _COMMAND_EXAMPLES.items()
]
# the command body's discriminator, for client generators: which schema each `type` names
COMMAND_DISCRIMINATOR = {
    "discriminator": {
        "propertyName": "type",
        "mapping": {
            c.__struct_config__.tag: f"#/components/schemas/{c.__name__}"
            for c in C.GameCommand.__args__
        },
    }
}
CREATE_EXAMPLES = [
    Example(summary="a default table", value={"seats": 5}),
    Example(
        summary="every option",
        value={
            "seats": 6,
            "options": {
                "edition": "classic",
                "wounds": "token",
                "zombies": True,
                "bombers_traitors": True,
            },
            "deadlines": {"turn": 60, "reaction": 15, "prompt": 15, "arrange": 30},
        },
    ),
    Example(
        summary="you against three house bots, each thinking about 1.5 s per action",
        value={"seats": 4, "bots": {"seats": [1, 2, 3], "kind": "heuristic", "think": 1.5}},
    ),
    Example(
        summary="two seats kept for players you invite (their codes come in the answer)",
        value={"seats": 5, "invitations": 2},
    ),
    Example(
        summary="a scenario deal, seat 0 first (scenario servers only: GCBC_ALLOW_SCENARIOS=1)",
        value={"seats": 4, "deal": _builtins(_DEAL), "first_seat": 0},
    ),
]

VIEW = ok(View, "the view (a seat's with a bearer token, else the public one)", VIEW_EXAMPLE)
PUBLIC_VIEW = ok(View, "the public (spectator) view", PUBLIC_EXAMPLE)
POSITION = ok(B.Position, "recorded; the outcome shows in your view later", {"position": 1234})
# the stream's events: each a View, as GET /tables/{table_id}/view answers it
STREAM = ResponseSpec(
    str,
    description="Server-Sent Events, one per change of the view (a seat's with a bearer token or"
    " a ticket, else the public one). Each event has two fields: `id: <version>`, the view's"
    " `version` (a reconnect sends it back as `Last-Event-ID` and goes on after it), and `data:"
    " <view>`, the whole View as one line of JSON (the View schema). Besides, `: keep-alive`"
    " comments, about every 15 s when nothing changed. Once the game is over, after the finished"
    ' view comes `event: end` with `data: {"reason": "finished", "version": N}` (no id),'
    " and the server closes the stream: do not reconnect. Else the stream ends when the seat"
    " changes hands (a token or ticket no longer its) or the server is away: reconnect, as"
    " EventSource does by itself.",
    media_type="text/event-stream",
    generate_examples=False,
    examples=[
        Example(
            summary="a view's event, then a keep-alive",
            value=f"id: {VIEW_EXAMPLE['version']}\r\ndata: {msgspec.json.encode(VIEW_EXAMPLE).decode()}"
            "\r\n\r\n: keep-alive\r\n\r\n",
        )
    ],
)


# the operations' groups, in the order a reader meets them
TAGS = [
    Tag(name="lobby", description="Open tables and find one waiting for players."),
    Tag(name="seats", description="Take a seat (its token comes once), leave it, start the game."),
    Tag(name="play", description="Send a seat's commands and chat; ask for a rematch."),
    Tag(
        name="views",
        description="What a seat or a spectator sees: read once, wait for a change, or stream.",
    ),
    Tag(name="history", description="A finished table's whole log and its replay, step by step."),
    Tag(
        name="players",
        description="A player's identity across tables: registered once, its token taking seats"
        " and acting for them from any device; its public profile and its tables.",
    ),
    Tag(
        name="queue",
        description="Quick play: wait in the queue and be seated at a table of matching players"
        " (ratings close for a rated game), or with the house's bots after a wait.",
    ),
    Tag(name="problems", description="What each problem code means and what to do about it."),
]


LOBBY_STREAM = ResponseSpec(
    str,
    description="`event: <type>` and `data: <LobbyEvent>` per change of the lobby (a LobbyEvent's"
    " `type`: listed, seats, filled, started, closed); `: keep-alive` comments after a quiet while",
    media_type="text/event-stream",
    generate_examples=False,
    examples=[
        Example(
            summary="a table opened, then its first seat taken",
            value='event: listed\r\ndata: {"type":"listed","table_id":"0123456789abcdef",'
            '"listing":{"table_id":"0123456789abcdef","seats":4,"taken":0,"options":{},'
            '"deadlines":{}}}\r\n\r\nevent: seats\r\ndata: {"type":"seats","table_id":'
            '"0123456789abcdef","listing":{"table_id":"0123456789abcdef","seats":4,"taken":1,'
            '"options":{},"deadlines":{}}}\r\n\r\n',
        )
    ],
)
