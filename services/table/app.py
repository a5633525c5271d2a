"""The table service's HTTP API (API.md): thin controllers over ``TableService``. Connections
open in the lifespan; every error leaves as problem+json with a stable code."""

from __future__ import annotations

import asyncio
import logging
import os
import random
import secrets
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Annotated, Any

import msgspec
from litestar import Litestar, Request, Response, delete, get, post
from litestar.datastructures import State as AppState
from litestar.openapi import OpenAPIConfig
from litestar.params import Parameter
from litestar.response import Stream

from gcbc.contract import commands as C
from gcbc.contract.options import Deadlines, Deal, TableOptions
from gcbc.contract.views import View
from gcbc.eventlog.port import LogUnavailable, OutcomeUnknown
from gcbc.readmodel.port import PUBLIC, Answer, ModelUnavailable, StoredView, seat_key, view_version
from services.common.runner import tune_gc
from services.common.settings import Settings
from services.table import edge
from services.table import health as operations
from services.table.limits import OpenStreams, RateLimits
from services.table.problems import HANDLERS, RETRY_AFTER, ApiError, status_for
from services.table.service import TableService, token_hash

MAX_BODY = 64 * 1024
ANSWER_WAIT = 1.0  # API.md: 200 with the view, or 202 if the outcome takes longer than ~1 s
LOBBY_WAIT = 10.0  # lobby requests wait longer for their answer (a seat must not be lost)
PENDING = object()  # an answer that did not come in time


# --- request and response bodies ----------------------------------------------------------------
class CreateTable(msgspec.Struct, forbid_unknown_fields=True):
    seats: int
    options: TableOptions = TableOptions()
    seed: int | None = None
    deadlines: Deadlines | None = None
    deal: Deal | None = None
    first_seat: int | None = None


class TableCreated(msgspec.Struct):
    table_id: str
    seats: int
    options: TableOptions
    deadlines: Deadlines
    view_url: str


class TakeSeatBody(msgspec.Struct, forbid_unknown_fields=True):
    name: str


class SeatGranted(msgspec.Struct):
    seat: int
    token: str


class ChatBody(msgspec.Struct, forbid_unknown_fields=True):
    text: str


class Position(msgspec.Struct):
    position: int


ClientCommand = C.GameCommand  # what a client may send as a command (seat: from the token)


def _json(data: bytes, status: int = 200) -> Response[bytes]:
    return Response(content=data, status_code=status, media_type="application/json")


def _service(state: AppState) -> TableService:
    return state.service


def _client(request: Request) -> str:
    """Who a per-client limit counts: the peer's address (behind a proxy, run uvicorn with
    --forwarded-allow-ips so this is the real client)."""
    return request.client.host if request.client else "unknown"


# A dependency that fails after a command was appended must not turn into "nothing was
# recorded": the client gets 202 with the position instead (DESIGN property 7).
AFTER_APPEND = (LogUnavailable, ModelUnavailable, TimeoutError)


async def _then_position(
    seq: int, wait: Callable[[], Awaitable[Response[bytes]]]
) -> Response[bytes]:
    try:
        return await wait()
    except AFTER_APPEND:
        return _json(msgspec.json.encode(Position(position=seq)), 202)


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
    t = await service.table(table_id)
    if token is None:
        if required:
            raise ApiError(401, "unauthorized", "this needs your seat's bearer token")
        return None
    seat = service.seat_of(t, token)
    if seat is None:
        raise ApiError(403, "forbidden", "that token is not a seat of this table")
    return seat


async def _still_holds(
    service: TableService, table_id: str, token: str | None, seat: int, position: int
) -> bool:
    """Whether ``token`` still names ``seat`` at the table as of ``position``: a seat may have
    been left and taken by someone else while its old holder's long-poll or stream waited."""
    t = service.cache.tables.get(table_id)
    if t is None or t.seq < position:
        t = await service.cache.get(table_id)
    return service.seat_of(t, token) == seat


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
        raise ApiError(status_for(answer.code), answer.code, answer.message or "")
    return got


def _position(seq: int, **more: Any) -> Response[bytes]:
    return _json(msgspec.json.encode({"position": seq, **more}), 202)


