"""The players' projection: a durable consumer of the players' log that keeps the players' read
model (gcbc.playermodel): each player once its name is claimed, and the tables it joined. Its
writes are idempotent, so a redelivered entry is harmless."""

from __future__ import annotations

import asyncio
import logging

from gcbc.eventlog.port import EventLog, Stored
from gcbc.playermodel.port import PlayerModel
from gcbc.players.projection import project
from services.projection.ratings import consume_until

log = logging.getLogger("gcbc.projection")
DURABLE = "players"  # tools.devservers.nats_rights.PLAYERS_DURABLE


class PlayerProjection:
    def __init__(self, events: EventLog, model: PlayerModel) -> None:
        self.events = events
        self.model = model

    async def handle(self, stored: Stored) -> None:
        await project(self.model, stored)

    async def run(self, stop: asyncio.Event) -> None:
        """Consume the players' log until ``stop``."""
        await consume_until(self.events, DURABLE, self.handle, stop)
