"""Players: registered once, a token shown once, a public profile, the token replaced, and the
player's tables (docs/api.md, "Players"). The identity itself is ``identities``."""

from __future__ import annotations

import functools
import itertools
from collections.abc import AsyncIterator
from typing import Annotated

import msgspec
from litestar import Controller, Request, get, post
from litestar.datastructures import State as AppState
from litestar.params import Body, Parameter
from litestar.response import Stream

from gcbc_contract.players import (
    PLAYER_ID_PATTERN,
    MyProfile,
    MyTable,
    MyTables,
    PlayedGame,
    PlayedGames,
    PlayerProfile,
    Register,
    Registered,
    TokenIssued,
)
from services.table import answers, edge
from services.table import openapi as doc
from services.table.dependencies import Service, bearer, client

PlayerIdParam = Annotated[
    str,
    Parameter(
        pattern=PLAYER_ID_PATTERN,
        description="the id POST /players gave (any other form is 404 no_player)",
    ),
]
# the tables a player joined last that GET /players/me/tables looks at: a table joined is noted
# before its seat is granted (and stays noted once left), so the list grows with every seat asked
# for, and each table looked at may be read from the log
LOOKED_AT = 200
PROFILE_EXAMPLE = {"player_id": "9c1e7b3d5a604f2a", "name": "ann", "bot": False}
TOKEN_EXAMPLE = "9c1e7b3d5a604f2a.tOk3n…"
NDJSON = "application/x-ndjson"
_encode = msgspec.json.Encoder().encode