# --- lobby --------------------------------------------------------------------------------------
def _check_offered(options: TableOptions, settings: Settings) -> None:
    """API.md: an option this server does not offer is refused with 422, never ignored."""
    asked = ["classic"] if options.edition == "classic" else []
    asked += [f for f in ("zombies", "bombers_traitors", "extra_equipment") if getattr(options, f)]
    if options.chooses_wounds():  # RULES §4: not the edition's own placement
        asked.append("wounds")
    for name in asked:
        if name not in settings.options_offered:
            field = "options.edition" if name == "classic" else f"options.{name}"
            raise ApiError(422, "option_not_offered", f"this server does not offer '{name}'", field)


@post("/tables", status_code=201, summary="Create a table")
async def create_table(data: CreateTable, request: Request, state: AppState) -> Any:
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
    await state.rates.hit("create", _client(request))
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
    )
    try:
        seq = await service.submit(table_id, command, new_table=True)
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
        return _position(seq, **msgspec.to_builtins(created))
    return created


@get("/tables", summary="Tables waiting for players, oldest first (paginated)")
async def list_tables(
    state: AppState,
    limit: Annotated[int | None, Parameter(ge=1, le=200)] = None,
    after: Annotated[int, Parameter(ge=0, description="the cursor of the Link rel=next")] = 0,
) -> Response[bytes]:
    limit = limit or state.settings.lobby_page
    page = await _service(state).model.open_tables(limit, after)
    headers = {}
    if page.next is not None:  # RFC 8288, as GitHub does: the body stays a plain list
        headers["Link"] = f'</tables?limit={limit}&after={page.next}>; rel="next"'
    return Response(
        content=b"[" + b",".join(page.listings) + b"]",
        media_type="application/json",
        headers=headers,
    )


@get("/tables/{table_id:str}", summary="The public (spectator) view", response_model=View)
async def public_view(table_id: str, state: AppState) -> Response[bytes]:
    service = _service(state)
    await service.table(table_id)
    got = await service.view(table_id, None)
    if got is None:
        raise ApiError(404, "no_table", f"there is no table {table_id}")
    return _json(got.data)


@post("/tables/{table_id:str}/seats", status_code=201, summary="Take a seat")
async def take_seat(
    table_id: str, data: TakeSeatBody, request: Request, state: AppState
) -> SeatGranted | Response[bytes]:
    service = _service(state)
    data = edge.strict(await request.body(), TakeSeatBody)
    await service.table(table_id)
    await state.rates.hit("seat", _client(request))
    token = secrets.token_urlsafe(24)
    digest = token_hash(token)
    try:
        seq = await service.submit(table_id, C.TakeSeat(name=data.name), token_hash_=digest)
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
        return _position(seq, token=token)
    return SeatGranted(seat=got[1].seat, token=token)  # type: ignore[index]


@delete(
    "/tables/{table_id:str}/seats/{seat:int}",
    status_code=200,  # answers 204 once left, 202 {"position"} if that takes longer
    summary="Leave before the start",
)
async def leave_seat(
    table_id: str, seat: int, request: Request, state: AppState
) -> Response[bytes]:
    service = _service(state)
    mine = await _seat(service, table_id, request, required=True)
    if mine != seat:
        raise ApiError(403, "forbidden", "you can only leave your own seat")
    seq = await service.submit(table_id, C.LeaveSeat(seat=seat))
    try:
        got = await _answer(service, table_id, PUBLIC, seq, LOBBY_WAIT)
    except AFTER_APPEND:
        got = PENDING
    if got is PENDING:
        return _position(seq)  # recorded: the seat is left once the rules worker answers
    return Response(content=b"", status_code=204)


@post("/tables/{table_id:str}/start", status_code=200, summary="Start once every seat is taken")
async def start(table_id: str, request: Request, state: AppState) -> Response[bytes]:
    service = _service(state)
    seat = await _seat(service, table_id, request, required=True)
    # the seed comes from the server's entropy and stays secret until the end (DESIGN property 3)
    seq = await service.submit(table_id, C.StartGame(seat=seat, random_seed=secrets.randbits(62)))
    return await _then_position(seq, lambda: _answered_view(service, table_id, seat, seq))


