"""An in-memory twin of the players' read model."""

from __future__ import annotations

import time
from collections.abc import Callable

from gcbc.playermodel.port import PlayerRecord, Rating, RatingsHeld, RatingsMade


class MemoryPlayerModel:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._hold: tuple[str, float] | None = None  # the holder, until when
        self._players: dict[str, PlayerRecord] = {}
        self._tables: dict[str, dict[str, int]] = {}
        self._position = 0
        self._ratings: dict[str, dict[str, Rating]] = {}
        self._changes: dict[str, dict[str, float]] = {}
        self._rated = 0

    async def put_player(self, record: PlayerRecord) -> None:
        self._players[record.player_id] = record

    async def remove_player(self, player_id: str) -> None:
        self._players.pop(player_id, None)
        self._tables.pop(player_id, None)

    async def joined(self, player_id: str, table_id: str, position: int) -> None:
        self._tables.setdefault(player_id, {})[table_id] = position

    async def advance(self, position: int) -> None:
        self._position = max(self._position, position)

    async def position(self) -> int:
        return self._position

    async def player(self, player_id: str) -> PlayerRecord | None:
        return self._players.get(player_id)

    async def records(self, player_ids: list[str]) -> dict[str, PlayerRecord]:
        return {p: self._players[p] for p in player_ids if p in self._players}

    async def tables(
        self, player_id: str, limit: int = 50, before: int | None = None
    ) -> list[tuple[str, int]]:
        joined = self._tables.get(player_id, {})
        newest = sorted(joined.items(), key=lambda item: -item[1])
        return [item for item in newest if before is None or item[1] < before][:limit]

    async def players(self, limit: int = 100, after: int = 0) -> list[PlayerRecord]:
        ordered = sorted(self._players.values(), key=lambda r: r.registered)
        return [r for r in ordered if r.registered > after][:limit]

    async def count(self) -> int:
        return len(self._players)

    async def ratings(self, pool: str, raters: list[str]) -> dict[str, Rating]:
        held = self._ratings.get(pool, {})
        return {r: held[r] for r in raters if r in held}

    async def rate_table(
        self,
        position: int,
        pool: str,
        table_id: str,
        ratings: dict[str, Rating],
        changes: dict[str, float],
    ) -> bool:
        if self._holder() is not None:
            raise RatingsHeld("the ratings are held by a rebuild")
        if position <= self._rated:
            return False
        self._ratings.setdefault(pool, {}).update(ratings)
        self._changes[table_id] = dict(changes)
        self._rated = position
        return True

    async def rated_position(self) -> int:
        return self._rated

    async def leaderboard(
        self, pool: str, limit: int = 50, offset: int = 0
    ) -> list[tuple[str, Rating]]:
        held = self._ratings.get(pool, {})
        # ties as Redis orders them: the later name first
        ranked = sorted(held.items(), key=lambda item: (item[1].ordinal, item[0]), reverse=True)
        return ranked[offset : offset + limit]

    async def changes(self, table_id: str) -> dict[str, float]:
        return dict(self._changes.get(table_id, {}))

    async def replace_ratings(self, made: RatingsMade, holder: str) -> None:
        if self._holder() != holder:
            raise RatingsHeld("the rebuild does not hold the ratings")
        self._ratings = {pool: dict(raters) for pool, raters in made.pools.items() if raters}
        self._changes = {table: dict(changes) for table, changes in made.changes.items()}
        self._rated = made.position

    def made(self) -> RatingsMade:
        """Every rating held, as ``replace_ratings`` puts them in place (a rebuild rates the log
        here, apart from the ratings in use)."""
        return RatingsMade(self._rated, self._ratings, self._changes)

    def _holder(self) -> str | None:
        if self._hold is None or self._hold[1] <= self._clock():
            return None
        return self._hold[0]

    async def hold_ratings(self, holder: str, seconds: float) -> bool:
        if self._holder() not in (None, holder):
            return False
        self._hold = (holder, self._clock() + seconds)
        return True

    async def release_ratings(self, holder: str) -> None:
        if self._holder() == holder:
            self._hold = None
