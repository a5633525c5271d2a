"""Who a request is (services/table/dependencies.py) on the twins: an anonymous look at a table
is answered by the read model alone, never by a fold of its log."""

from __future__ import annotations

import asyncio
import types

import pytest

from services.table.dependencies import seat_of
from services.table.limits import RateLimits, parse_rates
from services.table.problems import ApiError
from tests.unit.services.test_pipeline_on_twins import TABLE, Folds, open_table, pipeline


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


def _request(
    token: str | None, rates: RateLimits, host: str = "192.0.2.1"
) -> types.SimpleNamespace:
    headers = {"authorization": f"Bearer {token}"} if token else {}
    app = types.SimpleNamespace(state=types.SimpleNamespace(rates=rates))
    return types.SimpleNamespace(headers=headers, app=app, client=types.SimpleNamespace(host=host))


def test_tokens_refused_cost_a_budget_and_past_it_no_log_is_folded_for_one():
    """A token for a table the process does not hold costs a fold of its log: a client whose
    tokens were refused ten times in a minute is refused (429) before any fold; a seat's own
    token, and another client, are not."""

    async def go():
        async with pipeline() as (_events, _model, service, _clock):
            tokens = await open_table(service)
            rates = RateLimits(None, parse_rates({"refused_token": "10/minute"}))
            folds = Folds(service)
            codes = []
            for i in range(12):
                service.cache.drop(TABLE)  # (as a table long finished, not held)
                try:
                    await seat_of(service, TABLE, _request(f"junk-{i}", rates), required=True)
                except ApiError as e:
                    codes.append(e.status)
            assert codes == [403] * 10 + [429] * 2  # ten refusals, then none looked at
            assert folds.count == 10  # and nothing was folded past it
            service.cache.drop(TABLE)
            # without a token: 401 once the table is known to exist, never a fold
            with pytest.raises(ApiError) as anonymous:
                await seat_of(service, TABLE, _request(None, rates), required=True)
            assert anonymous.value.status == 401 and folds.count == 10
            other = _request("junk", rates, host="192.0.2.2")
            with pytest.raises(ApiError) as refused:
                await seat_of(service, TABLE, other, required=True)
            assert refused.value.status == 403
            service.cache.drop(TABLE)
            # a seat's own token is a fold that finds its seat: not counted, never refused
            for _ in range(3):
                service.cache.drop(TABLE)
                got = await seat_of(service, TABLE, _request(tokens[1], rates, "192.0.2.3"), True)
                assert got == 1

    asyncio.run(go())
