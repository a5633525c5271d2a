"""gcbc-ops players on the in-memory twins: a rebuild that stops half-way leaves the ratings as
they were and no player missing."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from click.testing import CliRunner

from gcbc.eventlog.memory import MemoryEventLog
from gcbc.eventlog.port import LogUnavailable, Stored
from gcbc.playermodel.memory import MemoryPlayerModel
from gcbc.playermodel.port import Rating
from gcbc.players.log import PlayerLog
from gcbc.players.projection import project
from gcbc.readmodel.memory import MemoryReadModel
from services.common.settings import Settings
from services.ops.cli import Ops, cli
from tools import tablelogs


class LostMidScan(MemoryEventLog):
    """A log whose whole-log read fails after its first batch (NATS lost meanwhile)."""

    async def scan(self, after: int = 0, until: int | None = None) -> AsyncIterator[list[Stored]]:
        async for batch in super().scan(after, until):
            yield batch
            raise LogUnavailable("connection closed")


def test_a_rebuild_that_stops_half_way_leaves_the_ratings_as_they_were_and_every_player():
    tables, players, model = LostMidScan(), MemoryEventLog(), MemoryPlayerModel()
    ann = Rating(mu=31.0, sigma=6.0, games=4)

    async def fill() -> None:
        table_id = "00000000000000d0"
        await tablelogs.write_table(tables, tablelogs.play(table_id, 4, 1), table_id)
        log = PlayerLog(players)
        for name in ("ann", "bob"):
            await log.register(name, bot=False)
        async for batch in players.scan():
            for stored in batch:
                await project(model, stored)
        assert await model.rate_table(7, "base", "00000000000000d9", {"a" * 16: ann}, {})

    asyncio.run(fill())
    registered = asyncio.run(model.players())
    assert len(registered) == 2

    async def connect_tables() -> MemoryEventLog:
        return tables

    async def connect_players() -> MemoryEventLog:
        return players

    async def connect_model() -> MemoryReadModel:
        return MemoryReadModel()

    ops = Ops(Settings(), connect_tables, connect_model, 0, connect_players, lambda _: model)
    done = CliRunner().invoke(cli, ["players", "rebuild", "--yes"], obj=ops)
    assert done.exit_code == 2 and "connection closed" in done.output, done.output
    assert asyncio.run(model.leaderboard("base")) == [("a" * 16, ann)]
    assert asyncio.run(model.rated_position()) == 7
    assert asyncio.run(model.players()) == registered
    assert asyncio.run(model.hold_ratings("next", 1))  # its hold was given back


def test_a_registration_whose_token_was_never_handed_out_is_withdrawn_and_its_name_freed():
    """The table service stopped before it could withdraw a registration whose name's claim went
    unanswered: the name was held for good. ``players withdraw`` frees it, and keeps a player
    that used its token."""
    players = MemoryEventLog()
    log = PlayerLog(players)

    async def register(name: str) -> str:
        return (await log.register(name, bot=False))[0].player_id

    ghost, bob = asyncio.run(register("ann")), asyncio.run(register("bob"))
    asyncio.run(log.joined(asyncio.run(log.player(bob)), "00000000000000d1"))

    async def connect_players() -> MemoryEventLog:
        return players

    async def connect_tables() -> MemoryEventLog:
        return MemoryEventLog()

    async def connect_model() -> MemoryReadModel:
        return MemoryReadModel()

    ops = Ops(Settings(), connect_tables, connect_model, 0, connect_players, None)

    def withdraw(player_id: str):
        return CliRunner().invoke(cli, ["players", "withdraw", player_id], obj=ops)

    done = withdraw(ghost)
    assert done.exit_code == 0 and "withdrawn" in done.output, done.output
    assert asyncio.run(PlayerLog(players).player(ghost)) is None
    assert asyncio.run(register("ann")) != ghost  # the name is free again
    again = withdraw(ghost)
    assert again.exit_code == 0 and "withdrawn already" in again.output
    kept = withdraw(bob)
    assert kept.exit_code == 2 and "used its token" in kept.output
    assert asyncio.run(PlayerLog(players).player(bob)) is not None
    assert withdraw("00000000000000ff").exit_code == 2
