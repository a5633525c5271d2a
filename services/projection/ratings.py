"""The ratings' projection: a durable consumer of every table's answers, in the log's order, that
rates each rated table once it ends (services.common.ratings). Order matters to ratings, so an
entry it cannot rate yet (NATS or Redis away, or a rebuild holding the ratings: ``gcbc-ops
players rebuild``) is retried in place, never passed over: the entries behind it wait. Its
consumer delivers one entry at a time (``in_order``): an entry a stopped process held comes back
before any later one, which would otherwise be rated first and pass it over for good."""

from __future__ import annotations

import asyncio
import functools
import logging
from typing import Any

from gcbc.eventlog.leases import Leases
from gcbc.eventlog.port import EventLog, LogAdmin, LogUnavailable, Stored, Subscription
from gcbc.playermodel.port import PlayerDirectory, PlayerModel, RatingBoard, RatingsHeld
from gcbc.players import projection as players_projection
from gcbc.readmodel.port import ModelUnavailable
from services.common.folded import FoldedTable
from services.common.partitions import Partitions
from services.common.ratings import ENDED, opens_rated, rate_table, rebuild_ratings

log = logging.getLogger("gcbc.projection")
DURABLE = "ratings"  # tools.devservers.nats_rights.RATINGS_DURABLE
RETRY = 1.0  # seconds before an entry that could not be rated is tried again


class RatingProjection:
    def __init__(self, events: EventLog, model: RatingBoard) -> None:
        self.events = events
        self.model = model

    async def handle(self, stored: Stored) -> None:
        if ENDED not in stored.data:
            return  # not the end of a game: nothing to rate
        while True:
            try:
                await self._rate(stored)
                return
            except RatingsHeld:
                log.info("table %s not rated yet: a rebuild holds the ratings", stored.table)
                await asyncio.sleep(RETRY)
            except (LogUnavailable, ModelUnavailable) as e:
                log.warning("table %s not rated yet: %s", stored.table, e)
                await asyncio.sleep(RETRY)

    async def _rate(self, stored: Stored) -> None:
        if stored.seq <= await self.model.rated_position():
            return  # rated before (a redelivery)
        entries = await self.events.read(stored.table)
        if not entries or not opens_rated(entries[0]):
            return  # most tables are not rated: their games are not folded again here
        t = FoldedTable(stored.table)
        for entry in entries:
            if entry.seq > stored.seq:
                break
            t.apply(entry)
        if t.seq == stored.seq:
            await rate_table(self.model, t, stored.seq)


async def consume_alone(
    events: EventLog,
    durable: str,
    handle: Any,
    stop: asyncio.Event,
    leases: Leases,
    instance: str | None = None,
    **options: Any,
) -> None:
    """Consume with the durable ``durable`` in one projection process at a time, until ``stop``:
    it holds a lease of its own, as a partition is held (``Partitions``; its consumer made again
    until NATS answers). Ratings are made in the log's order, so two processes must never share
    the consumer (each would take part of its entries, and rate a table after a later one)."""

    async def start(_: int) -> Subscription:
        return await events.consume(durable, handle, **options)

    share = Partitions(leases, f"projection.{durable}", 1, start, None, instance, gauged=False)
    await share.run(stop)


async def consume_players(
    players: EventLog,
    model: PlayerDirectory,
    stop: asyncio.Event,
    leases: Leases,
    instance: str | None = None,
) -> None:
    """The players' read model kept from their log, in one process at a time and one entry at a
    time: a name's claim that failed once (Redis away) and came back after its registration's
    withdrawal would show a player that never was."""
    await consume_alone(
        players,
        players_projection.DURABLE,
        functools.partial(players_projection.project, model),
        stop,
        leases,
        instance,
        in_order=True,
    )


async def rebuild_players(players: LogAdmin, tables: LogAdmin, model: PlayerModel) -> None:
    """The players' read model and every rating made again from their logs (after the store
    that holds them was wiped): as ``gcbc-ops players rebuild`` does, safe while they run."""
    count = await players_projection.rebuild(players, model)
    rated = await rebuild_ratings(tables, model)
    log.info("players rebuilt from %d entries, ratings from %d rated tables", count, rated)
