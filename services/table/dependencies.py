"""What the table service's handlers are given (Litestar's dependency injection): the
``TableService`` and the seat a request's bearer token names; and who is asking."""

from __future__ import annotations

from collections.abc import Callable
from typing import NoReturn

from litestar import Request
from litestar.datastructures import State as AppState
from litestar.di import NamedDependency, Provide

from gcbc.players.log import player_of_token
from gcbc.readmodel.port import StoredView
from services.common.folded import FoldedTable
from services.table.client_limits import client_of
from services.table.holdings import StillHeld
from services.table.problems import ApiError, not_a_seat
from services.table.service import TableService


def client(request: Request) -> str:
    """Who a per-client limit counts: the peer's address, an IPv6 one by its /64 (behind a
    proxy, run uvicorn with --forwarded-allow-ips so this is the real client)."""
    return client_of(request.client.host) if request.client else "unknown"


async def finished_view(
    service: TableService, state: AppState, request: Request, table_id: str, seat: int | None
) -> StoredView | None:
    """A finished table's view once its views expired from the read model, made from its log
    (``TableService.finished_view``): the log's read counts against the client's log reads."""
    return await service.finished_view(
        table_id, seat, lambda: state.rates.hit("log_read", client(request))
    )


def holding(service: TableService, table_id: str, seat: int) -> str:
    """Who a per-seat limit counts: the seat as this taking of it holds it (the hash of the token
    it was taken with, whichever of its player's tokens acts for it), so a seat left and taken
    again is a new taker's afresh, not spent by the one before."""
    t = service.cache.tables.get(table_id)  # (held: the seat's token was just checked on it)
    taking = t.tokens.get(seat, "")[:16] if t is not None else ""
    return f"{table_id}:{seat}:{taking}"


def bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip() or None
    return None


async def seat_of(
    service: TableService, table_id: str, request: Request, required: bool
) -> int | None:
    """The seat the request's bearer token names (None: an anonymous look, if not
    ``required``); 401 without a token, 403 with one that names no seat of the table. A token
    for a table this process does not hold costs a fold of its log: each one refused counts
    against the client's ``refused_token`` budget, and past it such a token is not looked at."""
    token = bearer(request)
    if token is None:
        await service.exists(table_id)  # 404 before 401: there is no such table
        if required:
            raise ApiError(401, "unauthorized", "this needs your seat's bearer token")
        return None  # an anonymous look
    if service.player_of is not None and player_of_token(token):
        return await _player_seat(service, table_id, request, token)
    cached = service.cache.tables.get(table_id)
    if cached is not None:
        seat = service.seat_of(cached, token)  # a known token needs no trip to the log
        if seat is not None:
            return seat
    t = await _folded(service, table_id, request)
    seat = service.seat_of(t, token)
    if seat is None:
        await _refused(request)
    return seat


async def _player_seat(service: TableService, table_id: str, request: Request, token: str) -> int:
    """The seat a registered player holds at the table, its token checked on the player's log
    (403 as for a seat's token: not its current token, or no seat of its here)."""
    identities = request.app.state.identities
    await service.exists(table_id)
    try:
        p = await identities.authenticate(token)
    except ApiError as e:
        if e.status == 403:
            await _refused(request)
        raise
    seat = service.player_seat(await _folded(service, table_id, request), p.player_id)
    if seat is None:
        await _refused(request)
    return seat


async def _folded(service: TableService, table_id: str, request: Request) -> FoldedTable:
    """The table, caught up with its log. One not held here costs a fold of its log: 429 first
    if the client is past its budget of refused tokens or of log reads, and a finished one counts
    as a log read (a table in play stays held once read; a finished one may leave memory again,
    so a client with seats at many could have their whole logs folded over and over)."""
    if table_id in service.cache.tables:
        return await service.table(table_id)
    rates, who = request.app.state.rates, client(request)
    rates.check("refused_token", who)
    rates.check("log_read", who)
    t = await service.table(table_id)
    if t.state.step == "finished":
        await rates.hit("log_read", who)
    return t


async def _refused(request: Request) -> NoReturn:
    """403 for a token that names no seat here, counted against the client's budget."""
    await request.app.state.rates.hit("refused_token", client(request))
    raise not_a_seat()


def _looked_at(service: TableService, test: Callable[[FoldedTable, str | None], bool]) -> StillHeld:
    """``test`` of a table as this process holds it (False for no table)."""

    async def held(table_id: str, token_hash_: str | None) -> bool:
        try:
            t = await service.table(table_id, held=True)
        except ApiError:
            return False
        return test(t, token_hash_)

    return held


def still_held(service: TableService) -> StillHeld:
    """Whether a table is not over, and (given a token's hash) that seat still that token's."""
    return _looked_at(
        service,
        lambda t, token_hash_: (
            t.state.step != "finished" and (token_hash_ is None or token_hash_ in t.tokens.values())
        ),
    )


# a seat (or a house table) held for a place in the queue (its player's id after it)
QUEUED = "queued:"


def held_or_queued(service: TableService, state: AppState) -> StillHeld:
    """Whether a client's seat or house table is held still: at a table not over, or for a place
    in the queue (``QUEUED`` and its player: waiting, or placed at a table not over)."""
    tables = still_held(service)

    async def held(key: str, token_hash_: str | None) -> bool:
        if key.startswith(QUEUED):
            matchmaker = getattr(state, "matchmaker", None)
            return matchmaker is not None and await matchmaker.holds_place(key[len(QUEUED) :])
        return await tables(key, token_hash_)

    return held


HOUSE_FULL_RETRY = 30  # seconds a table refused for the house's cap waits (games last minutes)


def room_in_the_house(state: AppState, seats: int, starting: str = "") -> None:
    """503 house_full if ``seats`` more house seats would pass the house's cap (its seats in
    play over the whole server, ``GCBC_HOUSE_SEATS``), at a table's opening or at the start of
    table ``starting``: each process counts the tables started, so processes starting tables at
    the same moment may pass it by a table or two."""
    in_play = getattr(state, "house_in_play", None)
    cap = state.settings.house_seats
    room = in_play.room(cap, starting) if in_play is not None else None
    if room is not None and seats > room:
        raise ApiError(
            503,
            "house_full",
            f"the house plays {cap} seats at once and has {room} free: start again later"
            if starting
            else f"the house plays {cap} seats at once and has {room} free:"
            " open a table with fewer house seats, or try again later",
            None if starting else "bots.seats",
            headers={"Retry-After": str(HOUSE_FULL_RETRY)},
        )


def in_lobby(service: TableService) -> StillHeld:
    """Whether a table still waits for players (not started, not closed)."""
    return _looked_at(service, lambda t, _: t.state.step == "lobby")


Service = NamedDependency[TableService]
MySeat = NamedDependency[int]  # the seat the request's bearer token names (401/403 if none)


def provide_service(state: AppState) -> TableService:
    return state.service


async def provide_my_seat(request: Request, service: Service) -> int:
    """The seat of a request that needs one (its table id read from the path: the handler
    declares and documents it)."""
    seat = await seat_of(service, request.path_params["table_id"], request, required=True)
    assert seat is not None
    return seat


DEPENDENCIES = {
    "service": Provide(provide_service, sync_to_thread=False),
    "my_seat": Provide(provide_my_seat),
}
