"""The players' read model kept from their log on JetStream: one entry at a time, so a name's claim
the read model failed to take comes back before the entries after it, and a registration withdrawn
after its claim never shows."""

from __future__ import annotations

import asyncio
import uuid

from gcbc.eventlog.jetstream import JetStreamEventLog
from gcbc.eventlog.leases import MemoryLeases
from gcbc.playermodel.memory import MemoryPlayerModel
from gcbc.playermodel.port import PlayerRecord
from gcbc.players.log import name_key
from gcbc.readmodel.port import ModelUnavailable
from gcbc_contract.players import NameClaimed, RegistrationWithdrawn, encode_player_entry
from services.projection.ratings import consume_players


class AwayOnce(MemoryPlayerModel):
    """Redis away for the first claim written."""

    def __init__(self) -> None:
        super().__init__()
        self.failed = False
        self.written = 0  # claims written (the one that failed, once it came back)

    async def put_player(self, record: PlayerRecord) -> None:
        if not self.failed:
            self.failed = True
            raise ModelUnavailable("redis away")
        await super().put_player(record)
        self.written += 1


def test_a_claim_that_failed_once_does_not_come_back_after_its_withdrawal(nats_url):
    async def go():
        name = uuid.uuid4().hex[:12]
        players = await JetStreamEventLog.connect(
            nats_url, stream=f"TEST_{name}", prefix=f"test.{name}", partitions=1
        )
        model, stop = AwayOnce(), asyncio.Event()
        try:
            player_id = "00000000000000a1"
            claim = NameClaimed(player_id=player_id, name="ann", bot=False, at=1)
            await players.append(name_key("ann"), encode_player_entry(claim), 0)
            gone = RegistrationWithdrawn(player_id=player_id, at=2)
            last = await players.append(player_id, encode_player_entry(gone), 0)
            consuming = asyncio.create_task(
                consume_players(players, model, stop, MemoryLeases(ttl=1.0), "a")
            )
            for _ in range(500):
                if model.written and await model.position() >= last.seq:
                    break
                await asyncio.sleep(0.02)
            assert model.failed and await model.position() == last.seq
            assert await model.player(player_id) is None
            stop.set()
            await consuming
        finally:
            await players.close()

    asyncio.run(go())
