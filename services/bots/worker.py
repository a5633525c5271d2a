"""The bot worker: the house plays the seats a table's creator gave it (the sandbox: POST /tables
``bots``), so a client author can play one seat against the house.

It follows the log to learn of tables that name house seats (their ``open_table`` command), reads
each house seat's view from the read model (woken by its changes, as the table service is) and
sends the bot's commands through the public HTTP API with the seat's token
(``services.common.house_bots``): the same command path as any client, so its commands are
checked, rate-limited and recorded like any other. Each table's bots stop once it is finished.

After a restart the worker reads the log from its start to find the tables still in play (a cost
that grows with the log; partitions and snapshots are issue 14's). A table whose house seats are
all its seats is started by the worker; otherwise a player starts it.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import msgspec
from gcbc_client import AsyncClient, AsyncSeat

from gcbc.contract import commands as C
from gcbc.contract.entries import CommandEntry, decode_entry
from gcbc.contract.options import HouseBots
from gcbc.contract.views import View
from gcbc.eventlog.port import EventLog, Stored, Subscription
from gcbc.readmodel.port import ReadModel, seat_key
from services.bots.seat import play_seat
from services.common.house_bots import bot_token
from services.common.settings import Settings

log = logging.getLogger("gcbc.bots")
view_decoder = msgspec.json.Decoder(View)
# what a table's opening command carries near its start (msgspec writes fields in order); other
# entries (answers, most of the log) are never decoded here
OPENING = b'"open_table"'
RETRY = 2.0  # seconds before a table's bots try again after an error (the API away, a restart)


class HouseSeat:
    """A house seat: views from the read model, commands through the API."""

    def __init__(self, model: ReadModel, api: AsyncSeat) -> None:
        self.model, self.api = model, api
        self.seat = api.seat
        self.table_id = api.table_id

    async def view(self, after: int | None = None, timeout: float = 0) -> View:
        while True:
            got = await self.model.wait(
                self.table_id, seat_key(self.seat), after=after, timeout=timeout
            )
            if got is not None:
                return view_decoder.decode(got.data)
            await asyncio.sleep(0.1)  # opened, not projected yet

    async def send(self, command: Any, command_id: str | None = None) -> Any:
        return await self.api.send(command, command_id)


class BotWorker:
    def __init__(self, events: EventLog, model: ReadModel, client: AsyncClient, secret: str):
        self.events, self.model, self.client, self.secret = events, model, client, secret
        self.playing: dict[str, asyncio.Task[None]] = {}
        self.finished = 0  # tables whose bots are done (a figure for tests and operators)

    async def handle(self, stored: Stored) -> None:
        if OPENING not in stored.data[:128]:
            return  # only a table's opening command names house seats: nothing else is decoded
        try:
            entry = decode_entry(stored.data)
        except msgspec.DecodeError:
            return
        if not isinstance(entry, CommandEntry):
            return
        c = entry.command
        if isinstance(c, C.OpenTable) and c.bots is not None and stored.table not in self.playing:
            task = asyncio.create_task(self.play_table(stored.table, c.bots, c.seats))
            self.playing[stored.table] = task
            task.add_done_callback(lambda _, table=stored.table: self._done(table))

    def _done(self, table: str) -> None:
        self.playing.pop(table, None)
        self.finished += 1

    def seat(self, table: str, seat: int) -> HouseSeat:
        token = bot_token(self.secret, table, seat)
        return HouseSeat(self.model, AsyncSeat(self.client, table, seat, token))

    async def play_table(self, table: str, bots: HouseBots, seats: int) -> None:
        house = [self.seat(table, n) for n in bots.seats]
        seed = int(table[:8], 16)  # table ids are hex (the server makes them)
        while True:
            try:
                v = await house[0].view()
                while v.status == "waiting":  # the lobby: players come (or the house starts)
                    if len(bots.seats) == seats:
                        await house[0].api.start()
                    v = await house[0].view(after=v.version, timeout=10)
                if v.status == "finished":
                    return
                await asyncio.gather(*(play_seat(s, bots.kind, seed * 10 + s.seat) for s in house))
                return
            except asyncio.CancelledError:
                raise
            except Exception as e:  # the API or Redis away, a view too stale: look again
                log.warning("table %s: bots paused (%s: %s)", table, type(e).__name__, e)
                await asyncio.sleep(RETRY)

    async def run(self, stop: asyncio.Event) -> None:
        subscription: Subscription = await self.events.follow(self.handle, after=0)
        try:
            await stop.wait()
        finally:
            await subscription.close()
            for task in list(self.playing.values()):
                task.cancel()
            await asyncio.gather(*self.playing.values(), return_exceptions=True)


async def main_async(settings: Settings, stop: asyncio.Event) -> None:
    """The composition root: the real adapters."""
    from gcbc.eventlog.jetstream import JetStreamEventLog
    from gcbc.readmodel.redis import RedisReadModel

    if not settings.bot_secret:
        raise SystemExit("the bot worker needs GCBC_BOT_SECRET (the table service's too)")
    events = await JetStreamEventLog.connect(settings.nats_url, settings.stream_replicas)
    model = RedisReadModel.connect(settings.redis_url)
    log.info("bot worker ready (API %s)", settings.api_url)
    try:
        async with AsyncClient(settings.api_url, timeout=60) as client:
            await BotWorker(events, model, client, settings.bot_secret).run(stop)
    finally:
        await events.close()
        await model.close()


def main() -> None:
    from services.common.runner import run_service

    s = Settings.from_env()
    run_service("bots", lambda stop: main_async(s, stop))
