"""The table service's HTTP API (API.md): thin controllers over ``TableService``. Connections
open in the lifespan; every error leaves as problem+json with a stable code."""

from __future__ import annotations

import asyncio
import os
import random
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated, Any

import msgspec
from litestar import Litestar, Request, Response, delete, get, post
from litestar.datastructures import State as AppState
from litestar.openapi import OpenAPIConfig
from litestar.params import Parameter
from litestar.response import Stream

from gcbc.contract import commands as C
from gcbc.contract.entries import OutcomeEntry, decode_entry
from gcbc.contract.options import Deadlines, Deal, TableOptions
from gcbc.contract.views import View
from gcbc.eventlog.jetstream import JetStreamEventLog
from gcbc.readmodel.redis import RedisReadModel
from services.runner import tune_gc
from services.settings import Settings
from services.table.notifier import Notifier
from services.table.problems import HANDLERS, ApiError, status_for
from services.table.service import TableService, token_hash, view_version

MAX_BODY = 64 * 1024
ANSWER_WAIT = 1.0  # API.md: 200 with the view, or 202 if the outcome takes longer than ~1 s
LOBBY_WAIT = 10.0  # lobby requests wait longer for their answer (a seat must not be lost)


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


def _raise_if_refused(answer: Any) -> Any:
    """The rules worker's refusal of a command, as the problem the client gets."""
    if answer.refusal is not None:
        r = answer.refusal
        raise ApiError(status_for(r.code), r.code, r.message)
    return answer


async def _refused_or(
    service: TableService, table_id: str, seq: int, wait: float = LOBBY_WAIT
) -> Any:
    return _raise_if_refused(await service.answer(table_id, seq, wait))


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
async def create_table(data: CreateTable, state: AppState) -> TableCreated:
    service = _service(state)
    settings: Settings = state.settings
    if data.deal is not None and not settings.allow_scenarios:
        raise ApiError(
            403,
            "scenarios_not_allowed",
            "scenario tables need the services to run with GCBC_ALLOW_SCENARIOS=1",
            "deal",
        )
    _check_offered(data.options, settings)
    table_id = secrets.token_hex(8)
    command = C.OpenTable(
        table_id=table_id,
        seats=data.seats,
        options=data.options,
        deadlines=data.deadlines or Deadlines(),
        deal=data.deal,
        first_seat=data.first_seat,
        random_seed=data.seed,
    )
    seq = await service.submit(table_id, command, new_table=True)
    answer = await _refused_or(service, table_id, seq)
    # read-your-writes: the table is visible (GET /tables, its view) once this answers
    await service.view_after(table_id, None, None, ANSWER_WAIT, answer.answer_seq or seq)
    return TableCreated(
        table_id=table_id,
        seats=data.seats,
        options=data.options.with_defaults(),  # as the table records them (RULES §4 wounds)
        deadlines=command.deadlines,
        view_url=f"/tables/{table_id}",
    )


@get("/tables", summary="Tables waiting for players")
async def list_tables(state: AppState) -> Response[bytes]:
    summaries = await _service(state).model.open_tables()
    return _json(b"[" + b",".join(summaries) + b"]")


@get("/tables/{table_id:str}", summary="The public (spectator) view", response_model=View)
async def public_view(table_id: str, state: AppState) -> Response[bytes]:
    service = _service(state)
    await service.table(table_id)
    data = await service.view_after(table_id, None, None, 0)
    if data is None:
        raise ApiError(404, "no_table", f"there is no table {table_id}")
    return _json(data)


@post("/tables/{table_id:str}/seats", status_code=201, summary="Take a seat")
async def take_seat(
    table_id: str, data: TakeSeatBody, state: AppState
) -> SeatGranted | Response[bytes]:
    service = _service(state)
    await service.table(table_id)
    token = secrets.token_urlsafe(24)
    digest = token_hash(token)
    seq = await service.submit(table_id, C.TakeSeat(name=data.name), token_hash_=digest)
    answer = await _refused_or(service, table_id, seq)
    t = await service.table(table_id)
    seat = service.seat_of(t, token)
    if answer.answer_seq is None or seat is None:
        # recorded, not answered yet: the token is the client's only way to its seat, so it
        # gets it now (its view will say which seat once the rules worker answers)
        body = {"position": seq, "token": token}
        return Response(
            content=msgspec.json.encode(body), status_code=202, media_type="application/json"
        )
    await service.view_after(table_id, None, None, ANSWER_WAIT, answer.answer_seq)
    return SeatGranted(seat=seat, token=token)


@delete(
    "/tables/{table_id:str}/seats/{seat:int}", status_code=204, summary="Leave before the start"
)
async def leave_seat(table_id: str, seat: int, request: Request, state: AppState) -> None:
    service = _service(state)
    mine = await _seat(service, table_id, request, required=True)
    if mine != seat:
        raise ApiError(403, "forbidden", "you can only leave your own seat")
    seq = await service.submit(table_id, C.LeaveSeat(seat=seat))
    await _refused_or(service, table_id, seq)


