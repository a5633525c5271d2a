"""GET /players/me/tables on the twins: the list is read from the tables' public views, free,
whatever tables the process holds; a table with no view yet is read from the log, and a list
that reads one is paid for from the client's log-read budget."""

from __future__ import annotations

import asyncio
import types

import pytest

from gcbc.eventlog.memory import MemoryEventLog
from gcbc.players.log import PlayerLog
from gcbc.readmodel.port import PUBLIC
from gcbc_contract import commands as C
from services.table.identities import Identities
from services.table.limits import RateLimits, parse_rates
from services.table.players import Players
from services.table.problems import ApiError
from services.table.service import token_hash
from tests.unit.services.test_pipeline_on_twins import opened, pipeline


def test_a_players_tables_are_read_from_their_views_and_only_a_log_read_is_paid_for():
    async def go():
        async with pipeline() as (_events, model, service, _clock):
            identities = Identities(PlayerLog(MemoryEventLog()))
            service.player_of = identities.player_of
            ann, token = await identities.register("ann", False)
            tables = ["00000000000000e1", "00000000000000e2"]
            for table in tables:
                await opened(service, table)
                await identities.joined(await identities.authenticate(token), table)
                seq = await service.append_command(
                    table, C.TakeSeat(name="ann"), token_hash(table), player=ann.player_id
                )
                assert await service.answered(table, PUBLIC, seq, 5)
            state = types.SimpleNamespace(
                identities=identities, rates=RateLimits(None, parse_rates({"log_read": "1/minute"}))
            )
            request = types.SimpleNamespace(
                headers={"authorization": f"Bearer {token}"},
                client=types.SimpleNamespace(host="192.0.2.1"),
            )

            async def listed() -> list[str]:
                got = await Players.my_tables.fn(None, request, state, service, 50)
                return [t.table_id for t in got.tables]

            for table in tables:
                service.cache.drop(table)  # (left memory at rest)
            for _ in range(3):  # read from the views: no log read, nothing paid
                assert await listed() == tables[::-1]
            assert not any(table in service.cache.tables for table in tables)
            await model.delete(tables[0])  # (its view not projected yet)
            assert await listed() == tables[::-1]  # read from the log: paid
            assert await listed() == tables[::-1]  # held now
            service.cache.drop(tables[0])
            with pytest.raises(ApiError) as refused:
                await listed()
            assert refused.value.status == 429

    asyncio.run(go())
