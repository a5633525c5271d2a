"""Who a request is (services/table/dependencies.py) on the twins: an anonymous look at a table
is answered by the read model alone, never by a fold of its log."""

from __future__ import annotations

import asyncio
import types

import pytest

from gcbc_contract.entries import decode_entry
from services.table.dependencies import seat_of
from services.table.limits import RateLimits, parse_rates
from services.table.problems import ApiError
from tests.unit.services.test_pipeline_on_twins import (
    TABLE,
    Folds,
    closed,
    open_table,
    pipeline,
    settled,
)


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


def test_a_finished_table_not_held_counts_as_a_log_read_for_its_seats_and_one_in_play_does_not():
    """A seat's token at a table the process does not hold costs a fold of its whole log: for a
    finished table (which may leave memory again) each costs one of the client's log reads, and
    past that budget none is folded; a table in play stays held once read, and is not counted."""

    async def go():
        async with pipeline(lobby_seconds=60) as (events, _model, service, clock):
            tokens = await open_table(service)
            rates = RateLimits(None, parse_rates({"log_read": "3/minute"}))
            for _ in range(5):  # in its lobby: never counted
                service.cache.drop(TABLE)
                assert await seat_of(service, TABLE, _request(tokens[1], rates), True) == 1
            opened = decode_entry((await events.read(TABLE))[0].data).at / 1000
            clock.now = opened + 61
            await closed(events, TABLE)
            await settled(events)
            folds = Folds(service)
            codes = []
            for _ in range(5):
                service.cache.drop(TABLE)
                try:
                    codes.append(await seat_of(service, TABLE, _request(tokens[1], rates), True))
                except ApiError as e:
                    codes.append(e.status)
            assert codes == [1, 1, 1, 429, 429]
            assert folds.count == 3  # none folded past the budget
            # another client's own budget; once held, the first client's seats cost nothing more
            assert await seat_of(service, TABLE, _request(tokens[2], rates, "192.0.2.9"), True) == 2
            assert await seat_of(service, TABLE, _request(tokens[3], rates), True) == 3
            assert folds.count == 4

    asyncio.run(go())
