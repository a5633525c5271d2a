"""Quick play's routes (docs/api.md, "Quick play"): a player joins the queue, reads its place
(long-polled), and leaves it. The matching is the ``matchmaker``'s."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, Request, delete, get, post
from litestar.datastructures import State as AppState
from litestar.params import Body, Parameter

from gcbc_contract.queue import JoinQueue, QueueState
from services.table import answers, edge
from services.table import openapi as doc
from services.table.dependencies import QUEUED, Service, bearer, client, held_or_queued
from services.table.matchmaker import accepted_seats
from services.table.problems import ApiError

WAITING_EXAMPLE = {
    "status": "waiting",
    "version": 41,
    "since": 1764950000000,
    "seats": [4, 5, 6],
    "options": {},
    "rated": True,
    "bots_after": 60.0,
}
SEATED_EXAMPLE = {
    "status": "seated",
    "version": 44,
    "table_id": doc.TABLE_ID,
    "seat": 2,
    "view_url": f"/tables/{doc.TABLE_ID}/view",
}


class Queue(Controller):
    @post(
        "/queue",
        tags=["queue"],
        status_code=201,
        summary="Join the queue: a table of matching players, or the house's bots after a wait",
        description="The player waits until a table of players asking the same (the same"
        " options, a seat count each accepts, and for a rated game ratings close, the gap allowed"
        " widening with the wait) can be made; then the table opens with a seat kept for each,"
        " each is seated as itself (its token acts for the seat) and the game starts. With"
        " `bots_after`, after that many seconds the house's bots fill the rest of a table. GET"
        " /queue (long-polled) says when and where. One place in the queue per player, and none"
        " while it holds a seat at a table waiting or in play (409).",
        security=doc.BEARER,
        dto=edge.strict_body(JoinQueue),
        return_dto=None,
        responses=doc.responses(
            {
                201: doc.ok(
                    QueueState,
                    "in the queue (or seated at once: a table could be made)",
                    WAITING_EXAMPLE,
                )
            },
            [401, 403, 409, 413, 415, 422, 429, 503],
        ),
    )
    async def join_queue(
        self,
        data: Annotated[
            JoinQueue,
            Body(
                examples=[
                    doc.Example(summary="4 or 6 seats", value={"seats": [4, 6]}),
                    doc.Example(
                        summary="rated, 4 to 6 seats, house bots after a minute",
                        value={"seats": {"min": 4, "max": 6}, "rated": True, "bots_after": 60},
                    ),
                ]
            ),
        ],
        request: Request,
        state: AppState,
        service: Service,
    ) -> QueueState:
        p = await state.identities.authenticate(bearer(request))
        who = client(request)
        await state.rates.hit("seat", who)  # a place in the queue leads to a seat …
        state.rates.check("start", who)  # … at a game it starts (counted once placed)
        held = held_or_queued(service, state)
        # one of the client's seats from now until its table is over (the queue seats it)
        await state.holdings.hold_seat(who, QUEUED + p.player_id, "", held)
        if data.bots_after is None:
            placed = await state.matchmaker.join(p, data)
        else:
            # its table may be the asker's and the house's bots, at the fewest seats asked
            key, house_seats = QUEUED + p.player_id, min(accepted_seats(data)) - 1
            before = await state.holdings.hold_house_seats(who, key, house_seats, held, "seats")
            try:
                placed = await state.matchmaker.join(p, data)
            except ApiError:  # (already queued, or playing): what the place held stays as it was
                state.holdings.give_back_house_seats(who, key, before)
                raise
        await state.rates.done("start", who)
        return placed

    @get(
        "/queue",
        tags=["queue"],
        summary="The player's place in the queue (long-poll with after/timeout)",
        description="waiting (since when, what was asked), seated (the table and seat the queue"
        " gave), or none. With `after`, it answers as soon as `version` is greater, or as it is"
        " after `timeout` seconds: a client need not poll fast.",
        security=doc.BEARER,
        responses=doc.responses(
            {200: doc.ok(QueueState, "the player's place", SEATED_EXAMPLE)}, [401, 403, 429, 503]
        ),
    )
    async def queue_state(
        self,
        request: Request,
        state: AppState,
        after: Annotated[
            int | None, Parameter(ge=0, le=2**53, description="the `version` last seen")
        ] = None,
        timeout: Annotated[float, Parameter(ge=0, description=answers.LONG_POLL_WORDS)] = 0,
    ) -> QueueState:
        p = await state.identities.authenticate(bearer(request))
        timeout = min(timeout, answers.LONG_POLL_MOST)
        if after is None or timeout <= 0:
            return await state.matchmaker.state(p.player_id, after, 0)
        # a long-poll holds a place like a seat's own view long-poll: the player's own places,
        # and its client address's, are capped (429 too_many_streams)
        close = state.streams.open(f"queue {p.player_id}", client(request), 0)
        try:
            return await answers.while_connected(
                request, state.matchmaker.state(p.player_id, after, timeout)
            )
        finally:
            close()

    @delete(
        "/queue",
        tags=["queue"],
        status_code=204,
        summary="Leave the queue",
        description="409 not_queued if the player is not waiting (the queue may have seated it"
        " meanwhile: GET /queue says where).",
        security=doc.BEARER,
        responses=doc.responses({}, [401, 403, 409, 429, 503]),
    )
    async def leave_queue(self, request: Request, state: AppState) -> None:
        p = await state.identities.authenticate(bearer(request))
        await state.rates.hit("seat", client(request))  # counted as joining is: both are logged
        await state.matchmaker.leave(p)
