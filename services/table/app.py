"""The table service's HTTP API (docs/api.md): thin controllers over ``TableService``. Connections
open in the lifespan; every error leaves as problem+json with a stable code."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import random
import secrets
import time
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Annotated, Any

import msgspec
from litestar import Litestar, Request, Response, delete, get, post
from litestar.config.cors import CORSConfig
from litestar.datastructures import State as AppState
from litestar.openapi import OpenAPIConfig
from litestar.params import Body, Parameter
from litestar.response import Stream

from gcbc.contract import commands as C
from gcbc.contract.http import (
    Chat,
    ClientCommand,
    CreateTable,
    History,
    LobbyListing,
    Position,
    Rematch,
    ReplayStep,
    SeatGranted,
    SeatLater,
    StreamTicket,
    TableCreated,
    TableCreatedLater,
    TakeSeat,
    to_engine,
)
from gcbc.contract.ids import TABLE_ID_PATTERN
from gcbc.contract.options import Deadlines, TableOptions
from gcbc.eventlog.port import LogUnavailable, OutcomeUnknown
from gcbc.readmodel.port import PUBLIC, Answer, ModelUnavailable, StoredView, seat_key
from gcbc.rules import names
from gcbc.rules.state import State
from services.common import health as operators
from services.common import house_tables
from services.common.health import Readiness
from services.common.runner import tune_gc
from services.common.settings import DURABLES, Settings
from services.table import apidocs, edge, tickets, web
from services.table import health as operations
from services.table import openapi as doc
from services.table.holdings import Holdings
from services.table.limits import OpenStreams, RateLimits
from services.table.positions import MAX_CURSOR, Positions
from services.table.problems import HANDLERS, RETRY_AFTER, ApiError, refusal
from services.table.replay_worker import Setup as ReplaySetup
from services.table.replays import Replays
from services.table.service import TableService, token_hash

MAX_BODY = 64 * 1024
ANSWER_WAIT = 1.0  # docs/api.md: 200 with the view, or 202 if the outcome takes longer than ~1 s
LOBBY_WAIT = 10.0  # lobby requests wait longer for their answer (a seat must not be lost)
PENDING = object()  # an answer that did not come in time
OPERATORS_PORT = (
    9100  # /readyz and /metrics (the rules worker's are on 9101, the projection's 9102)
)


TableId = Annotated[
    str,
    Parameter(
        pattern=TABLE_ID_PATTERN,
        description="the id POST /tables gave (any other form is 404 no_table)",
    ),
]


def _json(data: bytes, status: int = 200) -> Response[bytes]:
    return Response(content=data, status_code=status, media_type="application/json")


def _service(state: AppState) -> TableService:
    return state.service


def _client(request: Request) -> str:
    """Who a per-client limit counts: the peer's address (behind a proxy, run uvicorn with
    --forwarded-allow-ips so this is the real client)."""
    return request.client.host if request.client else "unknown"


def _still_held(service: TableService) -> Callable[[str, str | None], Awaitable[bool]]:
    """Whether a table is not over, and (given a token's hash) that seat still that token's."""

    async def still_held(table_id: str, token_hash_: str | None) -> bool:
        try:
            t = await service.table(table_id, held=True)
        except ApiError:
            return False
        if t.state.step == "finished":
            return False
        return token_hash_ is None or token_hash_ in t.tokens.values()

    return still_held


# A dependency that fails after a command was appended must not turn into "nothing was
# recorded": the client gets 202 with the position instead (DESIGN property 7).
AFTER_APPEND = (LogUnavailable, ModelUnavailable, TimeoutError)


async def _then_position(
    position: int, wait: Callable[[], Awaitable[Response[bytes]]]
) -> Response[bytes]:
    try:
        return await wait()
    except AFTER_APPEND:
        return _json(msgspec.json.encode(Position(position=position)), 202)


def _position_of(state: AppState, table_id: str, seq: int) -> int:
    """What a client is shown of the entry at ``seq``: never the log's own sequence."""
    positions: Positions = state.positions
    return positions.of(table_id, seq)


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip() or None
    return None


async def _seat(
    service: TableService, table_id: str, request: Request, required: bool
) -> int | None:
    token = _bearer(request)
    cached = service.cache.tables.get(table_id)
    if token is not None and cached is not None:
        seat = service.seat_of(cached, token)  # a known token needs no trip to the log
        if seat is not None:
            return seat
    if token is None and not required:
        await service.table(table_id, held=True)  # an anonymous look
        return None
    t = await service.table(table_id)
    if token is None:
        if required:
            raise ApiError(401, "unauthorized", "this needs your seat's bearer token")
        return None
    seat = service.seat_of(t, token)
    if seat is None:
        raise ApiError(403, "forbidden", "that token is not a seat of this table")
    return seat


FOLLOW_WAIT = 0.25  # seconds a check waits for this process to fold an entry, then reads it


async def _still_holds(
    service: TableService,
    table_id: str,
    token: str | None,
    seat: int,
    position: int,
    fingerprint: str | None = None,
) -> bool:
    """Whether ``token`` (or a ticket's token ``fingerprint``) still names ``seat`` at the table
    as of ``position``: a seat may have been left and taken by someone else while its old
    holder's long-poll or stream waited."""
    t = service.cache.tables.get(table_id)
    if t is not None and t.seq < position:
        # the view was written before this process folded its entry: following the log, it
        # will in a moment (reading the log instead costs a round trip to NATS per stream)
        t = await service.cache.reached(table_id, position, FOLLOW_WAIT)
    if t is None or t.seq < position:
        t = await service.cache.get(table_id)
    if fingerprint is not None:
        return t.tokens.get(seat, "")[:16] == fingerprint
    return service.seat_of(t, token) == seat


async def _ticket_seat(
    service: TableService, state: AppState, table_id: str, ticket: str
) -> tuple[int, str]:
    got = tickets.read(state.ticket_secret, ticket, table_id, time.time())
    if got is None:
        raise ApiError(
            401, "unauthorized", "that ticket is not valid (expired, or not this table's)"
        )
    seat, fingerprint = got
    await service.table(table_id)
    if not await _still_holds(service, table_id, None, seat, 0, fingerprint):
        raise ApiError(403, "forbidden", "that seat has changed hands since the ticket was made")
    return seat, fingerprint


async def _answer(
    service: TableService, table_id: str, viewer: str, seq: int, wait: float
) -> tuple[StoredView, Answer] | object:
    """The viewer's view and the answer to its command (a refusal raises its problem), or
    PENDING when it takes longer than ``wait`` (the client gets 202 and its position)."""
    got = await service.answered(table_id, viewer, seq, wait)
    if got is None:
        return PENDING
    answer = got[1]
    if answer.code is not None:
        raise refusal(answer.code, answer.message or "")
    return got


def _position(position: int, **more: Any) -> Response[bytes]:
    return _json(msgspec.json.encode({"position": position, **more}), 202)


# --- lobby --------------------------------------------------------------------------------------
def _check_offered(options: TableOptions, settings: Settings) -> None:
    """docs/api.md: an option this server does not offer is refused with 422, never ignored."""
    asked = ["classic"] if options.edition == "classic" else []
    asked += [f for f in ("zombies", "bombers_traitors", "extra_equipment") if getattr(options, f)]
    if options.chooses_wounds():  # RULES §4: not the edition's own placement
        asked.append("wounds")
    for name in asked:
        if name not in settings.options_offered:
            field = "options.edition" if name == "classic" else f"options.{name}"
            raise ApiError(422, "option_not_offered", f"this server does not offer '{name}'", field)


@post(
    "/tables",
    status_code=201,
    summary="Create a table",
    responses=doc.responses(
        {
            201: doc.ok(TableCreated, "the table, waiting for players", doc.CREATED_EXAMPLE),
            202: doc.ok(
                TableCreatedLater,
                "recorded, not answered within the wait: the table will be there",
                {**doc.CREATED_EXAMPLE, "position": 17},
            ),
        },
        400,
        403,
        413,
        415,
        422,
        429,
        503,
    ),
)
async def create_table(
    data: Annotated[CreateTable, Body(examples=doc.CREATE_EXAMPLES)],
    request: Request,
    state: AppState,
) -> Any:
    service = _service(state)
    settings: Settings = state.settings
    data = edge.strict(await request.body(), CreateTable)
    for field in ("deal", "seed"):
        # a chosen deal or seed lets its creator know every card: scenario servers only
        if getattr(data, field) is not None and not settings.allow_scenarios:
            raise ApiError(
                403,
                "scenarios_not_allowed",
                f"'{field}' makes a scenario table: the services must run with"
                " GCBC_ALLOW_SCENARIOS=1",
                field,
            )
    _check_offered(data.options, settings)
    if data.first_seat is not None and not 0 <= data.first_seat < data.seats:
        raise ApiError(422, "invalid_body", "first_seat is a seat of the table", "first_seat")
    if data.deadlines is not None:
        edge.check_deadlines(data.deadlines, settings.min_deadline, settings.max_deadline)
    bots = edge.check_bots(data.bots, data.seats, settings) if data.bots is not None else None
    client = _client(request)
    await state.rates.hit("create", client)
    if bots is not None:
        await state.holdings.room_for_house_table(client, _still_held(service))
    table_id = secrets.token_hex(8)  # gcbc.contract.ids: the server's own form
    command = C.OpenTable(
        table_id=table_id,
        seats=data.seats,
        options=data.options,
        deadlines=data.deadlines or Deadlines(),
        deal=data.deal,
        first_seat=data.first_seat,
        random_seed=data.seed,
        chat_per_seat=settings.chat_per_seat,  # the table's terms: refused in the rules
        bots=bots,
    )
    try:
        seq = await service.submit(table_id, command, new_table=True)
        if bots is not None:
            state.holdings.opened_house_table(client, table_id)
    except OutcomeUnknown:
        raise ApiError(
            503,
            "outcome_unknown",
            "the table may or may not have been created: GET /tables/{table_id} tells (404: it"
            " was not; an unused table closes by itself)",
            headers={"Retry-After": RETRY_AFTER},
            extra={"table_id": table_id},
        ) from None
    created = TableCreated(
        table_id=table_id,
        seats=data.seats,
        options=data.options.with_defaults(),  # as the table records them (RULES §4 wounds)
        deadlines=command.deadlines,
        view_url=f"/tables/{table_id}",
    )
    try:
        # read-your-writes: the table is visible (GET /tables, its view) once this answers
        got = await _answer(service, table_id, PUBLIC, seq, LOBBY_WAIT)
    except AFTER_APPEND:
        got = PENDING
    if got is PENDING:  # recorded, not answered yet: the table will be there
        return _position(_position_of(state, table_id, seq), **msgspec.to_builtins(created))
    return created


@get(
    "/tables",
    summary="Tables waiting for players, oldest first (paginated)",
    description='A page of the lobby; the `Link` header\'s `rel="next"` names the next page.',
    responses=doc.responses(
        {200: doc.ok(list[LobbyListing], "the page", doc.LISTING_EXAMPLE)}, 422, 503
    ),
)
async def list_tables(
    state: AppState,
    limit: Annotated[int | None, Parameter(ge=1, le=200)] = None,
    after: Annotated[
        int,
        Parameter(
            ge=0, le=MAX_CURSOR, description="the opaque cursor of the Link rel=next (0: the first)"
        ),
    ] = 0,
) -> Response[bytes]:
    limit = limit or state.settings.lobby_page
    positions: Positions = state.positions
    page = await _service(state).model.open_tables(limit, positions.after(after))
    headers = {}
    if page.next is not None:  # RFC 8288, as GitHub does: the body stays a plain list
        cursor = positions.cursor(page.next)
        headers["Link"] = f'</tables?limit={limit}&after={cursor}>; rel="next"'
    return Response(
        content=b"[" + b",".join(page.listings) + b"]",
        media_type="application/json",
        headers=headers,
    )


@get(
    "/tables/{table_id:str}",
    summary="The public (spectator) view",
    responses=doc.responses({200: doc.PUBLIC_VIEW}, 404, 503),
)
async def public_view(table_id: TableId, state: AppState) -> Response[bytes]:
    service = _service(state)
    await service.table(table_id, held=True)
    got = await service.view(table_id, None)
    if got is None:
        raise ApiError(404, "no_table", f"there is no table {table_id}")
    return _json(got.data)


@post(
    "/tables/{table_id:str}/seats",
    status_code=201,
    summary="Take a seat",
    responses=doc.responses(
        {
            201: doc.ok(SeatGranted, "your seat and its token", {"seat": 1, "token": "tOk3n…"}),
            202: doc.ok(
                SeatLater,
                "recorded, not answered within the wait: the token is yours",
                {"position": 18, "token": "tOk3n…"},
            ),
        },
        400,
        404,
        409,
        413,
        415,
        422,
        429,
        503,
    ),
)
async def take_seat(
    table_id: TableId,
    data: Annotated[
        TakeSeat, Body(examples=[doc.Example(summary="a name", value={"name": "ann"})])
    ],
    request: Request,
    state: AppState,
) -> SeatGranted | Response[bytes]:
    service = _service(state)
    data = edge.strict(await request.body(), TakeSeat)
    table = await service.table(table_id)
    client = _client(request)
    await state.rates.hit("seat", client)
    await state.holdings.room_for_seat(client, _still_held(service))
    await _not_a_held_name(service, table.state, data.name)
    token = secrets.token_urlsafe(24)
    digest = token_hash(token)
    try:
        seq = await service.submit(table_id, C.TakeSeat(name=data.name), token_hash_=digest)
        state.holdings.took_seat(client, table_id, digest)
    except OutcomeUnknown:
        raise ApiError(
            503,
            "outcome_unknown",
            "the seat may or may not have been taken: GET /tables/{table_id}/view with this token"
            " tells (403: it was not)",
            headers={"Retry-After": RETRY_AFTER},
            extra={"token": token},
        ) from None
    # recorded, not answered yet: the token is the client's only way to its seat, so it gets it
    # now (its view will say which seat once the rules worker answers)
    try:
        got = await _answer(service, table_id, PUBLIC, seq, LOBBY_WAIT)
    except AFTER_APPEND:
        got = PENDING
    if got is PENDING or got[1].seat is None:  # type: ignore[index]
        # recorded, not answered yet: the token is the client's only way to its seat, so it
        # gets it now (its view will say which seat once the rules worker answers)
        return _position(_position_of(state, table_id, seq), token=token)
    return SeatGranted(seat=got[1].seat, token=token)  # type: ignore[index]


async def _not_a_held_name(service: TableService, s: State, name: str) -> None:
    """A rematch keeps seats for the finished table's players, who come back under their names
    there: a newcomer may not take one of those names before them."""
    if not (s.held and s.rematch_of):
        return
    try:
        before = (await service.table(s.rematch_of)).state
    except ApiError:  # that table is gone: its names with it
        return
    name = names.normalise(name)
    for seat in s.held:
        kept = before.seats[seat] if seat < len(before.seats) else None
        if kept is not None and names.same(name, kept.name):
            raise ApiError(
                409, "name_taken", "that name is kept for a player of this rematch", "name"
            )


@delete(
    "/tables/{table_id:str}/seats/{seat:int}",
    status_code=204,
    summary="Leave: before the start, the seat is free again; after it, you are away",
    description="Once the game has started a seat that leaves is away (RULES §10): its autopilot"
    " plays, its cards stay secret, and its token brings it back until the end (`resume`, or any"
    " command).",
    security=doc.BEARER,
    responses=doc.responses({202: doc.POSITION}, 401, 403, 404, 409, 503),
)
async def leave_seat(table_id: TableId, seat: int, request: Request, state: AppState) -> None:
    """204 once left; 202 and the position if that takes longer (a Response, not None)."""
    service = _service(state)
    mine = await _seat(service, table_id, request, required=True)
    if mine != seat:
        raise ApiError(403, "forbidden", "you can only leave your own seat")
    started = (await service.table(table_id)).state.step != "lobby"
    seq = await service.submit(table_id, C.LeaveSeat(seat=seat))
    # a lobby seat is free again (its answer is public); a player stays seated, away
    viewer = seat_key(seat) if started else PUBLIC
    try:
        got = await _answer(service, table_id, viewer, seq, LOBBY_WAIT)
    except AFTER_APPEND:
        got = PENDING
    if got is PENDING:
        # recorded: the seat is left once the rules worker answers
        return _position(_position_of(state, table_id, seq))
    return Response(content=b"", status_code=204)


@post(
    "/tables/{table_id:str}/start",
    status_code=200,
    summary="Start once every seat is taken",
    security=doc.BEARER,
    responses=doc.responses({200: doc.VIEW, 202: doc.POSITION}, 401, 403, 404, 409, 429, 503),
)
async def start(table_id: TableId, request: Request, state: AppState) -> Response[bytes]:
    service = _service(state)
    seat = await _seat(service, table_id, request, required=True)
    # the seed comes from the server's entropy and stays secret until the end (DESIGN property 3)
    seq = await service.submit(table_id, C.StartGame(seat=seat, random_seed=secrets.randbits(62)))
    position = _position_of(state, table_id, seq)
    return await _then_position(
        position, lambda: _answered_view(service, table_id, seat, seq, position)
    )


# --- playing ------------------------------------------------------------------------------------
@get(
    "/tables/{table_id:str}/view",
    summary="Your view (long-poll with after/timeout)",
    description="With a bearer token, your seat's view; without, the public one. With `after`,"
    " it answers as soon as the view's `version` is greater, or with the current view after"
    " `timeout` seconds.",
    security=[*doc.BEARER, {}],
    responses=doc.responses({200: doc.VIEW}, 403, 404, 422, 429, 503),
)
async def seat_view(
    table_id: TableId,
    request: Request,
    state: AppState,
    after: Annotated[int | None, Parameter(ge=0)] = None,
    timeout: Annotated[float, Parameter(ge=0, le=60)] = 0,
) -> Response[bytes]:
    service = _service(state)
    seat = await _seat(service, table_id, request, required=False)
    wait = timeout if after is not None else 0
    close = state.streams.open(table_id, _client(request), seat) if wait > 0 else None
    try:
        got = await service.view(table_id, seat, after, wait)
    finally:
        if close is not None:
            close()
    if got is None:
        raise ApiError(404, "no_table", f"there is no table {table_id}")
    if seat is not None and not await _still_holds(
        service, table_id, _bearer(request), seat, got.position
    ):
        raise ApiError(403, "forbidden", "that token is not a seat of this table any more")
    return _json(got.data)


@post(
    "/tables/{table_id:str}/tickets",
    status_code=201,
    summary="A stream ticket: your seat's stream, without your token in a URL",
    description="For browsers (EventSource sends no Authorization header): GET"
    " /tables/{table_id}/stream?ticket=… streams your seat's view. A ticket opens this table's"
    " stream of your seat only, for `expires_in` seconds, and no longer once the seat changes"
    " hands.",
    security=doc.BEARER,
    responses=doc.responses(
        {201: doc.ok(StreamTicket, "the ticket", {"ticket": "eyJ…", "expires_in": 60})},
        401,
        403,
        404,
        503,
    ),
)
async def stream_ticket(table_id: TableId, request: Request, state: AppState) -> StreamTicket:
    service = _service(state)
    seat = await _seat(service, table_id, request, required=True)
    settings: Settings = state.settings
    ticket = tickets.mint(
        state.ticket_secret,
        table_id,
        seat,
        token_hash(_bearer(request) or ""),
        time.time() + settings.ticket_seconds,
    )
    return StreamTicket(ticket=ticket, expires_in=settings.ticket_seconds)


@get(
    "/tables/{table_id:str}/stream",
    summary="Server-Sent Events: one per view change (data = the view)",
    description="Each event is `id: <version>` and `data: <view>`; a reconnect with"
    " `Last-Event-ID` goes on after that version (EventSource does it by itself).",
    media_type="text/event-stream",
    security=[*doc.BEARER, {}],
    responses=doc.responses(
        {
            200: doc.ResponseSpec(
                str,
                description="`data: <view>` events, one per change; `: keep-alive` comments",
                media_type="text/event-stream",
                generate_examples=False,
            )
        },
        403,
        404,
        429,
        503,
    ),
)
async def stream(
    table_id: TableId,
    request: Request,
    state: AppState,
    ticket: Annotated[
        str | None,
        Parameter(
            max_length=512,
            description="a stream ticket (POST /tables/{table_id}/tickets), for browsers",
        ),
    ] = None,
    last_event_id: Annotated[
        int | None,
        Parameter(
            header="Last-Event-ID",
            ge=0,
            le=10**12,
            description="the id (version) of the last event received: go on after it",
        ),
    ] = None,
) -> Stream:
    service = _service(state)
    if ticket is not None:
        seat, fingerprint = await _ticket_seat(service, state, table_id, ticket)
        token = None
    else:
        seat = await _seat(service, table_id, request, required=False)
        token, fingerprint = _bearer(request), None
    close = state.streams.open(table_id, _client(request), seat, kind="sse")

    # a reconnecting EventSource sends the id of the last event it got: go on after it
    start_after = -1 if last_event_id is None else last_event_id

    async def events() -> AsyncIterator[bytes]:
        version, last = start_after, None
        try:
            while True:
                wait = random.uniform(12.0, 18.0)
                got = await service.view(table_id, seat, version, wait, last=last)
                if got is None:
                    return
                last = got
                if seat is not None and not await _still_holds(
                    service, table_id, token, seat, got.position, fingerprint
                ):
                    return
                current = got.version
                if current > version:
                    version = current
                    yield got.frame()  # the same bytes for every stream woken by this change
                else:
                    yield b": keep-alive\r\n\r\n"  # a comment, not an event (jittered ~15 s)
        except (LogUnavailable, ModelUnavailable):
            return  # the client reconnects (EventSource does so by itself)
        finally:
            close()

    generator = events()
    weakref.finalize(generator, close)  # a stream never started still gives its place back
    return Stream(
        generator,
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


@post(
    "/tables/{table_id:str}/commands",
    status_code=200,
    summary="Send a command",
    description="A command of the seat your token names. Your view's `legal_commands` lists what"
    " you may send now. 200: your view once it shows the outcome; 202: recorded, the outcome"
    " comes later; a refusal is a problem and records nothing.",
    security=doc.BEARER,
    responses=doc.responses(
        {200: doc.VIEW, 202: doc.POSITION}, 400, 401, 403, 404, 409, 413, 415, 422, 429, 503
    ),
)
async def send_command(
    table_id: TableId,
    data: Annotated[
        ClientCommand,
        Body(examples=doc.COMMAND_EXAMPLES, schema_extra=doc.COMMAND_DISCRIMINATOR),
    ],
    request: Request,
    state: AppState,
) -> Response[bytes]:
    service = _service(state)
    seat = await _seat(service, table_id, request, required=True)
    data = edge.strict(await request.body(), ClientCommand)
    edge.check_command_id(data.command_id)
    await state.rates.hit("command", f"{table_id}:{seat}")
    if not _house_seat(service, table_id, seat):  # the bot worker's seats: paced by it
        await state.rates.hit("client_command", _client(request))
    command = to_engine(data, seat)
    seq = await service.submit(table_id, command)
    position = _position_of(state, table_id, seq)
    return await _then_position(
        position, lambda: _answered_view(service, table_id, seat, seq, position)
    )


def _house_seat(service: TableService, table_id: str, seat: int) -> bool:
    t = service.cache.tables.get(table_id)
    bots = t.state.house_bots if t is not None else None
    return bots is not None and seat in bots.seats


async def _answered_view(
    service: TableService, table_id: str, seat: int, seq: int, position: int
) -> Response[bytes]:
    """The seat's view once it shows the command's outcome; 202 and ``position`` if that takes
    longer; the refusal as a problem."""
    got = await _answer(service, table_id, seat_key(seat), seq, ANSWER_WAIT)
    if got is PENDING:
        return _position(position)
    return _json(got[0].data)  # type: ignore[index]


@post(
    "/tables/{table_id:str}/chat",
    status_code=202,
    summary="Post a chat message",
    security=doc.BEARER,
    responses=doc.responses({202: doc.POSITION}, 400, 401, 403, 404, 409, 413, 415, 422, 429, 503),
)
async def chat(
    table_id: TableId,
    data: Annotated[
        Chat, Body(examples=[doc.Example(summary="talk", value={"text": "seat 2 is crooked"})])
    ],
    request: Request,
    state: AppState,
) -> Position:
    service = _service(state)
    seat = await _seat(service, table_id, request, required=True)
    data = edge.strict(await request.body(), Chat)
    await state.rates.hit("chat", f"{table_id}:{seat}")
    seq = await service.submit(table_id, C.PostChat(seat=seat, text=data.text))
    return Position(position=_position_of(state, table_id, seq))


@post(
    "/tables/{table_id:str}/rematch",
    status_code=201,
    summary="Play again: the same seats and options at a new table",
    description="A finished table's players each ask with their token: the first opens the"
    " rematch (a new table id, the same options, deadlines and house bots, a new deal) and every"
    " player gets its own seat back there, under its name, with a new token. Seats not claimed"
    " are kept for their players until the table closes unstarted; strangers take only the"
    " others.",
    security=doc.BEARER,
    responses=doc.responses(
        {
            201: doc.ok(
                Rematch,
                "the new table, your seat there and its token",
                {"table_id": "9f86d081884c7d65", "seat": 0, "token": "tOk3n…"},
            )
        },
        401,
        403,
        404,
        409,
        429,
        503,
    ),
)
async def rematch(table_id: TableId, request: Request, state: AppState) -> Rematch:
    service = _service(state)
    seat = await _seat(service, table_id, request, required=True)
    assert seat is not None
    old = (await service.table(table_id)).state
    if old.step != "finished":
        raise ApiError(409, "not_finished_yet", "a rematch follows a finished table")
    client = _client(request)
    await state.rates.hit("seat", client)
    await state.holdings.room_for_seat(client, _still_held(service))
    new_id = rematch_id(table_id)
    bots = old.house_bots
    house = set(bots.seats) if bots else set()
    opening = C.OpenTable(
        table_id=new_id,
        seats=len(old.seats),
        options=old.options,
        deadlines=old.deadlines,
        chat_per_seat=state.settings.chat_per_seat,
        bots=bots,
        rematch_of=table_id,
        held=tuple(i for i in range(len(old.seats)) if i not in house),
    )
    try:
        seq = await service.submit(new_id, opening, new_table=True)
        await _answer(service, new_id, PUBLIC, seq, LOBBY_WAIT)
    except ApiError as e:
        if e.code != "table_exists":  # another player opened it first: claim the seat there
            raise
    name = old.seats[seat].name if old.seats[seat] is not None else f"seat {seat}"  # type: ignore[union-attr]
    token = secrets.token_urlsafe(24)
    claim = C.TakeSeat(name=name, seat_wanted=seat)
    # the token is the player's only way to the new seat: a 503 that may have claimed it says it
    unknown = ApiError(
        503,
        "outcome_unknown",
        "the seat may or may not be claimed yet: GET /tables/{table_id}/view with this token"
        " tells (403: it was not)",
        headers={"Retry-After": RETRY_AFTER},
        extra={"table_id": new_id, "token": token},
    )
    try:
        seq = await service.submit(new_id, claim, token_hash_=token_hash(token))
        state.holdings.took_seat(client, new_id, token_hash(token))
        got = await _answer(service, new_id, PUBLIC, seq, LOBBY_WAIT)
    except (OutcomeUnknown, *AFTER_APPEND):
        raise unknown from None
    if got is PENDING:
        raise unknown
    return Rematch(table_id=new_id, seat=seat, token=token)


def rematch_id(table_id: str) -> str:
    """The rematch of a table has one id whoever asks first (the same form as any table's)."""
    return hashlib.sha256(f"rematch:{table_id}".encode()).hexdigest()[:16]


@get(
    "/tables/{table_id:str}/history",
    summary="Every event, once the game is over",
    responses=doc.responses({200: doc.ok(History, "every event, every card")}, 404, 409, 429, 503),
)
async def history(table_id: TableId, request: Request, state: AppState) -> Response[bytes]:
    client = _client(request)
    return _json(await _service(state).history(table_id, lambda: _reading(state, client)))


@get(
    "/tables/{table_id:str}/replay",
    summary="A finished table, step by step, as a seat (or a spectator) saw it",
    description="Once the game is over nothing is secret any more: any seat's view after any"
    " answered command (`step` 1 to `steps`), for stepping through a game forward and back.",
    responses=doc.responses(
        {200: doc.ok(ReplayStep, "the view at that step")}, 404, 409, 422, 429, 503
    ),
)
async def replay(
    table_id: TableId,
    request: Request,
    state: AppState,
    step: Annotated[int, Parameter(ge=1, le=100_000, description="1: the table opened")] = 1,
    seat: Annotated[
        int | None, Parameter(ge=0, le=7, description="whose view (none: the public one)")
    ] = None,
) -> Response[bytes]:
    client = _client(request)
    await state.rates.hit("replay", client)  # each step is a view made, not one stored
    got = await _service(state).replay(table_id, step, seat, lambda: _reading(state, client))
    return _json(got)


async def _reading(state: AppState, client: str) -> None:
    """A replay or history that reads and folds a whole log (not one kept folded) counts."""
    await state.rates.hit("log_read", client)


# --- the app ------------------------------------------------------------------------------------
def create_app(settings: Settings | None = None) -> Litestar:
    """The composition root: the real adapters, connected in the lifespan."""
    from gcbc.eventlog.jetstream import JetStreamEventLog
    from gcbc.keyvalue.jetstream import JetStreamKeyValue
    from gcbc.readmodel.redis import RedisReadModel

    settings = settings or Settings.from_env()

    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        events = await JetStreamEventLog.connect(settings.nats_url, settings.stream_replicas)
        model = RedisReadModel.connect(settings.redis_url)
        model.wakeups.start()  # listening before the first request, so no wake-up is missed
        try:
            await asyncio.wait_for(model.wakeups.ready.wait(), 10)
        except TimeoutError:
            logging.getLogger("gcbc.table").warning("wake-ups not subscribed yet: serving anyway")
        app.state.settings = settings
        house = None  # the house's tables, noted for the bot worker (offered with the secret)
        if settings.bot_secret:
            house = await JetStreamKeyValue.open(
                events.nc, house_tables.BUCKET, settings.stream_replicas
            )
        replays = Replays(
            ReplaySetup(
                nats_url=settings.nats_url,
                stream_replicas=settings.stream_replicas,
                max_entries=settings.replay_max_entries,
                keep_entries=settings.replay_keep_entries,
                log_limit=settings.log_limit,
                chat_limit=settings.chat_limit,
            ),
            settings.replay_queue,
        )
        replays.start()
        app.state.service = service = TableService(
            events,
            model,
            settings.noop_rules,
            bot_secret=settings.bot_secret,
            house=house,
            replays=replays,
        )
        app.state.rates = rates = RateLimits.on_redis(
            settings.redis_url,
            getattr(model.redis, "connection_pool", None),  # a cluster client has its own
            {
                "create": settings.rate_create,
                "seat": settings.rate_seat,
                "chat": settings.rate_chat,
                "command": settings.rate_command,
                "client_command": settings.rate_client_command,
                "replay": settings.rate_replay,
                "log_read": settings.rate_log_read,
            },
        )
        await rates.warm()
        # several processes must share the key (GCBC_TICKET_SECRET); one alone may draw its own
        app.state.ticket_secret = (settings.ticket_secret or secrets.token_hex(32)).encode()
        app.state.positions = Positions(app.state.ticket_secret)
        app.state.streams = OpenStreams(
            settings.streams_per_table,
            settings.streams_per_seat,
            settings.streams_per_client,
            settings.streams_per_table_client,
        )
        app.state.holdings = Holdings(settings.seats_per_client, settings.house_tables_per_client)
        tune_gc()
        follower = await service.follow()
        resting = asyncio.create_task(service.rest_tables())
        readiness = Readiness(events, model, DURABLES)
        try:
            # /readyz and /metrics for operators, on a port of their own (not the API's)
            async with operators.serve(readiness, operators.metrics_port(OPERATORS_PORT)):
                yield
        finally:
            resting.cancel()
            replays.close()
            await follower.close()
            await events.close()
            await model.close()

    return Litestar(
        route_handlers=[
            create_table,
            list_tables,
            public_view,
            take_seat,
            leave_seat,
            start,
            seat_view,
            stream_ticket,
            stream,
            send_command,
            chat,
            history,
            rematch,
            replay,
            *web.ROUTES,  # the reference web client (not in the OpenAPI document)
            *operations.ROUTES,  # /healthz (not in the OpenAPI document)
        ],
        lifespan=[lifespan],
        middleware=[operations.HttpMetrics()],
        exception_handlers=operations.counted(HANDLERS),
        before_request=edge.before_request,
        cors_config=CORSConfig(
            allow_origins=list(settings.cors_origins),
            allow_methods=["GET", "POST", "DELETE"],
            allow_headers=["Authorization", "Content-Type", "Last-Event-ID"],
            expose_headers=["Link", "Retry-After"],
        )
        if settings.cors_origins
        else None,
        request_max_body_size=MAX_BODY,
        openapi_config=OpenAPIConfig(
            title="Good Cop Bad Cop",
            version="1.0.0",
            path="/schema",
            render_plugins=apidocs.PLUGINS,  # Swagger UI, served by this service: nothing else
            openapi_router=apidocs.router(),
            components=doc.COMPONENTS,
            description="The public HTTP/JSON contract of the Good Cop Bad Cop server"
            " (docs/api.md). Errors are RFC 9457 problem+json with a stable `code`.",
        ),
        debug=False,
    )


def main() -> None:

    import uvicorn

    from services.common import logs

    logs.setup("table")
    settings = Settings.from_env()
    workers = int(os.environ.get("GCBC_HTTP_WORKERS", "1"))
    uvicorn.run(
        # several processes share the port; each follows the log and reads Redis on its own
        "services.table.app:create_app" if workers > 1 else create_app(settings),
        factory=workers > 1,
        workers=workers,
        host=settings.http_host,
        port=settings.http_port,
        log_level="warning",
        log_config=None,  # uvicorn's own lines go through ours (JSON, or text)
        timeout_graceful_shutdown=2,
        # clients keep idle connections 5 s (httpx, aiohttp 15 s): closing an idle one
        # later than they do avoids the race where a request is sent as the server closes it
        timeout_keep_alive=20,
        loop="uvloop",
        # httptools with the connection limits: heads timed and capped, connections per address
        http="services.table.connections:GuardedHttp",
        # X-Forwarded-For only from the proxies named: anyone else could pick its own address
        # and so its own per-client limits
        proxy_headers=bool(settings.forwarded_allow_ips),
        forwarded_allow_ips=settings.forwarded_allow_ips or None,
    )


if __name__ == "__main__":
    main()
