"""The ratings' projection: a durable consumer of every table's answers, in the log's order, that
rates each rated table once it ends (services.common.ratings). Order matters to ratings, so an
entry it cannot rate yet (NATS or Redis away, or a rebuild holding the ratings: ``gcbc-ops
players rebuild``) is retried in place, never passed over: the entries behind it wait."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import msgspec

from gcbc.eventlog.port import EventLog, LogUnavailable, Stored
from gcbc.eventlog.records import entry_of
from gcbc.playermodel.port import PlayerModel, RatingsHeld
from gcbc.readmodel.port import ModelUnavailable
from gcbc_contract import commands as C
from gcbc_contract.entries import CommandEntry
from services.common.folded import FoldedTable
from services.common.ratings import ENDED, rate_table

log = logging.getLogger("gcbc.projection")
DURABLE = "ratings"  # tools.devservers.nats_rights.RATINGS_DURABLE
RETRY = 1.0  # seconds before an entry that could not be rated is tried again


class RatingProjection:
    def __init__(self, events: EventLog, model: PlayerModel) -> None:
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
        if not entries or not _opened_rated(entries[0]):
            return  # most tables are not rated: their games are not folded again here
        t = FoldedTable(stored.table)
        for entry in entries:
            if entry.seq > stored.seq:
                break
            t.apply(entry)
        if t.seq == stored.seq:
            await rate_table(self.model, t, stored.seq)


async def consume_until(
    events: EventLog, durable: str, handle: Any, stop: asyncio.Event, **options: Any
) -> None:
    """Consume with the durable ``durable`` until ``stop`` (made again until NATS answers, as
    the service starts)."""
    sub = None
    while sub is None and not stop.is_set():
        try:
            sub = await events.consume(durable, handle, **options)
        except LogUnavailable as e:
            log.warning("%s: consumer not made yet: %s", durable, e)
            await asyncio.sleep(1.0)
    try:
        await stop.wait()
    finally:
        if sub is not None:
            await sub.close()


def _opened_rated(first: Stored) -> bool:
    """Whether a table's first entry opens it rated (a rated table's result moves ratings)."""
    try:
        entry = entry_of(first)
    except msgspec.DecodeError:
        return False
    return (
        isinstance(entry, CommandEntry)
        and isinstance(entry.command, C.OpenTable)
        and entry.command.rated
    )
