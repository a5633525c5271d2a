"""A player's history: its finished games, newest first, each as its end revealed it. A finished
table never changes, so each is folded once (by the replay worker, off this process's event loop)
and kept; a table still waiting or in play is never folded for it, never listed, and nothing of it
is told (its status is read from its roster in the read model first)."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable

import msgspec

from gcbc.eventlog.port import LogUnavailable
from gcbc.playermodel.port import PlayerModel
from gcbc.readmodel.port import ViewReader
from gcbc_contract.players import PlayedGame, PlayedGames
from services.table.problems import ApiError
from services.table.service import TableService
from services.table.shown import player_at, player_at_end

Charge = Callable[[], Awaitable[None]]  # a game's fold counted against its client's budget
SCAN = 4  # tables looked at per game asked for, at most (the others: left in the lobby, in play)


class Games:
    KEEP = 10_000  # finished games kept (each folded once)
    EXPORT_BATCH = 100  # tables read at a time by an export, each batch one read of the history
    EXPORT_WAITS = 60  # seconds an export waits for a busy replay worker (or the log) per game

    def __init__(self, service: TableService, views: ViewReader, players: PlayerModel) -> None:
        self.service = service
        self.views = views
        self.players = players
        self._games: OrderedDict[str, PlayedGame | None] = OrderedDict()

    async def page(
        self, player_id: str, limit: int, before: int | None, fold: Charge | None = None
    ) -> PlayedGames:
        """Up to ``limit`` of the player's finished games joined before ``before``; ``fold`` is
        awaited before each game not kept folded is folded (it may refuse)."""
        games: list[PlayedGame] = []
        joined = await self.players.tables(player_id, limit * SCAN, before)
        last = None
        for table_id, position in joined:
            last = position
            game = await self.played(player_id, table_id, fold)
            if game is not None:
                games.append(game)
                if len(games) == limit:
                    break
        more = last is not None and (len(games) == limit or len(joined) == limit * SCAN)
        return PlayedGames(games=games, next=last if more else None)

    async def every(
        self,
        player_id: str,
        most: int | None = None,
        pace: Charge | None = None,
        fold: Charge | None = None,
    ) -> AsyncIterator[PlayedGame]:
        """Each of the player's finished games, newest first (``most``: at most this many), as
        ``page`` lists them, ``EXPORT_BATCH`` of its tables read at a time; the first batch is
        read at once (a read model away fails the request, not its body), and ``pace`` is awaited
        before each later one (a long export weighs as the pages it replaces), ``fold`` before
        each game not kept folded."""
        joined = await self.players.tables(player_id, self.EXPORT_BATCH)
        return self._every(player_id, most, joined, pace, fold)

    async def _every(
        self,
        player_id: str,
        most: int | None,
        joined: list[tuple[str, int]],
        pace: Charge | None,
        fold: Charge | None,
    ) -> AsyncIterator[PlayedGame]:
        count = 0
        while True:
            for table_id, _ in joined:
                game = await self._waited(player_id, table_id, fold)
                if game is not None:
                    yield game
                    count += 1
                    if count == most:
                        return
            if len(joined) < self.EXPORT_BATCH:
                return
            if pace is not None:
                await pace()
            joined = await self.players.tables(player_id, self.EXPORT_BATCH, joined[-1][1])

    async def _waited(
        self, player_id: str, table_id: str, fold: Charge | None
    ) -> PlayedGame | None:
        """``played``, waited for while the replays are busy or the log away (an export under
        way slows rather than fails: its answer has begun), at most ``EXPORT_WAITS`` times."""
        for waits in range(self.EXPORT_WAITS + 1):
            try:
                return await self.played(player_id, table_id, fold)
            except (ApiError, LogUnavailable) as e:
                if waits == self.EXPORT_WAITS or (isinstance(e, ApiError) and e.status != 503):
                    raise
                await asyncio.sleep(1.0)
        return None

    async def played(
        self, player_id: str, table_id: str, fold: Charge | None = None
    ) -> PlayedGame | None:
        """The finished table's game as the player played it (None: not finished, no game, or
        the player held no seat of it at the end)."""
        game = await self.game(table_id, player_id, fold)
        mine = next((g for g in game.seats if g.player == player_id), None) if game else None
        if game is None or mine is None:
            return None
        change = (await self.players.changes(table_id)).get(player_id)
        return msgspec.structs.replace(
            game, seat=mine.seat, team=mine.team, won=mine.won, rating_change=change
        )

    async def game(
        self, table_id: str, player_id: str | None = None, fold: Charge | None = None
    ) -> PlayedGame | None:
        """The finished table's game (None: not finished, or no game was played; with
        ``player_id``, also None when that player held no seat of it at the end)."""
        if table_id in self._games:
            self._games.move_to_end(table_id)
            return self._games[table_id]
        (roster,) = await self.views.rosters([table_id])
        if roster is not None:
            at = player_at(roster, player_id or "")
            if at.status != "finished":
                return None  # in play or waiting: nothing of it is told
        else:  # finished and its views expired (its seated record kept), or not projected
            (seated,) = await self.views.seated([table_id])
            if seated is None:
                return None
            at = player_at_end(seated, player_id or "")
        if player_id is not None and at.seat is None:
            return None  # not the player's game (a seat left in the lobby): not folded for it
        if fold is not None:
            await fold()
        game = await self.service.replays.game(table_id)
        self._games[table_id] = game
        while len(self._games) > self.KEEP:
            self._games.popitem(last=False)
        return game
