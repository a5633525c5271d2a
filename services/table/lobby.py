"""The lobby: tables opened, the tables waiting for players, and a table's public view."""

from __future__ import annotations

import secrets
from typing import Annotated, Any

import msgspec
from litestar import Controller, Request, Response, get, post
from litestar.datastructures import State as AppState
from litestar.params import Body, Parameter
from litestar.response import Stream

from gcbc.eventlog.port import OutcomeUnknown
from gcbc.readmodel.port import PUBLIC
from gcbc_contract import commands as C
from gcbc_contract.http import (
    CreateTable,
    Invitation,
    LobbyListing,
    TableCreated,
    TableCreatedLater,
)
from gcbc_contract.options import Deadlines, HouseBots, TableOptions
from gcbc_contract.wide import LARGEST
from services.common.settings import Settings
from services.table import answers, edge
from services.table import openapi as doc
from services.table.dependencies import (
    Service,
    client,
    finished_view,
    held_or_queued,
    in_lobby,
    room_in_the_house,
)
from services.table.lobby_feed import LOBBY
from services.table.openapi import TableId
from services.table.positions import MAX_CURSOR, Positions
from services.table.problems import ApiError, retry_later
from services.table.service import TableService, token_hash


class Lobby(Controller):
    @post(
        "/tables",
        tags=["lobby"],
        status_code=201,
        summary="Create a table",
        dto=edge.strict_body(CreateTable),
        return_dto=None,
        responses=doc.responses(
            {
                201: doc.ok(TableCreated, "the table, waiting for players", doc.CREATED_EXAMPLE),
                202: doc.ok(
                    TableCreatedLater,
                    "recorded, not answered within the wait: the table will be there",
                    {**doc.CREATED_EXAMPLE, "position": 17},
                ),
            },
            [403, 413, 415, 422, 429, 503],
        ),
    )
    async def create_table(
        self,
        data: Annotated[CreateTable, Body(examples=doc.CREATE_EXAMPLES)],
        request: Request,
        state: AppState,
        service: Service,
    ) -> Any:
        bots = _checked(data, state.settings)
        who = client(request)
        await state.rates.hit("create", who)
        house_seats = len(bots.seats) if bots is not None else 0
        if house_seats:
            room_in_the_house(state, house_seats)
        table_id = secrets.token_hex(8)  # gcbc_contract.ids: the server's own form
        await state.holdings.hold_table(
            who, table_id, house_seats, in_lobby(service), held_or_queued(service, state)
        )
        invitations = _invitations(data, bots)
        command = _opening(table_id, data, bots, state.settings, invitations)
        seq = await _open(service, command, who)
        created = TableCreated(
            table_id=table_id,
            seats=data.seats,
            options=data.options.with_defaults(),  # as the table records them (RULES §4 wounds)
            deadlines=command.deadlines,
            view_url=f"/tables/{table_id}",
            invitations=invitations,
        )
        # read-your-writes: the table is visible (GET /tables, its view) once this answers
        got = await answers.answer_or_pending(service, table_id, PUBLIC, seq, answers.LOBBY_WAIT)
        if got is answers.PENDING:  # recorded, not answered yet: the table will be there
            at = answers.position_of(state, table_id, seq)
            return answers.position(at, **msgspec.to_builtins(created))
        return created

    @get(
        "/tables",
        tags=["lobby"],
        summary="Tables waiting for players, oldest first (paginated)",
        description='A page of the lobby; the `Link` header\'s `rel="next"` names the next page.',
        responses=doc.responses(
            {200: doc.ok(list[LobbyListing], "the page", doc.LISTING_EXAMPLE)}, [422, 503]
        ),
    )
    async def list_tables(
        self,
        state: AppState,
        service: Service,
        limit: Annotated[int | None, Parameter(ge=1, le=200)] = None,
        after: Annotated[
            int,
            Parameter(
                ge=0,
                le=MAX_CURSOR,
                description="the opaque cursor of the Link rel=next (0: the first)",
            ),
        ] = 0,
    ) -> Response[bytes]:
        limit = limit or state.settings.lobby_page
        positions: Positions = state.positions
        page = await service.model.open_tables(limit, positions.after(after))
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
        "/lobby/stream",
        tags=["lobby"],
        summary="Server-Sent Events: the lobby's changes (wait for a table without polling)",
        description="First a `listed` event for each table waiting for players, then one event"
        " per change: `listed` (a table opened), `seats` (a seat taken or left), `filled` (every"
        " seat taken), `started` (its game began), `closed` (it left the lobby unstarted). Each"
        " event's name is its `type`; its `data` is a LobbyEvent. `: keep-alive` comments come"
        " after about 15 s of quiet. A reconnect starts again with the lobby as it is.",
        media_type="text/event-stream",
        responses=doc.responses({200: doc.LOBBY_STREAM}, [429]),
    )
    async def stream_lobby(self, request: Request, state: AppState) -> Stream:
        close = state.streams.open(LOBBY, client(request), None, kind="sse")
        return answers.event_stream(answers.closing(state.lobby.watch(), close), close)

    @get(
        "/tables/{table_id:str}",
        tags=["views"],
        summary="The public (spectator) view",
        responses=doc.responses({200: doc.PUBLIC_VIEW}, [404, 429, 503]),
    )
    async def public_view(
        self, table_id: TableId, request: Request, state: AppState, service: Service
    ) -> Response[bytes]:
        await service.exists(table_id)
        got = await service.view(table_id, None)
        if got is None:
            got = await finished_view(service, state, request, table_id, None)
        if got is None:
            raise ApiError(404, "no_table", f"there is no table {table_id}")
        return answers.json(got.data)


