"""The HTTP edge's input checks: what a request may carry before anything reaches the log.

Litestar converts bodies leniently (``"4"`` becomes ``4``); the API is strict, so every body is
decoded once, by ``StrictBody``, with msgspec's strict decoder, and refused with a 4xx that names
the field.
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Generator
from typing import TYPE_CHECKING, Any, TypeVar

import msgspec
from litestar import Request
from litestar.dto import AbstractDTO, DTOConfig, DTOFieldDefinition
from msgspec.structs import replace

from gcbc.players.log import is_player_id
from gcbc_contract.ids import is_table_id
from gcbc_contract.options import Deadlines, HouseBots
from services.common.settings import Settings
from services.table.problems import ApiError

if TYPE_CHECKING:
    from litestar._openapi.schema_generation import SchemaCreator
    from litestar.openapi.spec import Reference, Schema
    from litestar.typing import FieldDefinition

T = TypeVar("T")

COMMAND_ID = re.compile(r"[!-~]{1,64}")  # printable ASCII, no space: safe in logs and msg ids
_AT = re.compile(r"at `\$\.?([^`]*)`")  # where a decoder says a body went wrong
_NAMED = re.compile(r"(?:missing required|unknown) field `([^`]*)`")
# a query's numbers as JSON writes them (not ``1e5`` for a whole number, nor ``+5``, ``inf``)
_WRITTEN = {
    "integer": (re.compile(r"-?[0-9]+"), "a whole number written in digits"),
    "number": (
        re.compile(r"-?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?"),
        "a number as JSON writes one",
    ),
}
_decoder = functools.cache(msgspec.json.Decoder)  # one decoder a type


async def before_request(request: Request) -> None:
    """Before every route's handler, and before its body is read: a table id not of the server's
    own format names no table (and never reaches a subject or a key), and a body is JSON. A
    before-request hook, not a guard: Litestar copies the handler for each guard call, and runs a
    sync guard in a thread, on every request."""
    if request.scope["query_string"]:
        _check_query(request)
    table_id = request.path_params.get("table_id")
    if table_id is not None and not is_table_id(table_id):
        raise ApiError(404, "no_table", "there is no such table")
    player_id = request.path_params.get("player_id")
    if player_id is not None and not is_player_id(player_id):
        raise ApiError(404, "no_player", "there is no such player")
    if _json_body_only(request) is None and request.route_handler.resolve_data_dto():
        # a route that takes a body: none at all is refused before anything else is looked at
        raise ApiError(422, "invalid_body", "'data'", "data")


def query_parameters(schema: dict[str, Any]) -> dict[tuple[str, str], dict[str, str | None]]:
    """Each documented operation's query parameters, by method and path template, each with its
    kind of number (None: not a number): what ``before_request`` holds a query to."""
    taken = {}
    for path, item in schema.get("paths", {}).items():
        if path.startswith("/problems"):
            continue  # pages a person follows a link to, whatever a link adds to it
        for method, operation in item.items():
            if isinstance(operation, dict) and "responses" in operation:
                parameters = operation.get("parameters", ())
                if any("in" not in p for p in parameters):  # (a reference: not read here)
                    raise ValueError(f"{method} {path}: a parameter is not written out")
                taken[(method.upper(), path)] = {
                    p["name"]: _number_kind(p.get("schema", {}))
                    for p in parameters
                    if p["in"] == "query"
                }
    return taken


def _number_kind(schema: dict[str, Any]) -> str | None:
    kinds = set()
    for kind in (schema, *schema.get("oneOf", ()), *schema.get("anyOf", ())):
        named = kind.get("type")
        kinds.update(named if isinstance(named, list) else [named])
    return next((kind for kind in _WRITTEN if kind in kinds), None)


def _check_query(request: Request) -> None:
    """A query names only its operation's parameters, each once, a number as JSON writes it:
    Litestar would ignore a misspelt name, keep one of a repeated name's values, and read
    ``1e5`` as a whole number or ``inf`` as a number, and a client's mistake would pass unseen."""
    operations = request.app.state.query_parameters  # (read from the document at startup)
    taken = operations.get((request.method, request.scope.get("path_template")))
    if taken is None:
        return  # not an operation the document names (the web pages, the problems' pages)
    query = request.query_params
    for name in dict.fromkeys(query.keys()):
        values = query.getall(name)
        if name not in taken:
            offered = ", ".join(sorted(taken)) or "none"
            raise ApiError(
                400,
                "invalid_parameter",
                f"{name[:40]!r} is not a query parameter of this operation (it takes: {offered})",
                name[:40],
            )
        if len(values) > 1:
            raise ApiError(
                400,
                "invalid_parameter",
                f"{name!r} is given {len(values)} times: once at most",
                name,
            )
        kind = taken[name]
        if kind is not None and not _WRITTEN[kind][0].fullmatch(values[0]):
            said = _WRITTEN[kind][1]
            raise ApiError(
                400, "invalid_parameter", f"{name!r} is {said} (not {values[0][:40]!r})", name
            )