@post("/tables/{table_id:str}/start", status_code=200, summary="Start once every seat is taken")
async def start(table_id: str, request: Request, state: AppState) -> Response[bytes]:
    service = _service(state)
    seat = await _seat(service, table_id, request, required=True)
    seq = await service.submit(table_id, C.StartGame(seat=seat, random_seed=secrets.randbits(62)))
    answer = await _refused_or(service, table_id, seq)
    got = None
    if answer.answer_seq is not None:
        got = await service.view_at(table_id, seat, None, ANSWER_WAIT, answer.answer_seq)
    if got is None or answer.answer_seq is None or got[0] < answer.answer_seq:
        return _json(msgspec.json.encode(Position(position=seq)), 202)
    return _json(got[1])


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
    data = await service.view_after(table_id, seat, after, timeout if after is not None else 0)
    if data is None:
        raise ApiError(404, "no_table", f"there is no table {table_id}")
    return _json(data)


@get(
    "/tables/{table_id:str}/stream",
    summary="Server-Sent Events: one per view change (data = the view)",
    media_type="text/event-stream",
)
async def stream(table_id: str, request: Request, state: AppState) -> Stream:
    service = _service(state)
    seat = await _seat(service, table_id, request, required=False)

    token = _bearer(request)

    async def events() -> AsyncIterator[bytes]:
        version = -1
        while True:
            got = await service.view_at(table_id, seat, version, random.uniform(12.0, 18.0))
            if got is None:
                return
            position, data = got
            if seat is not None:
                # the seat may have been left and taken by someone else: check the token against
                # the table as of this view before sending it
                t = service.cache.tables.get(table_id)
                if t is None or t.seq < position:
                    t = await service.cache.get(table_id)
                if service.seat_of(t, token) != seat:
                    return
            current = view_version(data)
            if current > version:
                version = current
                # a view is one line of JSON: the event is written as is, no re-encoding
                yield b"data: " + data + b"\r\n\r\n"
            else:
                yield b": keep-alive\r\n\r\n"  # a comment, not an event (jittered ~15 s)

    return Stream(
        events(),
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
    if data.seat != -1:
        raise ApiError(422, "invalid_body", "seat comes from your token, not the body", "seat")
    command = msgspec.structs.replace(data, seat=seat)
    seq = await service.submit(table_id, command)
    answer = _raise_if_refused(await service.answer(table_id, seq, ANSWER_WAIT))
    if answer.answer_seq is None:
        return _json(msgspec.json.encode(Position(position=seq)), 202)
    got = await service.view_at(table_id, seat, None, ANSWER_WAIT, answer.answer_seq)
    if got is None or got[0] < answer.answer_seq:
        return _json(msgspec.json.encode(Position(position=seq)), 202)
    return _json(got[1])


@post("/tables/{table_id:str}/chat", status_code=202, summary="Post a chat message")
async def chat(table_id: str, data: ChatBody, request: Request, state: AppState) -> Position:
    service = _service(state)
    seat = await _seat(service, table_id, request, required=True)
    seq = await service.submit(table_id, C.PostChat(seat=seat, text=data.text))
    return Position(position=seq)


@get("/tables/{table_id:str}/history", summary="Every event, once the game is over")
async def history(table_id: str, state: AppState) -> Response[bytes]:
    service = _service(state)
    t = await service.table(table_id)
    if t.state.step != "finished":
        raise ApiError(409, "not_finished_yet", "the history is public once the game is over")
    events: list[Any] = []
    for stored in await service.events.read(table_id):
        entry = decode_entry(stored.data)
        if isinstance(entry, OutcomeEntry):
            events += entry.events
    return _json(msgspec.json.encode({"table_id": table_id, "events": events}))


# --- the app ------------------------------------------------------------------------------------
def create_app(settings: Settings | None = None) -> Litestar:
    settings = settings or Settings.from_env()

    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        events = await JetStreamEventLog.connect(settings.nats_url, settings.stream_replicas)
        model = RedisReadModel.connect(settings.redis_url)
        notifier = Notifier(model.redis)
        await notifier.start()
        app.state.settings = settings
        app.state.service = service = TableService(events, model, notifier, settings.noop_rules)
        tune_gc()
        stop = asyncio.Event()
        follower = asyncio.create_task(service.follow(stop))
        try:
            yield
        finally:
            stop.set()
            await asyncio.gather(follower, return_exceptions=True)
            await notifier.stop()
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
        ],
        lifespan=[lifespan],
        exception_handlers=HANDLERS,
        request_max_body_size=MAX_BODY,
        openapi_config=OpenAPIConfig(title="Good Cop Bad Cop", version="1.0.0", path="/schema"),
        debug=False,
    )


def main() -> None:
    import logging

    import uvicorn

    logging.basicConfig(level=logging.INFO, format="%(asctime)s table: %(message)s")
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
    )


if __name__ == "__main__":
    main()
