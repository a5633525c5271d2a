"""The players' read model folded from the players' log, and made again from it: the same."""

from __future__ import annotations

import asyncio

import msgspec

from gcbc.eventlog.memory import MemoryEventLog
from gcbc.playermodel.memory import MemoryPlayerModel
from gcbc.playermodel.port import PlayerRecord
from gcbc.players.log import PlayerLog
from gcbc.players.projection import project, rebuild


def run(coro):
    return asyncio.run(coro)


async def _state(model):
    players = await model.players()
    return (
        [msgspec.to_builtins(r) for r in players],
        {r.player_id: [t for t, _ in await model.tables(r.player_id)] for r in players},
        await model.position(),
    )


def test_the_read_model_is_the_logs_and_a_rebuild_makes_it_again():
    async def go():
        events = MemoryEventLog()
        log = PlayerLog(events)
        model = MemoryPlayerModel()
        sub = await events.follow(lambda stored: project(model, stored), after=0)
        ann, _ = await log.register("ann", bot=False)
        bob, _ = await log.register("bob", bot=True)
        await log.joined(await log.player(ann.player_id), "a" * 16)
        await log.joined(await log.player(ann.player_id), "b" * 16)
        for _ in range(100):
            await asyncio.sleep(0.01)
            if await model.position() == (await events.sizes())[0]:
                break
        await sub.close()
        live = await _state(model)
        assert [(r["name"], r["bot"]) for r in live[0]] == [("ann", False), ("bob", True)]
        assert live[1][ann.player_id] == ["b" * 16, "a" * 16]  # the newest first
        assert (await model.player(bob.player_id)).name == "bob"

        again = MemoryPlayerModel()
        await again.put_player((await model.players())[0])
        ghost = PlayerRecord(player_id="c" * 16, name="ghost", registered=1)  # not the log's
        await again.put_player(ghost)
        await rebuild(events, again)
        assert await _state(again) == live

        # over the model in use: the same again, and a player registered past what the
        # rebuild read (the live projection's, meanwhile) is kept
        late = PlayerRecord(player_id="d" * 16, name="late", registered=10**6)
        await model.put_player(late)
        await rebuild(events, model)
        assert await model.player(late.player_id) == late
        await model.remove_player(late.player_id)
        assert await _state(model) == live

    run(go())
