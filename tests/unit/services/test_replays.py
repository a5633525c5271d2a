"""The table service's side of the replay worker (a real worker process): at most so many
requests wait for it, and one that stops is replaced."""

from __future__ import annotations

import asyncio
import os
import time

import pytest

from services.table import replay_worker as worker
from services.table.problems import ApiError
from services.table.replays import Replays


def test_past_the_queue_a_request_is_told_to_retry_and_nothing_waits():
    async def go() -> None:
        replays = Replays(worker.Setup(), queue=2)
        try:
            assert await replays._ask(worker.ready)  # the worker is up
            waiting = [asyncio.ensure_future(replays._ask(time.sleep, 0.5)) for _ in range(2)]
            await asyncio.sleep(0)
            with pytest.raises(ApiError) as refused:
                await replays._ask(worker.ready)
            assert refused.value.status == 503 and refused.value.code == "replays_busy"
            assert refused.value.headers == {"Retry-After": "1"}
            await asyncio.gather(*waiting)
            assert await replays._ask(worker.ready)  # answered again once the queue is gone
        finally:
            replays.close()

    asyncio.run(asyncio.wait_for(go(), 60))


def test_a_worker_that_stops_is_replaced_at_the_next_request():
    async def go() -> None:
        replays = Replays(worker.Setup())
        try:
            replays.kept["0123456789abcdef"] = None
            with pytest.raises(ApiError) as stopped:
                await replays._ask(os._exit, 1)
            assert stopped.value.status == 503 and stopped.value.code == "replays_busy"
            assert not replays.kept  # a new worker keeps nothing yet
            assert await replays._ask(worker.ready)
        finally:
            replays.close()

    asyncio.run(asyncio.wait_for(go(), 60))