def _json_body_only(request: Request) -> str | None:
    """A body comes as ``application/json`` only: a web page may make its visitors' browsers
    send a form or ``text/plain`` anywhere without asking, never JSON (that needs CORS's
    consent). Its media type; None: no body."""
    headers = request.headers
    length = headers.get("content-length")
    if (length is None or length.strip() == "0") and "transfer-encoding" not in headers:
        return None  # no body
    media, _, parameters = headers.get("content-type", "").partition(";")
    media = media.strip().lower()
    if media != "application/json":
        raise ApiError(
            415,
            "unsupported_media_type",
            "a request body is JSON: send it with Content-Type: application/json"
            f" (not {media or 'none'!r})",
            "content-type",
        )
    charset = _charset(parameters)
    if charset is not None and charset not in ("utf-8", "utf8"):
        # JSON is UTF-8 (RFC 8259): a body said to be in another encoding would be misread
        raise ApiError(
            415,
            "unsupported_media_type",
            f"a request body is JSON in UTF-8 (not charset={charset!r})",
            "content-type",
        )
    return media


def _charset(parameters: str) -> str | None:
    """The ``charset`` a Content-Type's parameters name, in lower case (None: none named)."""
    for parameter in parameters.split(";"):
        name, _, value = parameter.partition("=")
        if name.strip().lower() == "charset":
            return value.strip().strip('"').lower()
    return None


def strict(body: bytes, kind: Any) -> Any:
    """``body`` decoded as ``kind`` with strict types (no string for a number, no unknown field,
    no key twice)."""
    try:
        decoded = _decoder(kind).decode(body)
    except msgspec.ValidationError as e:
        # a body that is not JSON says so first, whatever its types
        raise _not_of_kind(_json_value(body), kind, e) from None
    except (msgspec.DecodeError, RecursionError):
        _json_value(body)
        raise ApiError(400, "malformed_json", "the body is not JSON") from None
    _no_key_twice(body)
    return decoded


def _not_of_kind(value: Any, kind: Any, strictly: msgspec.ValidationError) -> ApiError:
    """422 for a body not of ``kind``. A body that is not of it even leniently is worded as
    Litestar's own conversion words it (the field its path from the body's root, ``data``: the
    body itself); one refused only for strictness (``"4"`` for a number, a field not asked for)
    as the strict decoder does."""
    try:
        msgspec.convert(value, kind, strict=False, str_keys=True)
    except msgspec.ValidationError as e:
        return ApiError(422, "invalid_body", str(e).split(" - ", 1)[0], _field_of(str(e)))
    return ApiError(422, "invalid_body", str(strictly), _field_of(str(strictly)))


def _field_of(message: str) -> str:
    """The field a decoder's message names, by its path from the body's root: a field missing
    or not asked for is named itself (``options.colour``), not the object that holds it;
    ``data`` for the body itself (Litestar's word for it)."""
    at = _AT.search(message)
    path = at.group(1) if at else ""
    named = _NAMED.search(message)
    if named is not None:
        path = f"{path}.{named.group(1)}" if path else named.group(1)
    return path or "data"


def _float(text: str) -> float:
    """A JSON number with a fraction or an exponent, read as msgspec reads it (out of range:
    refused) but by Python's own parser."""
    value = float(text)
    if math.isinf(value):
        raise ValueError("Number out of range")
    return value


# msgspec's own parser is slow enough over numbers written with an exponent near the largest that
# a body full of them held the event loop (docs/benchmarks.md): a body with a positive exponent
# of three digits is read by Python's parser, any other by msgspec's (faster for the rest); a
# pattern each for "e" and "E", as a pattern that begins with a letter is searched for quickly
_LARGE_EXPONENTS = [re.compile(e + rb"\+?0*[1-9][0-9]{2}") for e in (b"e", b"E")]
_any = msgspec.json.Decoder()
_any_large = msgspec.json.Decoder(float_hook=_float)


def _json_value(body: bytes) -> Any:
    """The body read as JSON of any type: 400 if it is not JSON, or nests too deeply."""
    large = any(p.search(body) for p in _LARGE_EXPONENTS)
    try:
        return (_any_large if large else _any).decode(body)
    except msgspec.DecodeError as e:
        raise ApiError(400, "malformed_json", str(e)) from None
    except RecursionError:
        raise ApiError(400, "json_too_deep", "the body's JSON nests too deeply") from None


