"""Who a request is (services/table/dependencies.py) on the twins: an anonymous look at a table
is answered by the read model alone, never by a fold of its log."""

from __future__ import annotations

import asyncio
import types

import pytest

from services.table.dependencies import seat_of
from services.table.problems import ApiError
from tests.unit.services.test_pipeline_on_twins import TABLE, open_table, pipeline


def test_an_anonymous_look_folds_no_log_and_an_unknown_table_is_a_404():
    async def go():
        async with pipeline() as (_events, _model, service, _clock):
            await open_table(service)
            service.cache.drop(TABLE)  # (left memory at rest)
            anonymous = types.SimpleNamespace(headers={})
            assert await seat_of(service, TABLE, anonymous, required=False) is None
            assert TABLE not in service.cache.tables  # not folded for it
            with pytest.raises(ApiError) as missing:
                await seat_of(service, "00000000000000ff", anonymous, required=False)
            assert missing.value.status == 404

    asyncio.run(go())