class Players(Controller):
    @post(
        "/players",
        tags=["players"],
        status_code=201,
        summary="Register a player: its id and its token (shown once)",
        description="The token is a secret shown once (the server keeps only its hash): send it as"
        " `Authorization: Bearer <token>` to take seats as this player, list its tables and act for"
        " the seat it holds at any of them. Names are unique among players, compared as seat"
        " names are (any case, width or script).",
        dto=edge.strict_body(Register),
        return_dto=None,
        responses=doc.responses(
            {
                201: doc.ok(
                    Registered,
                    "the player and its token",
                    {**PROFILE_EXAMPLE, "token": TOKEN_EXAMPLE},
                )
            },
            [409, 413, 415, 422, 429, 503],
        ),
    )
    async def register(
        self,
        data: Annotated[
            Register, Body(examples=[doc.Example(summary="a name", value={"name": "ann"})])
        ],
        request: Request,
        state: AppState,
    ) -> Registered:
        await state.rates.hit("register", client(request))
        p, token = await state.identities.register(data.name, data.bot, data.registration_key)
        return Registered(player_id=p.player_id, name=p.name, bot=p.bot, token=token)

    @get(
        "/players/me",
        tags=["players"],
        summary="The player the bearer token is, and its place in the queue",
        security=doc.BEARER,
        responses=doc.responses(
            {200: doc.ok(MyProfile, "the player", {**PROFILE_EXAMPLE, "queue": None})},
            [401, 403, 503],
        ),
    )
    async def me(self, request: Request, state: AppState) -> MyProfile:
        p = await state.identities.authenticate(bearer(request))
        place = await state.matchmaker.place(p.player_id)
        return MyProfile(player_id=p.player_id, name=p.name, bot=p.bot, queue=place)

    @post(
        "/players/me/token",
        tags=["players"],
        status_code=201,
        summary="Replace the player's token: the one sent stops working",
        description="For a token that may have leaked, or a device lost: the new token is shown"
        " once; the one sent (the current one) stops working at once, for the player and for the"
        " seats it holds. A 503 `outcome_unknown` carries the new token: the log may have taken"
        " it (GET /players/me with it tells; 403: it did not, and the one sent still holds).",
        security=doc.BEARER,
        responses=doc.responses(
            {
                201: doc.ok(
                    TokenIssued,
                    "the new token",
                    {"player_id": PROFILE_EXAMPLE["player_id"], "token": TOKEN_EXAMPLE},
                )
            },
            [401, 403, 409, 429, 503],
        ),
    )
    async def reissue_token(self, request: Request, state: AppState) -> TokenIssued:
        identities = state.identities
        p = await identities.authenticate(bearer(request))
        await state.rates.hit("token", p.player_id)  # each reissue lengthens the player's log
        token = await identities.reissue(p)
        return TokenIssued(player_id=p.player_id, token=token)

    @get(
        "/players/me/tables",
        tags=["players"],
        summary="The player's tables (waiting, playing, finished), newest first",
        description="Each table where the player holds a seat (among the 200 it joined last), with"
        " the seat: the player's token"
        " acts for that seat there (its view, stream, ticket, commands, chat, start, leave), so"
        " a table in play is picked up from any device. A seat left in the lobby is not the"
        " player's any more.",
        security=doc.BEARER,
        responses=doc.responses(
            {
                200: doc.ok(
                    MyTables,
                    "the player's tables",
                    {
                        "tables": [
                            {
                                "table_id": doc.TABLE_ID,
                                "seat": 2,
                                "status": "playing",
                                "view_url": f"/tables/{doc.TABLE_ID}/view",
                            }
                        ]
                    },
                )
            },
            [401, 403, 429, 503],
        ),
    )
    async def my_tables(
        self,
        request: Request,
        state: AppState,
        service: Service,
        limit: Annotated[int, Parameter(ge=1, le=200, description="at most this many")] = 50,
    ) -> MyTables:
        await state.rates.hit("player_tables", client(request))
        p = await state.identities.authenticate(bearer(request))
        # and per player: one token shared by many addresses must not multiply the budget
        await state.rates.hit("player_tables", f"player {p.player_id}")
        looked = list(itertools.islice(reversed(p.tables), LOOKED_AT))
        out: list[MyTable] = []
        # as the tables' rosters show them (read together): a table not projected yet is read
        # from the log, a budget's worth
        shown = await service.players_at(looked, p.player_id)
        if any(
            at is None and t not in service.cache.tables
            for t, at in zip(looked, shown, strict=True)
        ):
            await state.rates.hit("log_read", client(request))
        for table_id, at in zip(looked, shown, strict=True):
            if len(out) >= limit:
                break
            if at is None:
                at = await service.player_at_folded(table_id, p.player_id)
            if at is None or at.seat is None:
                continue  # left in the lobby, or never taken
            out.append(
                MyTable(
                    table_id=table_id,
                    seat=at.seat,
                    status=at.status,  # type: ignore[arg-type]
                    view_url=f"/tables/{table_id}/view",
                )
            )
        return MyTables(tables=out)

    @get(
        "/players/{player_id:str}/games",
        tags=["players"],
        summary="A player's finished games, newest first (paged)",
        description="Each finished game the player held a seat of at the end: the table's options,"
        " every seat as the end revealed it (name, bot, player, team, eliminated, won), the"
        " player's seat, team and result. A table still waiting or in play is never listed:"
        " nothing of a game in play is told here. `next` is the `before` of the next page. Each"
        " game the server has not folded yet counts against the client's budget of games folded"
        " (429 past it; the games folded before are kept: ask again).",
        responses=doc.responses(
            {200: doc.ok(PlayedGames, "a page of the player's games")}, [404, 429, 503]
        ),
    )
    async def player_games(
        self,
        player_id: PlayerIdParam,
        request: Request,
        state: AppState,
        limit: Annotated[int, Parameter(ge=1, le=50, description="at most this many games")] = 20,
        before: Annotated[
            int | None,
            Parameter(ge=0, le=2**53, description="the `next` of the page before (its older ones)"),
        ] = None,
    ) -> PlayedGames:
        await state.identities.profile(player_id)  # 404 for no such player
        who = client(request)
        await state.rates.hit("log_read", who)
        fold = functools.partial(state.rates.hit, "game_fold", who)
        return await state.games.page(player_id, limit, before, fold)

    @get(
        "/players/{player_id:str}/games/export",
        tags=["players"],
        summary="Every finished game of a player as JSON lines, newest first (a download)",
        description="The player's finished games as the paged history lists them, one PlayedGame"
        " a line (`application/x-ndjson`, as Lichess exports a player's games), streamed as they"
        " are read: nothing of a game in play, and an empty body for a player with no finished"
        " game. `max`: at most this many (the newest). Each 100 tables of the player's read count as"
        " one read of the history (as a page does), each game not folded yet as one game folded:"
        " past the client's budgets the download slows to them rather than failing.",
        media_type=NDJSON,
        responses=doc.responses(
            {200: doc.ndjson(PlayedGame, "the player's games, one PlayedGame a line")},
            [404, 429, 503],
        ),
    )
    async def export_games(
        self,
        player_id: PlayerIdParam,
        request: Request,
        state: AppState,
        max: Annotated[  # the query's name, as Lichess's export names it
            int | None, Parameter(ge=1, le=2**31, description="at most this many games")
        ] = None,
    ) -> Stream:
        await state.identities.profile(player_id)  # 404 for no such player
        who = client(request)
        await state.rates.hit("log_read", who)
        # a download lasts as long as its pace allows: it holds a place as a stream does
        close = state.streams.open(f"export {player_id}", who, None, kind="download")
        try:
            games = await state.games.every(
                player_id,
                max,
                lambda: state.rates.pace("log_read", who),
                lambda: state.rates.pace("game_fold", who),
            )
        except BaseException:
            close()
            raise
        return Stream(
            answers.closing(_lines(games), close),
            media_type=NDJSON,
            headers={
                "Content-Disposition": f'attachment; filename="games-{player_id}.ndjson"',
                "X-Accel-Buffering": "no",
            },
        )

    @get(
        "/players/{player_id:str}",
        tags=["players"],
        summary="A player's public profile",
        responses=doc.responses(
            {200: doc.ok(PlayerProfile, "the player", PROFILE_EXAMPLE)}, [404, 503]
        ),
    )
    async def player_profile(self, player_id: PlayerIdParam, state: AppState) -> PlayerProfile:
        return await state.identities.profile(player_id)


async def _lines(games: AsyncIterator[PlayedGame]) -> AsyncIterator[bytes]:
    """Each game as one line of JSON."""
    async for game in games:
        yield _encode(game) + b"\n"
