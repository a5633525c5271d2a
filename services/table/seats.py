"""A seat: taken, left, the game started from it, and its view (read, long-polled, streamed)."""

from __future__ import annotations

import asyncio
import hmac
import secrets
import time
from typing import Annotated

from litestar import Controller, Request, Response, delete, get, post
from litestar.datastructures import State as AppState
from litestar.params import Body, HeaderParameter, Parameter, PathParameter
from litestar.response import Stream

from gcbc.eventlog.port import OutcomeUnknown
from gcbc.players.folded import FoldedPlayer
from gcbc.readmodel.port import PUBLIC, seat_key
from gcbc.rules import names
from gcbc.rules.state import State
from gcbc_contract import commands as C
from gcbc_contract.http import SeatGranted, SeatLater, StreamTicket, TakeSeat
from services.common.folded import FoldedTable
from services.common.settings import Settings
from services.table import answers, edge, holders, tickets
from services.table import openapi as doc
from services.table.dependencies import (
    MySeat,
    Service,
    bearer,
    client,
    finished_view,
    held_or_queued,
    holding,
    room_in_the_house,
    seat_of,
)
from services.table.openapi import TableId
from services.table.problems import ApiError, not_a_seat, retry_later
from services.table.service import TableService, token_hash


class Seats(Controller):
    @post(
        "/tables/{table_id:str}/seats",
        tags=["seats"],
        status_code=201,
        summary="Take a seat",
        dto=edge.strict_body(TakeSeat),
        return_dto=None,
        responses=doc.responses(
            {
                201: doc.ok(SeatGranted, "your seat and its token", {"seat": 1, "token": "tOk3n…"}),
                202: doc.ok(
                    SeatLater,
                    "recorded, not answered within the wait: the token is yours",
                    {"position": 18, "token": "tOk3n…"},
                ),
            },
            [403, 404, 409, 413, 415, 422, 429, 503],
        ),
    )
    async def take_seat(
        self,
        table_id: TableId,
        data: Annotated[
            TakeSeat,
            Body(
                examples=[
                    doc.Example(summary="a name", value={"name": "ann"}),
                    doc.Example(
                        summary="the seat an invitation keeps for you",
                        value={"name": "dee", "invitation": "q7Yx0dTz2kLm3bVn"},
                    ),
                ]
            ),
        ],
        request: Request,
        state: AppState,
        service: Service,
    ) -> SeatGranted | Response[bytes]:
        who = client(request)
        at_table = f"{who} {table_id}"
        state.rates.check("table_seat", at_table)
        await state.rates.hit("seat", who)  # (before the fold of a table not held here)
        table = await service.table(table_id)
        token = secrets.token_urlsafe(24)
        await state.holdings.hold_seat(
            who, table_id, token_hash(token), held_or_queued(service, state)
        )
        # a registered player's token (optional): the seat is recorded as the player's
        player = await state.identities.seating(table, bearer(request))
        if player is not None and (matchmaker := getattr(state, "matchmaker", None)) is not None:
            await matchmaker.not_queued(player.player_id)
        bot = data.bot or (player is not None and player.bot)
        if player is None and table.state.rated:
            raise ApiError(
                403,
                "players_only",
                "a rated table's seats are taken by registered players: send your player's token",
            )
        if data.invitation is not None:
            claim = C.TakeSeat(
                name=data.name, bot=bot, seat_wanted=_invited_seat(table, data.invitation)
            )
        else:
            await _not_a_held_name(service, table.state, data.name)
            claim = C.TakeSeat(name=data.name, bot=bot)
        if player is not None:  # its tables are those noted where the table says it holds a seat
            # (a seat the rules refuse is never noted: a game begun, a full table)
            service.check(table, claim)
            await state.identities.joined(player, table_id)
        seq = await _take(service, table_id, claim, token, player)
        await state.rates.done("table_seat", at_table)  # (one refused before it is recorded: free)
        got = await answers.answer_or_pending(service, table_id, PUBLIC, seq, answers.LOBBY_WAIT)
        if got is answers.PENDING or got[1].seat is None:  # type: ignore[index]
            # recorded, not answered yet: the token is the client's only way to its seat, so it
            # gets it now (its view will say which seat once the rules worker answers)
            return answers.position(answers.position_of(state, table_id, seq), token=token)
        return SeatGranted(seat=got[1].seat, token=token)  # type: ignore[index]

    @delete(
        "/tables/{table_id:str}/seats/{seat:int}",
        tags=["seats"],
        status_code=204,
        summary="Leave: before the start, the seat is free again; after it, you are away",
        description="Once the game has started a seat that leaves is away (RULES §10): its"
        " autopilot plays, its cards stay secret, and its token brings it back until the end"
        " (`resume`, or any command).",
        security=doc.BEARER,
        responses=doc.responses({202: doc.POSITION}, [401, 403, 404, 409, 429, 503]),
    )
    async def leave_seat(
        self,
        table_id: TableId,
        seat: Annotated[int, PathParameter(description="your seat (from 0)")],
        state: AppState,
        service: Service,
        my_seat: MySeat,
    ) -> None:
        """204 once left; 202 and the position if that takes longer (a Response, not None)."""
        if my_seat != seat:
            raise ApiError(403, "forbidden", "you can only leave your own seat")
        t = await service.table(table_id)
        started = t.state.step != "lobby"
        if started:  # away, and back with any command: counted as auto-pass changes are
            await state.rates.hit("presence", holding(service, table_id, seat))
        elif t.players:  # (quick play seats registered players only)
            await not_starting(state, table_id)
        seq = await service.append_command(table_id, C.LeaveSeat(seat=seat))
        # a lobby seat is free again (its answer is public); a player stays seated, away
        viewer = seat_key(seat) if started else PUBLIC
        got = await answers.answer_or_pending(service, table_id, viewer, seq, answers.LOBBY_WAIT)
        if got is answers.PENDING:
            # recorded: the seat is left once the rules worker answers
            return answers.position(answers.position_of(state, table_id, seq))
        # the token's next request here finds its seat left, whatever it asks (docs/api.md)
        await service.cache.reached(table_id, got[0].position, holders.FOLLOW_WAIT)  # type: ignore[index]
        return Response(content=b"", status_code=204)

    @post(
        "/tables/{table_id:str}/start",
        tags=["seats"],
        status_code=200,
        summary="Start once every seat is taken",
        security=doc.BEARER,
        responses=doc.responses({200: doc.VIEW, 202: doc.POSITION}, [401, 403, 404, 409, 429, 503]),
    )
    async def start_game(
        self,
        table_id: TableId,
        request: Request,
        state: AppState,
        service: Service,
        my_seat: MySeat,
    ) -> Response[bytes]:
        # the house's starts are paced by the bot worker; a refused start costs nothing
        counted = not service.house_seat(table_id, my_seat)
        if counted:
            state.rates.check("start", client(request))
        # the seed comes from the server's entropy and stays secret until the end (DESIGN
        # property 3)
        command = C.StartGame(seat=my_seat, random_seed=secrets.randbits(62))
        bots = service.house_bots(table_id)
        if bots is not None:  # its house seats count against the house's cap from its start
            service.check(await service.table(table_id), command)  # (the rules' refusal first)
            room_in_the_house(state, len(bots.seats), starting=table_id)
        seq = await service.append_command(table_id, command)
        if counted:
            await state.rates.done("start", client(request))
        return await answers.view_once_answered(state, service, table_id, my_seat, seq)

    @get(
        "/tables/{table_id:str}/view",
        tags=["views"],
        summary="Your view (long-poll with after/timeout)",
        description="With a bearer token, your seat's view; without, the public one. With"
        " `after`, it answers as soon as the view's `version` is greater, or with the current"
        " view after `timeout` seconds.",
        security=[*doc.BEARER, {}],
        responses=doc.responses({200: doc.VIEW}, [403, 404, 422, 429, 503]),
    )
    async def seat_view(
        self,
        table_id: TableId,
        request: Request,
        state: AppState,
        service: Service,
        after: Annotated[int | None, Parameter(ge=0)] = None,
        timeout: Annotated[float, Parameter(ge=0, description=answers.LONG_POLL_WORDS)] = 0,
    ) -> Response[bytes]:
        seat = await seat_of(service, table_id, request, required=False)
        wait = min(timeout, answers.LONG_POLL_MOST) if after is not None else 0
        if wait > 0:
            close = state.streams.open(table_id, client(request), seat)
            try:
                got = await answers.while_connected(
                    request, service.view(table_id, seat, after, wait)
                )
                if got is None:  # finished, its views expired: made from the log
                    got = await finished_view(service, state, request, table_id, seat)
                    if got is not None and after is not None and got.version <= after:
                        # nothing newer comes: the time asked, as for any view (a client
                        # polling in a loop is not answered in one)
                        await answers.while_connected(request, asyncio.sleep(wait))
            finally:
                close()
        else:
            got = await service.view(table_id, seat)
            if got is None:  # finished, its views expired: made from the log
                got = await finished_view(service, state, request, table_id, seat)
        if got is None:
            table = await service.table(table_id)
            if seat is not None and service.seat_of(table, bearer(request)) != seat:
                raise not_a_seat()  # left while it waited: its view went with it
            raise ApiError(404, "no_table", f"there is no table {table_id}")
        if seat is not None and not await holders.still_holds(
            service, table_id, bearer(request), seat, got.position
        ):
            raise not_a_seat()
        return answers.json(got.data)

    @post(
        "/tables/{table_id:str}/tickets",
        tags=["views"],
        status_code=201,
        summary="A stream ticket: your seat's stream, without your token in a URL",
        description="For browsers (EventSource sends no Authorization header): GET"
        " /tables/{table_id}/stream?ticket=… streams your seat's view. A ticket opens this"
        " table's stream of your seat only, for `expires_in` seconds, and no longer once the"
        " seat changes hands.",
        security=doc.BEARER,
        responses=doc.responses(
            {201: doc.ok(StreamTicket, "the ticket", {"ticket": "eyJ…", "expires_in": 60})},
            [401, 403, 404, 503],
        ),
    )
    async def stream_ticket(
        self,
        table_id: TableId,
        request: Request,
        state: AppState,
        service: Service,
        my_seat: MySeat,
    ) -> StreamTicket:
        settings: Settings = state.settings
        # the seat's own token's hash, whichever token asked (a registered player's acts too,
        # named in the ticket as long as it is the player's)
        t = await service.table(table_id, held=True)
        asking = bearer(request) or ""
        player = holders.player_token(t, my_seat, asking)
        ticket = tickets.mint(
            state.ticket_secret,
            table_id,
            my_seat,
            t.tokens.get(my_seat) or token_hash(asking),
            time.time() + settings.ticket_seconds,
            player.fingerprint if player is not None else None,
        )
        return StreamTicket(ticket=ticket, expires_in=settings.ticket_seconds)

    @get(
        "/tables/{table_id:str}/stream",
        tags=["views"],
        summary="Server-Sent Events: one per view change (data = the view)",
        description="Each event is `id: <version>` and `data: <view>`; a reconnect with"
        " `Last-Event-ID` goes on after that version (EventSource does it by itself). Once a view"
        ' shows the game over comes `event: end` with `data: {"reason": "finished",'
        ' "version"}`, and the server closes the stream: close the EventSource then (it would'
        " reconnect, and get `end` again). Without a token (a spectator's), at most four events a"
        " second, each the latest view.",
        media_type="text/event-stream",
        security=[*doc.BEARER, {}],
        responses=doc.responses({200: doc.STREAM}, [401, 403, 404, 429, 503]),
    )
    async def stream_view(
        self,
        table_id: TableId,
        request: Request,
        state: AppState,
        service: Service,
        ticket: Annotated[
            str | None,
            Parameter(
                max_length=512,
                description="a stream ticket (POST /tables/{table_id}/tickets), for browsers",
            ),
        ] = None,
        last_event_id: Annotated[
            int | None,
            HeaderParameter(
                name="Last-Event-ID",
                ge=0,
                le=10**12,
                description="the id (version) of the last event received: go on after it",
            ),
        ] = None,
    ) -> Stream:
        if ticket is not None:
            seat, fingerprint, player = await holders.ticket_seat(service, state, table_id, ticket)
            token = None
        else:
            seat = await seat_of(service, table_id, request, required=False)
            token, fingerprint, player = bearer(request), None, None
            if seat is not None:  # (a spectator's look is answered by the read model alone)
                t = await service.table(table_id, held=True)
                player = holders.player_token(t, seat, token)
        ended = None
        if await service.view(table_id, seat) is None:
            # finished, its views expired? Asked here, so a refused log read is an answer, not
            # a stream broken as it starts
            ended = await finished_view(service, state, request, table_id, seat)
        close = state.streams.open(table_id, client(request), seat, kind="sse")
        # a reconnecting EventSource sends the id of the last event it got: go on after it
        after = -1 if last_event_id is None else last_event_id
        holder = holders.Holder(
            service, table_id, seat, token, fingerprint, state.identities, player
        )
        frames = holders.events(service, table_id, seat, holder, after, close, ended)
        return answers.event_stream(frames, close)


