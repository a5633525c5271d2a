"""The queue's snapshots on JetStream: a process that starts from the last one (its parts read
back by position, far below NATS's payload limit) folds the queue a reader of every entry does."""

from __future__ import annotations

import asyncio
import random
import uuid

from gcbc.eventlog.jetstream import JetStreamEventLog
from gcbc.queue import log as queue_log
from gcbc.queue.log import QueueLog
from tests.unit.queue.test_log import _full_fold, _random_history, _state


def test_a_queue_started_from_its_snapshot_on_jetstream_is_the_whole_fold(nats_url, monkeypatch):
    monkeypatch.setattr(queue_log, "SNAPSHOT_EVERY", 9)
    monkeypatch.setattr(queue_log, "PART", 4)

    async def go():
        name = uuid.uuid4().hex[:12]
        events = await JetStreamEventLog.connect(
            nats_url, stream=f"TEST_{name}", prefix=f"test.{name}", partitions=1
        )
        try:
            rng = random.Random(7)
            log = QueueLog(events)
            for _ in range(5):
                await _random_history(events, log, rng, 20)
                started = QueueLog(events)
                assert _state(await started.current()) == _state(await _full_fold(events))
            assert log.snapshot_at
        finally:
            await events.close()

    asyncio.run(go())
