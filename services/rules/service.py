"""The rules worker as a process: its consumers of the partitions it holds, its timers, its
metrics and health, and the composition root with the real adapters."""

from __future__ import annotations

import asyncio
import logging

from gcbc.eventlog.leases import Leases, MemoryLeases
from gcbc.eventlog.port import Subscription
from services.common import deadlines as deadlines_index
from services.common import operators, snapshots
from services.common.partitions import Partitions
from services.common.rules import ENGINE, Rules
from services.common.settings import Settings
from services.rules.timers import deadlines, keep_index
from services.rules.worker import RulesWorker

log = logging.getLogger("gcbc.rules")
DURABLE = "rules-worker"
ACK_WAIT = 5.0  # a delivered command whose worker died is delivered again after this long


async def run(
    worker: RulesWorker,
    stop: asyncio.Event,
    metrics_port: int = 0,
    leases: Leases | None = None,
    instance: str | None = None,
) -> None:
    """Answer commands as they come and fire deadlines until ``stop`` (metrics and health on
    ``metrics_port``). A restarted worker answers at once, however many tables exist: a
    command's table is folded when its command comes; every other table is folded meanwhile
    (its deadlines fire once it is; a long fold says how far it is, with a rate).

    Only the partitions this instance holds a lease on (``leases``; None: a twin of its own, so
    it holds every one), each through its own consumer (services.common.partitions)."""
    readiness = operators.Readiness(worker.events, None, (DURABLE,))
    async with operators.serve(readiness, metrics_port):

        async def start(partition: int) -> Subscription:
            worker.take(partition)
            # the commands alone: the answers are this worker's own (folded as appended), and
            # a command after another instance's answer catches its table up from the log
            return await worker.events.consume_batches(
                DURABLE, worker.handle_batch, ACK_WAIT, partition=partition, only="commands"
            )

        worker.share = Partitions(
            leases or MemoryLeases(),
            "rules",
            worker.events.partitions,
            start,
            worker.forget,
            instance,
            parting=worker.part,
        )
        log.info("rules worker consuming")
        watching = asyncio.create_task(operators.watch_lag(worker.events, DURABLE, stop, log))
        try:
            await asyncio.gather(
                worker.share.run(stop), deadlines(worker, stop), keep_index(worker, stop)
            )
        finally:
            watching.cancel()


async def main_async(
    settings: Settings, stop: asyncio.Event | None = None, rules: Rules = ENGINE
) -> None:
    """The composition root: the real adapters; ``rules``: what decides each command."""
    from gcbc.eventlog.jetstream import JetStreamEventLog
    from gcbc.eventlog.jetstream_leases import JetStreamLeases
    from gcbc.keyvalue.jetstream import JetStreamKeyValue

    stop = stop or asyncio.Event()
    events = await JetStreamEventLog.connect(
        settings.nats_url, settings.stream_replicas, partitions=settings.partitions
    )
    replicas = settings.stream_replicas
    leases = await JetStreamLeases.open(events.nc, ttl=settings.lease_seconds, replicas=replicas)
    worker = RulesWorker(
        events,
        rules=rules,
        lobby_seconds=settings.lobby_ttl,
        snapshots=await JetStreamKeyValue.open(events.nc, snapshots.BUCKET, replicas),
        deadlines=await JetStreamKeyValue.open(events.nc, deadlines_index.BUCKET, replicas),
    )
    try:
        await run(worker, stop, operators.metrics_port(9101), leases, settings.instance or None)
    finally:
        await events.close()


def main(rules: Rules = ENGINE) -> None:
    from services.common.runner import run_service

    settings = Settings.from_env()
    run_service("rules worker", lambda stop: main_async(settings, stop, rules))
