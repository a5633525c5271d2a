"""The projection service: a durable consumer that folds each table's entries and writes every
seat's view and the public view to Redis, stamped with the log position, in one atomic step.
Anything at or below the stored position is skipped, so redelivery is harmless. Views come from
the engine's view functions only."""

from __future__ import annotations

import asyncio
import logging

import msgspec

from gcbc.eventlog.jetstream import JetStreamEventLog
from gcbc.eventlog.port import EventLog, Stored
from gcbc.readmodel.port import PUBLIC, ReadModel, seat_key
from gcbc.readmodel.redis import RedisReadModel
from gcbc.rules import view
from services.common.cache import FoldedCache
from services.common.folded import FoldedTable
from services.common.settings import CHAT_LIMIT, LOG_LIMIT, Settings
from services.consumer import consume

log = logging.getLogger("gcbc.projection")
DURABLE = "projection"
_encode = msgspec.json.Encoder().encode


def render_views(
    t: FoldedTable, log_limit: int | None, chat_limit: int | None = CHAT_LIMIT
) -> dict[str, bytes]:
    """Every view of a table, from the engine's view function (the one place views are made)."""
    s = t.state
    started = t.wait_started or None
    views = {}
    for key, seat in [(PUBLIC, None), *((seat_key(i), i) for i, x in enumerate(s.seats) if x)]:
        v = view(s, seat, log_limit=log_limit, wait_started=started, chat_limit=chat_limit)
        views[key] = _encode(v)
    return views


def lobby_summary(t: FoldedTable) -> bytes | None:
    """A table waiting for players, as GET /tables lists it; None once it started."""
    s = t.state
    if s.step != "lobby" or not s.table_id:
        return None
    return _encode(
        {
            "table_id": s.table_id,
            "seats": len(s.seats),
            "taken": sum(1 for x in s.seats if x is not None),
            "options": s.options,
            "deadlines": s.deadlines,
            "seeded": s.requested_seed is not None or s.deal is not None,
        }
    )


class Projection:
    def __init__(
        self,
        events: EventLog,
        model: ReadModel,
        log_limit: int | None = LOG_LIMIT,
        chat_limit: int | None = CHAT_LIMIT,
    ) -> None:
        self.cache = FoldedCache(events)
        self.model = model
        self.log_limit = log_limit
        self.chat_limit = chat_limit
        self.written = 0
        self._rendered: dict[str, tuple[int, dict[str, bytes]]] = {}  # table -> (version, views)

    async def handle(self, stored: Stored) -> bool:
        t = await self.cache.deliver(stored)
        if t.seq < stored.seq:
            return False  # not in the log (cannot happen): nothing to show
        if t.seq == stored.seq and not t.settled:
            return False  # a command: views change with its answer
        views, changed = self._views(t)
        # the views, the lobby listing and the wake-up in one atomic, position-guarded step
        written = await self.model.put(stored.table, views, t.seq, changed, lobby_summary(t))
        self.written += written
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
        self._rendered[t.table_id] = (t.state.version, views)
        if len(self._rendered) > 10_000:
            self._rendered.pop(next(iter(self._rendered)))
        return views, changed

    async def catch_up(self, table_id: str) -> bool:
        """Write the table's views if the read model is behind the log (after a wipe)."""
        t = await self.cache.get(table_id)
        if not t.seq or await self.model.position(table_id) >= t.seq:
            return False
        views, _ = self._views(t)
        return await self.model.put(table_id, views, t.seq, None, lobby_summary(t))

    async def watch_read_model(self, events: EventLog, stop: asyncio.Event) -> None:
        """A read model found without its epoch mark (new, or Redis restarted empty) gets every
        table projected again from the log, instead of waiting for each table's next entry."""
        while not stop.is_set():
            try:
                if await self.model.claim_epoch():  # type: ignore[attr-defined]
                    count = 0
                    async for table_id in events.tables():
                        count += await self.catch_up(table_id)
                    log.info("read model (re)projected: %d tables", count)
            except Exception as e:  # noqa: BLE001  (Redis or NATS away: try again)
                log.warning("read model check failed: %s", e)
            try:
                await asyncio.wait_for(stop.wait(), 2.0)
            except TimeoutError:
                pass

    async def rebuild(self, table_id: str) -> None:
        """Wipe a table's views and write them again from the log."""
        self.cache.drop(table_id)
        self._rendered.pop(table_id, None)
        await self.model.delete(table_id)
        t = await self.cache.get(table_id)
        if t.seq:
            await self.model.put(
                table_id,
                render_views(t, self.log_limit, self.chat_limit),
                t.seq,
                None,
                lobby_summary(t),
            )


async def main_async(settings: Settings, stop: asyncio.Event) -> None:
    events = await JetStreamEventLog.connect(settings.nats_url, settings.stream_replicas)
    model = RedisReadModel.connect(settings.redis_url)
    p = Projection(events, model, settings.log_limit, settings.chat_limit)
    log.info("projection ready")
    try:
        await asyncio.gather(
            consume(events, DURABLE, p.handle, stop), p.watch_read_model(events, stop)
        )
    finally:
        await events.close()
        await model.close()


def main() -> None:
    from services.common.runner import run_service

    s = Settings.from_env()
    run_service("projection", lambda stop: main_async(s, stop))


if __name__ == "__main__":
    main()
