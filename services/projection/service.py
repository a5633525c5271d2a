"""The projection service: a durable consumer that folds each table's entries and writes every
seat's view, the public view, the lobby listing and each seat's recent answers to the read model,
stamped with the log position, in one atomic step. Anything at or below the stored position is
skipped, so redelivery is harmless. Views come from the engine's view functions only."""

from __future__ import annotations

import asyncio
import logging
import time

import msgspec

from gcbc.eventlog.leases import Leases, MemoryLeases
from gcbc.eventlog.partitions import partition_of
from gcbc.eventlog.port import EventLog, Skip, Stored, Subscription
from gcbc.readmodel.port import ReadModel
from services.common import health, metrics
from services.common.cache import FoldedCache
from services.common.folded import FoldedTable
from services.common.partitions import Partitions
from services.common.progress import ProgressLog
from services.common.settings import CHAT_LIMIT, LOG_LIMIT, Settings
from services.common.views import render_views, write

log = logging.getLogger("gcbc.projection")
DURABLE = "projection"


class Projection:
    def __init__(
        self,
        events: EventLog,
        model: ReadModel,
        log_limit: int | None = LOG_LIMIT,
        chat_limit: int | None = CHAT_LIMIT,
    ) -> None:
        self.events = events
        self.cache = FoldedCache(events)
        self.model = model
        self.log_limit = log_limit
        self.chat_limit = chat_limit
        self.written = 0
        self._rendered: dict[str, tuple[int, dict[str, bytes]]] = {}  # table -> (version, views)
        self.share: Partitions | None = None  # the partitions this instance processes (run)

    async def handle(self, stored: Stored) -> bool:
        try:
            t = await self.cache.deliver(stored)
        except msgspec.DecodeError as e:
            raise Skip(f"not an entry: {e}") from None
        if t.seq < stored.seq:
            return False  # not in the log (cannot happen): nothing to show
        if t.seq == stored.seq and not t.settled:
            return False  # a command: views change with its answer
        if not t.state.table_id:
            return False  # no table opened (refused, or nothing but what is not an entry)
        views, changed = self._views(t)
        # the views, the listing, the answers and the wake-up in one atomic, position-guarded step
        written = await write(self.model, t, views, changed)
        self.written += written
        if written:
            metrics.VIEWS_WRITTEN.inc()
            if t.seq == stored.seq and stored.at:  # the answer that made these views
                metrics.ANSWER_TO_VIEWS.observe(max(0.0, time.time() - stored.at))
        return written

    def _views(self, t: FoldedTable) -> tuple[dict[str, bytes], list[str] | None]:
        """The table's views, rendered again only if its state changed (a refusal or a command
        changes no view; the deadlines shown depend on the wait, which only events change), and
        which of them differ from the previous ones (None: unknown, maybe all)."""
        cached = self._rendered.get(t.table_id)
        if cached is not None and cached[0] == t.state.version:
            return cached[1], []
        views = render_views(t, self.log_limit, self.chat_limit)
        changed = None
        if cached is not None:
            before = cached[1]
            changed = [k for k, v in views.items() if before.get(k) != v]
        if t.state.step == "finished":
            self._rendered.pop(t.table_id, None)  # nothing changes any more: keep nothing
        else:
            self._rendered[t.table_id] = (t.state.version, views)
            if len(self._rendered) > 10_000:
                self._rendered.pop(next(iter(self._rendered)))
        return views, changed

    def forget(self, partition: int) -> None:
        """A partition handed over: its tables are another instance's now (keep no memory)."""
        for table_id in list(self.cache.tables):
            if partition_of(table_id, self.events.partitions) == partition:
                self.cache.drop(table_id)
                self._rendered.pop(table_id, None)

    async def catch_up(self, table_id: str) -> bool:
        """Write the table's views if the read model is behind the log (after a wipe)."""
        t = await self.cache.get(table_id)
        if not t.seq or await self.model.position(table_id) >= t.seq:
            return False
        views, _ = self._views(t)
        return await write(self.model, t, views)

    async def watch_read_model(self, stop: asyncio.Event, every: float = 2.0) -> None:
        """A read model found without its epoch mark (new, or Redis restarted empty) gets every
        table projected again from the log, instead of waiting for each table's next entry."""
        while not stop.is_set():
            try:
                if await self.model.claim_epoch():
                    count = 0
                    tables = [t async for t in self.events.tables()]
                    progress = ProgressLog(log, "re-projecting the read model", len(tables))
                    for table_id in tables:
                        count += await self.catch_up(table_id)
                        if self.share is not None and not self.share.owns(table_id):
                            self.cache.drop(table_id)  # another instance's: keep no memory
                            self._rendered.pop(table_id, None)
                        progress.step()
                    progress.finish()
                    log.info("read model (re)projected: %d tables", count)
                counts = (await self.model.status()).tables  # one small read every 2 s
                for status in ("lobby", "playing", "finished"):
                    metrics.TABLES.labels(status).set(counts.get(status, 0))
            except Exception as e:  # noqa: BLE001  (Redis or NATS away: try again)
                log.warning("read model check failed: %s", e)
            try:
                await asyncio.wait_for(stop.wait(), every)
            except TimeoutError:
                pass

    async def run(
        self,
        stop: asyncio.Event,
        metrics_port: int = 0,
        leases: Leases | None = None,
        instance: str | None = None,
    ) -> None:
        """Consume the log and watch the read model until ``stop`` (metrics and health on
        ``metrics_port``): the partitions this instance holds a lease on (``leases``; None: a
        twin of its own, so every one), each through its own consumer."""
        readiness = health.Readiness(self.events, self.model, (DURABLE,))
        async with health.serve(readiness, metrics_port):

            async def start(partition: int) -> Subscription:
                return await self.events.consume(DURABLE, self.handle, partition=partition)

            self.share = Partitions(
                leases or MemoryLeases(),
                "projection",
                self.events.partitions,
                start,
                self.forget,
                instance,
            )
            lag = asyncio.create_task(health.watch_lag(self.events, DURABLE, stop, log))
            try:
                await asyncio.gather(self.share.run(stop), self.watch_read_model(stop))
            finally:
                lag.cancel()


async def main_async(settings: Settings, stop: asyncio.Event) -> None:
    """The composition root: the real adapters."""
    from gcbc.eventlog.jetstream import JetStreamEventLog
    from gcbc.eventlog.jetstream_leases import JetStreamLeases
    from gcbc.readmodel.redis import RedisReadModel

    events = await JetStreamEventLog.connect(
        settings.nats_url, settings.stream_replicas, partitions=settings.partitions
    )
    leases = await JetStreamLeases.open(events.nc, replicas=settings.stream_replicas)
    model = RedisReadModel.connect(settings.redis_url)
    log.info("projection ready")
    try:
        projection = Projection(events, model, settings.log_limit, settings.chat_limit)
        await projection.run(stop, health.metrics_port(9102), leases, settings.instance or None)
    finally:
        await events.close()
        await model.close()


def main() -> None:
    from services.common.runner import run_service

    s = Settings.from_env()
    run_service("projection", lambda stop: main_async(s, stop))