async def not_starting(state: AppState, table_id: str) -> None:
    """409 table_starting at a table quick play matched and is seating and starting: a seat
    left in its lobby would never be taken again, and the table never started."""
    matchmaker = getattr(state, "matchmaker", None)
    if matchmaker is not None and await matchmaker.starting(table_id):
        raise ApiError(
            409,
            "table_starting",
            "quick play starts this table as soon as its players are seated: leave it once it"
            " has started (you are then away, and the autopilot plays)",
        )


async def _take(
    service: TableService,
    table_id: str,
    claim: C.TakeSeat,
    token: str,
    player: FoldedPlayer | None = None,
) -> int:
    """Append the seat's taking under ``token`` (``player``: the registered player taking it):
    its sequence; 503 with the token when the log cannot say whether it took it."""
    digest = token_hash(token)
    try:
        seq = await service.append_command(
            table_id,
            claim,
            token_hash_=digest,
            player=player.player_id if player is not None else None,
        )
    except OutcomeUnknown:
        raise retry_later(
            "outcome_unknown",
            "the seat may or may not have been taken: GET /tables/{table_id}/view with this token"
            " tells (403: it was not)",
            token=token,
        ) from None
    return seq


def _invited_seat(table: FoldedTable, code: str) -> int:
    """The seat an invitation's code takes: 403 if it is not one of this table's codes, 409 once
    its seat was taken (a code takes its seat once)."""
    digest = token_hash(code)
    for seat, known in table.invitations.items():
        if hmac.compare_digest(known, digest):
            if seat not in table.state.reserved:
                raise ApiError(
                    409, "invitation_used", "that invitation's seat was taken", "invitation"
                )
            return seat
    raise ApiError(403, "bad_invitation", "that is not an invitation to this table", "invitation")


async def _not_a_held_name(service: TableService, s: State, name: str) -> None:
    """A rematch keeps seats for the finished table's players, who come back under their names
    there: a newcomer may not take one of those names before them."""
    if not (s.reserved and s.rematch_of):
        return
    try:
        before = (await service.table(s.rematch_of)).state
    except ApiError:  # that table is gone: its names with it
        return
    name = names.normalise(name)
    for seat in s.reserved:
        kept = before.seats[seat] if seat < len(before.seats) else None
        if kept is not None and names.same(name, kept.name):
            raise ApiError(
                409, "name_taken", "that name is kept for a player of this rematch", "name"
            )
