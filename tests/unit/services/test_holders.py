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


def test_a_spectators_stream_sends_the_latest_view_at_most_each_gap_and_a_seats_every_change(
    monkeypatch,
):
    """Before: a fast table's every change went to each of its spectators' streams (400 streams
    of one address's tables: a fifth of a core, 12 MB/s). A spectator's stream sends a frame at
    most each ``SPECTATOR_GAP``, the latest view then; a seat's stream, which answers, every
    change at once."""
    monkeypatch.setattr(holders, "SPECTATOR_GAP", 1.5)  # (the seats taken well within it)

    def version(frame: bytes) -> int:
        return int(frame.split(b"\r\n", 1)[0].removeprefix(b"id: "))

    async def go():
        async with pipeline() as (_events, _model, service, _clock):
            await opened(service, TABLE)
            loop = asyncio.get_running_loop()
            seq = await service.append_command(TABLE, C.TakeSeat(name="p0"), token_hash("t0"))
            assert await service.answered(TABLE, PUBLIC, seq, 5)
            spectator = holders.Holder(service, TABLE, None, None, None, None, None)  # type: ignore[arg-type]
            watching = holders.events(service, TABLE, None, spectator, 0, lambda: None)
            seat = holders.Holder(service, TABLE, 0, "t0", None, None, None)  # type: ignore[arg-type]
            playing = holders.events(service, TABLE, 0, seat, 0, lambda: None)
            first, mine = await anext(watching), await anext(playing)
            sent = loop.time()
            versions = []
            for i in range(1, 4):
                seq = await service.append_command(
                    TABLE, C.TakeSeat(name=f"p{i}"), token_hash(f"t{i}")
                )
                assert await service.answered(TABLE, PUBLIC, seq, 5)
                versions.append(version(await anext(playing)))  # each change, at once
            assert versions == sorted(set(versions)) and versions[0] > version(mine)
            latest = await anext(watching)
            assert loop.time() - sent >= 1.5 * 0.9
            public = await service.view(TABLE, None)
            assert version(latest) == public.version > version(first)  # the last, none between

    asyncio.run(go())


def test_a_spectators_stream_of_large_views_is_paced_by_their_bytes(monkeypatch):
    """A table's views grow with its chat (fifty messages of 500 characters: a view of 29 KB):
    each change sent to its hundreds of spectators cost the service a third of a core. A
    spectator's stream sends at most ``SPECTATOR_BYTES`` a second."""
    monkeypatch.setattr(holders, "SPECTATOR_GAP", 0.01)

    async def go():
        async with pipeline() as (_events, _model, service, _clock):
            await opened(service, TABLE)
            loop = asyncio.get_running_loop()
            spectator = holders.Holder(service, TABLE, None, None, None, None, None)  # type: ignore[arg-type]
            watching = holders.events(service, TABLE, None, spectator, 0, lambda: None)
            first = await anext(watching)
            monkeypatch.setattr(holders, "SPECTATOR_BYTES", len(first))  # a view a second
            sent = loop.time()
            seq = await service.append_command(TABLE, C.TakeSeat(name="p0"), token_hash("t0"))
            assert await service.answered(TABLE, PUBLIC, seq, 5)
            await anext(watching)
            assert loop.time() - sent >= 0.9

    asyncio.run(go())