def _checked(data: CreateTable, settings: Settings) -> HouseBots | None:
    """What this server allows of a new table (scenarios, options, first seat, deadlines), and
    its house bots as the table records them."""
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
    check_offered(data.options, settings)
    if data.seed is not None and not 0 <= int(data.seed) <= LARGEST:
        raise ApiError(422, "invalid_body", f"a seed is from 0 to {LARGEST}", "seed")
    if data.first_seat is not None and not 0 <= data.first_seat < data.seats:
        raise ApiError(422, "invalid_body", "first_seat is a seat of the table", "first_seat")
    if data.deadlines is not None:
        edge.check_deadlines(data.deadlines, settings, house=data.bots is not None)
    house = len(data.bots.seats) if data.bots is not None else 0
    if data.invitations > data.seats - house:
        raise ApiError(
            422,
            "invalid_body",
            f"invitations keep seats the house does not play: at most {data.seats - house} here",
            "invitations",
        )
    return edge.check_bots(data.bots, data.seats, settings) if data.bots is not None else None


def check_offered(options: TableOptions, settings: Settings) -> None:
    """docs/api.md: an option this server does not offer is refused with 422, never ignored."""
    asked = ["classic"] if options.edition == "classic" else []
    asked += [f for f in ("zombies", "bombers_traitors", "extra_equipment") if getattr(options, f)]
    if options.chooses_wounds():  # RULES §4: not the edition's own placement
        asked.append("wounds")
    for name in asked:
        if name not in settings.options_offered:
            field = "options.edition" if name == "classic" else f"options.{name}"
            raise ApiError(422, "option_not_offered", f"this server does not offer '{name}'", field)


def _invitations(data: CreateTable, bots: HouseBots | None) -> list[Invitation]:
    """The seats kept for invitees, the last ones the house does not play (so the creator's
    own seat, taken next, is the first), each with a fresh code."""
    house = set(bots.seats) if bots is not None else set()
    free = [i for i in range(data.seats) if i not in house]
    kept = free[len(free) - data.invitations :] if data.invitations else []
    return [Invitation(seat=i, code=secrets.token_urlsafe(12)) for i in kept]


def _opening(
    table_id: str,
    data: CreateTable,
    bots: HouseBots | None,
    settings: Settings,
    invitations: list[Invitation],
) -> C.OpenTable:
    return C.OpenTable(
        table_id=table_id,
        seats=data.seats,
        options=data.options,
        deadlines=data.deadlines or Deadlines(),
        deal=data.deal,
        first_seat=data.first_seat,
        random_seed=None if data.seed is None else int(data.seed),  # the log keeps an integer
        chat_per_seat=settings.chat_per_seat,  # the table's terms: refused in the rules
        bots=bots,
        held=tuple(i.seat for i in invitations),
        invitations=tuple(token_hash(i.code) for i in invitations),
        rated=data.rated,
    )


async def _open(service: TableService, command: C.OpenTable, who: str) -> int:
    """Append the table's opening (noted as the client's already: ``Holdings.hold_table``): its
    sequence; 503 naming the table when the log cannot say whether it took it."""
    table_id = command.table_id
    try:
        seq = await service.append_command(table_id, command, new_table=True, owner=who)
    except OutcomeUnknown:
        raise retry_later(
            "outcome_unknown",
            "the table may or may not have been created: GET /tables/{table_id} tells (404: it"
            " was not; an unused table closes by itself)",
            table_id=table_id,
        ) from None
    return seq
