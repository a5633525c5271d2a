"""Playing at a seat: its commands, its chat, and the rematch once the game is over."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from typing import Annotated

from litestar import Controller, Request, Response, post
from litestar.datastructures import State as AppState
from litestar.params import Body

from gcbc.eventlog.port import OutcomeUnknown
from gcbc.readmodel.port import PUBLIC
from gcbc.rules.state import State
from gcbc_contract import commands as C
from gcbc_contract.commands import ClientCommand, to_engine
from gcbc_contract.http import Chat, Position, Rematch
from services.common.folded import FoldedTable
from services.table import answers, edge
from services.table import openapi as doc
from services.table.dependencies import (
    MySeat,
    Service,
    client,
    held_or_queued,
    holding,
    in_lobby,
    room_in_the_house,
)
from services.table.openapi import TableId
from services.table.problems import ApiError, retry_later
from services.table.service import TableService, token_hash


class Play(Controller):
    @post(
        "/tables/{table_id:str}/commands",
        tags=["play"],
        status_code=200,
        summary="Send a command",
        description="A command of the seat your token names. Your view's `legal_commands` lists"
        " what you may send now. 200: your view once it shows the outcome; 202: recorded, the"
        " outcome comes later; a refusal is a problem and records nothing.",
        security=doc.BEARER,
        dto=edge.strict_body(ClientCommand),
        return_dto=None,
        responses=doc.responses(
            {200: doc.VIEW, 202: doc.POSITION}, [401, 403, 404, 409, 413, 415, 422, 429, 503]
        ),
    )
    async def send_command(
        self,
        table_id: TableId,
        data: Annotated[
            ClientCommand,
            Body(examples=doc.COMMAND_EXAMPLES, schema_extra=doc.COMMAND_DISCRIMINATOR),
        ],
        request: Request,
        state: AppState,
        service: Service,
        my_seat: MySeat,
    ) -> Response[bytes]:
        edge.check_command_id(data.command_id)
        holder = holding(service, table_id, my_seat)
        await state.rates.hit("command", holder)
        if not service.house_seat(table_id, my_seat):  # the bot worker's seats: paced by it
            await state.rates.hit("client_command", client(request))
        command = to_engine(data, my_seat)
        if type(command) is C.SetAutoPass:
            await state.rates.hit("presence", holder)
        seq = await service.append_command(table_id, command)
        return await answers.view_once_answered(state, service, table_id, my_seat, seq)

    @post(
        "/tables/{table_id:str}/chat",
        tags=["play"],
        status_code=202,
        summary="Post a chat message",
        security=doc.BEARER,
        dto=edge.strict_body(Chat),
        return_dto=None,
        responses=doc.responses({202: doc.POSITION}, [401, 403, 404, 409, 413, 415, 422, 429, 503]),
    )
    async def post_chat(
        self,
        table_id: TableId,
        data: Annotated[
            Chat,
            Body(examples=[doc.Example(summary="talk", value={"text": "seat 2 is crooked"})]),
        ],
        request: Request,
        state: AppState,
        service: Service,
        my_seat: MySeat,
    ) -> Position:
        await state.rates.hit("chat", holding(service, table_id, my_seat))
        await state.rates.hit("client_chat", client(request))
        t = service.cache.tables.get(table_id)  # (held: the seat's token was just checked on it)
        if t is not None and t.state.step == "finished":
            # the rules worker keeps no finished table: each message there reads it back (its
            # snapshot and the entries after it) and writes its snapshot again
            await state.rates.hit("log_read", client(request))
        seq = await service.append_command(table_id, C.PostChat(seat=my_seat, text=data.text))
        return Position(position=answers.position_of(state, table_id, seq))

    @post(
        "/tables/{table_id:str}/rematch",
        tags=["play"],
        status_code=201,
        summary="Play again: the same seats and options at a new table",
        description="A finished table's players each ask with their token: the first opens the"
        " rematch (a new table id, the same options, deadlines and house bots, a new deal) and"
        " every player gets its own seat back there, under its name, with a new token. Seats"
        " not claimed are kept for their players until the table closes unstarted; strangers"
        " take only the others.",
        security=doc.BEARER,
        responses=doc.responses(
            {
                201: doc.ok(
                    Rematch,
                    "the new table, your seat there and its token",
                    {"table_id": "9f86d081884c7d65", "seat": 0, "token": "tOk3n…"},
                )
            },
            [401, 403, 404, 409, 429, 503],
        ),
    )
    async def rematch(
        self,
        table_id: TableId,
        request: Request,
        state: AppState,
        service: Service,
        my_seat: MySeat,
    ) -> Rematch:
        finished = await service.table(table_id)
        old = finished.state
        if old.step != "finished":
            raise ApiError(409, "not_finished_yet", "a rematch follows a finished table")
        if not any(st is not None and st.cards for st in old.seats):
            raise ApiError(409, "game_not_started", "this table closed before its game started")
        new_id = rematch_id(table_id)
        token = _rematch_token(state, finished, my_seat, new_id)
        again = await _claimed_already(service, new_id, my_seat, token)
        if again is not None:
            return again  # asked again (its answer lost): the same seat, the same token
        who = client(request)
        await state.rates.hit("seat", who)
        await state.holdings.hold_seat(
            who, new_id, token_hash(token), held_or_queued(service, state)
        )
        player_id = finished.players.get(my_seat)
        matchmaker = getattr(state, "matchmaker", None)
        if player_id is not None and matchmaker is not None:
            await matchmaker.not_queued(player_id)  # one table at a time
        await _open_rematch(service, state, who, _rematch_opening(old, table_id, new_id, state))
        kept = old.seats[my_seat]
        name = kept.name if kept is not None else f"seat {my_seat}"
        claim = C.TakeSeat(name=name, bot=kept is not None and kept.bot, seat_wanted=my_seat)
        # a registered player's seat is the player's at the rematch too
        player = await state.identities.rejoining(player_id, new_id)
        await _claim(service, new_id, claim, token, player)
        return Rematch(table_id=new_id, seat=my_seat, token=token)


def rematch_id(table_id: str) -> str:
    """The rematch of a table has one id whoever asks first (the same form as any table's)."""
    return hashlib.sha256(f"rematch:{table_id}".encode()).hexdigest()[:16]


def _rematch_opening(old: State, table_id: str, new_id: str, state: AppState) -> C.OpenTable:
    """The finished table's seats, options, deadlines and house bots at a new table, its
    players' seats kept for them."""
    bots = old.house_bots
    house = set(bots.seats) if bots else set()
    return C.OpenTable(
        table_id=new_id,
        seats=len(old.seats),
        options=old.options,
        deadlines=old.deadlines,
        chat_per_seat=state.settings.chat_per_seat,
        bots=bots,
        rematch_of=table_id,
        rated=old.rated,
        held=tuple(i for i in range(len(old.seats)) if i not in house),
    )


def _rematch_token(state: AppState, finished: FoldedTable, seat: int, new_id: str) -> str:
    """The seat's token at the rematch: the same whenever it is asked (an answer lost is asked
    for again), secret as any (keyed with the service's secret, from the old seat's token's
    hash, which only the log holds); a seat with no token of its own gets a new one."""
    held = finished.tokens.get(seat)
    if held is None:
        return secrets.token_urlsafe(24)
    mac = hmac.new(state.ticket_secret, f"rematch:{new_id}:{held}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()[:18]).decode()


async def _claimed_already(
    service: TableService, new_id: str, seat: int, token: str
) -> Rematch | None:
    """The rematch's answer again, if ``token`` holds the seat there already."""
    try:
        t = await service.table(new_id)
    except ApiError:
        return None  # not opened yet
    if service.seat_of(t, token) != seat:
        return None
    return Rematch(table_id=new_id, seat=seat, token=token)


async def _open_rematch(
    service: TableService, state: AppState, who: str, opening: C.OpenTable
) -> None:
    """Open the rematch unless another player did (counted as the client's table, as any it
    opens: a finished table's rematch is no way past the caps)."""
    try:
        await service.table(opening.table_id)
        return  # opened already: its seat is claimed there
    except ApiError:
        pass
    house_seats = len(opening.bots.seats) if opening.bots is not None else 0
    if house_seats:
        room_in_the_house(state, house_seats)
    await state.holdings.hold_table(
        who, opening.table_id, house_seats, in_lobby(service), held_or_queued(service, state)
    )
    try:
        seq = await service.append_command(opening.table_id, opening, new_table=True, owner=who)
        await answers.answer(service, opening.table_id, PUBLIC, seq, answers.LOBBY_WAIT)
    except ApiError as e:
        if e.code != "table_exists":  # another player opened it first: claim the seat there
            raise
    except (OutcomeUnknown, *answers.AFTER_APPEND):
        # asking again is safe: the rematch's id and the seat's token there are the same
        raise retry_later(
            "outcome_unknown",
            "the rematch may or may not be opened yet: ask for it again",
            table_id=opening.table_id,
        ) from None


async def _claim(
    service: TableService,
    new_id: str,
    claim: C.TakeSeat,
    token: str,
    player: str | None = None,
) -> None:
    """The player's seat at the rematch, under ``token``, once answered."""
    # the token is the player's only way to the new seat: a 503 that may have claimed it says it
    unknown = retry_later(
        "outcome_unknown",
        "the seat may or may not be claimed yet: GET /tables/{table_id}/view with this token"
        " tells (403: it was not)",
        table_id=new_id,
        token=token,
    )
    try:
        seq = await service.append_command(
            new_id, claim, token_hash_=token_hash(token), player=player
        )
        got = await answers.answer(service, new_id, PUBLIC, seq, answers.LOBBY_WAIT)
    except (OutcomeUnknown, *answers.AFTER_APPEND):
        raise unknown from None
    if got is answers.PENDING:
        raise unknown
