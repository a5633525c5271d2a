"""A player's history (services/table/games.py): an export reads the player's tables a batch at a
time, newest first, and weighs as the pages it replaces: paced once per batch after the first."""

from __future__ import annotations

import asyncio
import types

import msgspec
import pytest

from gcbc.playermodel.memory import MemoryPlayerModel
from gcbc.readmodel.memory import MemoryReadModel
from gcbc.readmodel.port import ROSTER
from gcbc_contract.options import TableOptions
from gcbc_contract.players import GameSeat, PlayedGame
from services.table.games import Games
from services.table.problems import ApiError, retry_later


class FinishedTables(Games):
    """Every table with an even number finished, the player at seat 0; the odd ones in play
    (what the replay worker and the read model would tell, without them)."""

    async def game(
        self, table_id: str, player_id: str | None = None, fold=None
    ) -> PlayedGame | None:  # noqa: ANN001
        if int(table_id[1:]) % 2:
            return None
        seat = GameSeat(
            seat=0, name="ann", bot=False, player="p1", team=None, eliminated=False, won=True
        )
        return PlayedGame(
            table_id=table_id,
            finished_at="2026-12-05T00:00:00Z",
            options=TableOptions(),
            seat=0,
            team=None,
            won=True,
            win_team=None,
            win_reason=None,
            seats=[seat],
        )


def test_an_export_is_paced_once_per_batch_of_tables_after_the_first() -> None:
    async def go() -> tuple[list[str], int, list[str]]:
        players = MemoryPlayerModel()
        for n in range(25):
            await players.joined("p1", f"t{n}", n + 1)
        games = FinishedTables(None, None, players)  # type: ignore[arg-type]
        games.EXPORT_BATCH = 10
        paced = 0

        async def pace() -> None:
            nonlocal paced
            paced += 1

        every = [g.table_id async for g in await games.every("p1", None, pace)]
        most = [g.table_id async for g in await games.every("p1", 3, pace)]
        return every, paced, most

    every, paced, most = asyncio.run(go())
    assert every == [f"t{n}" for n in range(24, -1, -2)]  # the finished ones, newest first
    assert paced == 2  # 25 tables: batches of 10, 10 and 5, the two later ones paced
    assert most == ["t24", "t22", "t20"]  # within the first batch: nothing more paced


class BusyAtFirst(FinishedTables):
    """The replay worker busy for the first two asks (503 replays_busy), then answering."""

    busy = 2

    async def game(
        self, table_id: str, player_id: str | None = None, fold=None
    ) -> PlayedGame | None:  # noqa: ANN001
        if self.busy:
            self.busy -= 1
            raise retry_later("replays_busy", "too many replays and histories are being made")
        return await super().game(table_id, player_id)


def test_an_export_under_way_waits_for_a_busy_replay_worker_rather_than_breaking(monkeypatch):
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    monkeypatch.setattr("services.table.games.asyncio.sleep", sleep)

    async def go() -> list[str]:
        players = MemoryPlayerModel()
        for n in range(4):
            await players.joined("p1", f"t{n}", n + 1)
        games = BusyAtFirst(None, None, players)  # type: ignore[arg-type]
        return [g.table_id async for g in await games.every("p1", None, None)]

    assert asyncio.run(go()) == ["t2", "t0"] and len(slept) == 2


def test_a_page_folds_only_the_finished_tables_the_player_held_a_seat_of_at_the_end() -> None:
    """Before: every finished table in the player's list was folded for a page (tables it left
    in the lobby too: 200 whole logs for one page of none). Now its roster says first."""
    asked: list[str] = []

    class Replays:
        async def game(self, table_id: str) -> PlayedGame:
            asked.append(table_id)
            return await FinishedTables.game(None, "t0")  # type: ignore[arg-type, return-value]

    async def go() -> list[str]:
        players, views = MemoryPlayerModel(), MemoryReadModel()
        shown = {
            "t0": b'{"status":"finished","players":{"p1":0}}',
            "t1": b'{"status":"finished","players":{"p2":0}}',
            "t2": b'{"status":"playing","players":{"p1":0}}',
        }
        for n, (table_id, record) in enumerate(shown.items()):
            await players.joined("p1", table_id, n + 1)
            await views.put(table_id, {ROSTER: record}, n + 1)
        service = types.SimpleNamespace(replays=Replays())
        page = await Games(service, views, players).page("p1", 10, None)  # type: ignore[arg-type]
        return [g.table_id for g in page.games]

    assert asyncio.run(go()) == ["t0"] and asked == ["t0"]


def test_each_game_folded_for_a_history_is_charged_and_a_game_kept_folded_is_not() -> None:
    """Before: a page of up to 50 games, or an export's 100 tables, cost one read of the
    client's budget however many whole logs the replay worker folded for it (about 1,000 folds a
    minute per address: a third of the worker every replay shares). Each fold is charged now;
    games kept folded are not, and a fold refused leaves those before it kept."""
    asked: list[str] = []

    class Replays:
        async def game(self, table_id: str) -> PlayedGame:
            asked.append(table_id)
            game = await FinishedTables.game(None, "t0")  # type: ignore[arg-type]
            return msgspec.structs.replace(game, table_id=table_id)  # type: ignore[arg-type]

    async def go() -> None:
        players, views = MemoryPlayerModel(), MemoryReadModel()
        record = b'{"status":"finished","players":{"p1":0}}'
        for n in range(5):
            await players.joined("p1", f"t{n}", n + 1)
            await views.put(f"t{n}", {ROSTER: record}, n + 1)
        service = types.SimpleNamespace(replays=Replays())
        games = Games(service, views, players)  # type: ignore[arg-type]
        charged = 0

        async def fold() -> None:
            nonlocal charged
            if charged == 3:
                raise ApiError(429, "rate_limited", "over the budget")
            charged += 1

        with pytest.raises(ApiError):
            await games.page("p1", 10, None, fold)
        assert asked == ["t4", "t3", "t2"] and charged == 3
        charged = 0
        page = await games.page("p1", 10, None, fold)  # the three kept, the other two charged
        assert [g.table_id for g in page.games] == ["t4", "t3", "t2", "t1", "t0"]
        assert asked == ["t4", "t3", "t2", "t1", "t0"] and charged == 2
        exported = [g.table_id async for g in await games.every("p1", None, None, fold)]
        assert len(exported) == 5 and charged == 2  # all kept folded: nothing charged

    asyncio.run(go())