# --- playing ------------------------------------------------------------------------------------
@get(
    "/tables/{table_id:str}/view",
    summary="Your view (long-poll with after/timeout)",
    response_model=View,
)
async def seat_view(
    table_id: str,
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


@get(
    "/tables/{table_id:str}/stream",
    summary="Server-Sent Events: one per view change (data = the view)",
    media_type="text/event-stream",
)
async def stream(table_id: str, request: Request, state: AppState) -> Stream:
    service = _service(state)
    seat = await _seat(service, table_id, request, required=False)
    token = _bearer(request)
    close = state.streams.open(table_id, _client(request), seat, kind="sse")

    async def events() -> AsyncIterator[bytes]:
        version = -1
        try:
            while True:
                got = await service.view(table_id, seat, version, random.uniform(12.0, 18.0))
                if got is None:
                    return
                if seat is not None and not await _still_holds(
                    service, table_id, token, seat, got.position
                ):
                    return
                current = view_version(got.data)
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
    response_model=View,
)
async def send_command(
    table_id: str, data: ClientCommand, request: Request, state: AppState
) -> Response[bytes]:
    service = _service(state)
    seat = await _seat(service, table_id, request, required=True)
    data = edge.strict(await request.body(), ClientCommand)
    if data.seat != -1:
        raise ApiError(422, "invalid_body", "seat comes from your token, not the body", "seat")
    edge.check_command_id(data.command_id)
    await state.rates.hit("command", f"{table_id}:{seat}")
    command = msgspec.structs.replace(data, seat=seat)
    seq = await service.submit(table_id, command)
    return await _then_position(seq, lambda: _answered_view(service, table_id, seat, seq))


async def _answered_view(
    service: TableService, table_id: str, seat: int, seq: int
) -> Response[bytes]:
    """The seat's view once it shows the command's outcome; 202 if that takes longer; the
    refusal as a problem."""
    got = await _answer(service, table_id, seat_key(seat), seq, ANSWER_WAIT)
    if got is PENDING:
        return _position(seq)
    return _json(got[0].data)  # type: ignore[index]


@post("/tables/{table_id:str}/chat", status_code=202, summary="Post a chat message")
async def chat(table_id: str, data: ChatBody, request: Request, state: AppState) -> Position:
    service = _service(state)
    seat = await _seat(service, table_id, request, required=True)
    data = edge.strict(await request.body(), ChatBody)
    await state.rates.hit("chat", f"{table_id}:{seat}")
    seq = await service.submit(table_id, C.PostChat(seat=seat, text=data.text))
    return Position(position=seq)


@get("/tables/{table_id:str}/history", summary="Every event, once the game is over")
async def history(table_id: str, state: AppState) -> Response[bytes]:
    service = _service(state)
    t = await service.table(table_id)
    if t.state.step != "finished":
        raise ApiError(409, "not_finished_yet", "the history is public once the game is over")
    return _json(await service.history(table_id))


# --- the app ------------------------------------------------------------------------------------
def create_app(settings: Settings | None = None) -> Litestar:
    """The composition root: the real adapters, connected in the lifespan."""
    from gcbc.eventlog.jetstream import JetStreamEventLog
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
        app.state.service = service = TableService(events, model, settings.noop_rules)
        app.state.rates = RateLimits.on_redis(
            settings.redis_url,
            model.redis.connection_pool,
            {
                "create": settings.rate_create,
                "seat": settings.rate_seat,
                "chat": settings.rate_chat,
                "command": settings.rate_command,
            },
        )
        app.state.streams = OpenStreams(
            settings.streams_per_table, settings.streams_per_seat, settings.streams_per_client
        )
        tune_gc()
        follower = await service.follow()
        try:
            yield
        finally:
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
            stream,
            send_command,
            chat,
            history,
            *operations.ROUTES,  # /healthz, /readyz, /metrics (not in the OpenAPI document)
        ],
        lifespan=[lifespan],
        middleware=[operations.HttpMetrics()],
        exception_handlers=operations.counted(HANDLERS),
        guards=[edge.known_table_format],
        request_max_body_size=MAX_BODY,
        openapi_config=OpenAPIConfig(title="Good Cop Bad Cop", version="1.0.0", path="/schema"),
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
        timeout_graceful_shutdown=2,
        loop="uvloop",
        http="httptools",
        # X-Forwarded-For only from the proxies named: anyone else could pick its own address
        # and so its own per-client limits
        proxy_headers=bool(settings.forwarded_allow_ips),
        forwarded_allow_ips=settings.forwarded_allow_ips or None,
    )


if __name__ == "__main__":
    main()
