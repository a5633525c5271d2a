"""A seat's hold on its stream (services.table.holders) on the twins: a player's token that
opened a stream is looked at again in the players' log now and then, so a token replaced in
another process ends the stream."""

from __future__ import annotations

import asyncio

from gcbc.eventlog.memory import MemoryEventLog
from gcbc.players.log import PlayerLog
from gcbc.readmodel.port import PUBLIC
from gcbc_contract import commands as C
from services.table import holders
from services.table.identities import Identities
from services.table.service import token_hash
from tests.unit.services.test_pipeline_on_twins import TABLE, opened, pipeline


def test_a_stream_a_replaced_player_token_opened_ends_at_its_next_look():
    async def go():
        async with pipeline() as (_events, _model, service, _clock):
            players = MemoryEventLog()
            here = Identities(PlayerLog(players))
            service.player_of = here.player_of
            ann, token = await here.register("ann", False)
            await opened(service, TABLE)
            seq = await service.append_command(
                TABLE, C.TakeSeat(name="ann"), token_hash("the seat's own"), player=ann.player_id
            )
            assert await service.answered(TABLE, PUBLIC, seq, 5)
            t = await service.table(TABLE)
            assert holders.player_token(t, 0, "the seat's own") is None
            player = holders.player_token(t, 0, token)
            assert player is not None and player.player_id == ann.player_id
            holder = holders.Holder(service, TABLE, 0, token, None, here, player)
            assert await holder.holds(t.seq)
            # replaced in another process: this one's copy of the player is the old one
            elsewhere = PlayerLog(players)
            await elsewhere.reissue(await elsewhere.player(ann.player_id))
            assert here.player_of(token) == ann.player_id
            assert await holder.holds(t.seq)  # till its next look at the log
            holder.recheck = 0.0
            assert not await holder.holds(t.seq)

    asyncio.run(go())