class StrictBody(AbstractDTO[T]):
    """A handler's ``data``, decoded from the body's bytes by ``strict`` (and only by it); its
    OpenAPI schema is the one of the type itself, as for a plain body."""

    config = DTOConfig()

    def decode_bytes(self, value: bytes) -> Any:
        return strict(value, self.model_type)

    def decode_builtins(self, value: dict[str, Any]) -> Any:
        raise NotImplementedError("a body is JSON")  # the edge refuses forms with 415 first

    @classmethod
    def generate_field_definitions(
        cls, model_type: type[Any]
    ) -> Generator[DTOFieldDefinition, None, None]:
        yield from ()

    @classmethod
    def create_for_field_definition(
        cls, field_definition: FieldDefinition, handler_id: str, backend_cls: Any = None
    ) -> None:
        """Nothing to prepare: msgspec's decoder is made at the first body (``strict``)."""

    @classmethod
    def create_openapi_schema(
        cls, field_definition: FieldDefinition, handler_id: str, schema_creator: SchemaCreator
    ) -> Reference | Schema:
        return schema_creator.for_field_definition(field_definition)


def strict_body(kind: Any) -> type[StrictBody]:
    """The ``StrictBody`` of ``kind`` (a union too: Litestar's own DTOs refuse one)."""
    name = getattr(kind, "__name__", None) or str(kind)
    return type(f"StrictBody[{name}]", (StrictBody,), {"model_type": kind})


class _KeyTwice(Exception):
    pass


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise _KeyTwice(key)
        seen[key] = value
    return seen


def _no_key_twice(body: bytes) -> None:
    """A key given twice in one object is refused: JSON parsers disagree on which one counts
    (msgspec takes the last), so a proxy or a client library might have checked the other one."""
    try:
        json.loads(body, object_pairs_hook=_unique_keys)
    except _KeyTwice as e:
        key = str(e.args[0])
        raise ApiError(
            400, "duplicate_key", f"the key {key!r} appears twice in one object", key
        ) from None
    except (ValueError, RecursionError):
        pass  # what msgspec accepted, Python's parser may word differently: msgspec decides


def check_command_id(command_id: str | None) -> None:
    if command_id is not None and COMMAND_ID.fullmatch(command_id) is None:
        raise ApiError(
            422,
            "invalid_body",
            "a command_id has 1 to 64 printable ASCII characters, no spaces",
            "command_id",
        )


def check_deadlines(deadlines: Deadlines, settings: Settings, house: bool = False) -> None:
    """Every wait lasts between the settings' least and most seconds; at a table with house bots
    (``house``) at most ``house_max_deadline``: a game slowed to hours would hold the house's
    seats, which every client shares, as long."""
    low, high = settings.min_deadline, settings.max_deadline
    if house:
        high = min(high, settings.house_max_deadline)
    for name in Deadlines.__struct_fields__:
        seconds = getattr(deadlines, name)
        if not low <= seconds <= high:  # also refuses NaN
            at = " at a table with house bots" if house else ""
            raise ApiError(
                422,
                "invalid_body",
                f"a deadline{at} lasts {low:g} to {high:g} seconds",
                f"deadlines.{name}",
            )


def check_bots(bots: HouseBots, seats: int, settings: Settings) -> HouseBots:
    """House bots need a bot worker (the server offers them when GCBC_BOT_SECRET is set); their
    seats are distinct seats of the table, one at least left to a client unless the server
    opens tables of house seats only; they think as long as the server allows. The house bots
    as the table records them: their think time filled in with the server's default."""
    if not settings.bot_secret:
        raise ApiError(
            422,
            "option_not_offered",
            "this server runs no house bots (its bot worker needs GCBC_BOT_SECRET)",
            "bots",
        )
    if not bots.seats or len(set(bots.seats)) != len(bots.seats):
        raise ApiError(422, "invalid_body", "bots.seats names distinct seats", "bots.seats")
    if not all(0 <= seat < seats for seat in bots.seats):
        raise ApiError(422, "invalid_body", f"bots.seats are seats 0 to {seats - 1}", "bots.seats")
    if len(bots.seats) == seats and not settings.house_only_tables:
        # a table the house plays alone costs the server a whole game for one request
        raise ApiError(
            422,
            "no_seat_for_you",
            "a table keeps at least one seat for a client: bots.seats names fewer seats than the"
            " table has (tables of house seats only need GCBC_HOUSE_ONLY_TABLES=1)",
            "bots.seats",
        )
    if bots.think is None:
        return replace(bots, think=settings.bot_think)
    low, high = settings.bot_think_min, min(settings.bot_think_max, settings.max_deadline)
    if not low <= bots.think <= high:  # also refuses NaN
        raise ApiError(
            422, "invalid_body", f"a house bot thinks {low:g} to {high:g} seconds", "bots.think"
        )
    return bots
