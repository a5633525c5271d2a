"""Ratings as the read model holds them (services.common.ratings makes them from the log): a
player's, per pool, and each pool's leaderboard in pages."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, Request, get
from litestar.datastructures import State as AppState
from litestar.params import Parameter

from gcbc.playermodel.port import POOLS
from gcbc_contract.players import Leaderboard, LeaderboardEntry, PlayerRatings, PoolRating
from gcbc_contract.vocabulary import Pool
from services.table import openapi as doc
from services.table.dependencies import client
from services.table.players import PlayerIdParam

HOUSE = "house:"  # services.common.ratings.HOUSE: the house's bots of one kind
PoolParam = Annotated[Pool, Parameter(description="the pool: the expansions played")]


class Ratings(Controller):
    @get(
        "/players/{player_id:str}/ratings",
        tags=["players"],
        summary="A player's ratings, one per pool it played a rated game in",
        description="A table is rated when every seat is held by a registered player or by the"
        " house's bots (at least one player) and it is no scenario table; it is rated once it"
        " ends, from each seat's team at the end and whether it won; a seat that left counts as"
        " a loss. Ratings are OpenSkill's (Plackett-Luce), made for teams of uneven size.",
        responses=doc.responses(
            {
                200: doc.ok(
                    PlayerRatings,
                    "the player's ratings",
                    {
                        "player_id": "9c1e7b3d5a604f2a",
                        "ratings": [
                            {
                                "pool": "base",
                                "mu": 27.1,
                                "sigma": 7.9,
                                "ordinal": 3.4,
                                "games": 3,
                            }
                        ],
                    },
                )
            },
            [404, 503],
        ),
    )
    async def player_ratings(self, player_id: PlayerIdParam, state: AppState) -> PlayerRatings:
        await state.identities.profile(player_id)  # 404 for no such player
        model = state.identities.model
        out = []
        for pool in POOLS:
            got = (await model.ratings(pool, [player_id])).get(player_id)
            if got is not None:
                out.append(
                    PoolRating(
                        pool=pool,  # type: ignore[arg-type]
                        mu=got.mu,
                        sigma=got.sigma,
                        ordinal=got.ordinal,
                        games=got.games,
                    )
                )
        return PlayerRatings(player_id=player_id, ratings=out)

    @get(
        "/leaderboards/{pool:str}",
        tags=["players"],
        summary="A pool's leaderboard, the highest ordinal first (paged)",
        description="Players and the house's bots (one entry per kind, a baseline), by ordinal"
        " (mu - 3 sigma). `next` is the `offset` of the next page.",
        responses=doc.responses(
            {200: doc.ok(Leaderboard, "a page of the leaderboard")}, [429, 503]
        ),
    )
    async def leaderboard(
        self,
        pool: PoolParam,
        state: AppState,
        request: Request,
        limit: Annotated[int, Parameter(ge=1, le=200, description="at most this many")] = 50,
        offset: Annotated[int, Parameter(ge=0, le=10**6, description="from this place")] = 0,
    ) -> Leaderboard:
        await state.rates.hit("leaderboard", client(request))
        model = state.identities.model
        page = await model.leaderboard(pool, limit + 1, offset)
        records = await model.records([r for r, _ in page[:limit] if not r.startswith(HOUSE)])
        entries = []
        for place, (rater, rating) in enumerate(page[:limit], start=offset + 1):
            if rater.startswith(HOUSE):
                player_id, name, bot = None, f"House bots ({rater[len(HOUSE) :]})", True
            else:
                record = records.get(rater)
                player_id = rater
                name, bot = (record.name, record.bot) if record is not None else (rater, False)
            entries.append(
                LeaderboardEntry(
                    rank=place,
                    player_id=player_id,
                    name=name,
                    bot=bot,
                    mu=rating.mu,
                    sigma=rating.sigma,
                    ordinal=rating.ordinal,
                    games=rating.games,
                )
            )
        more = offset + limit if len(page) > limit else None
        return Leaderboard(pool=pool, entries=entries, next=more)
