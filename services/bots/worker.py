"""The bot worker: the house plays the seats a table's creator gave it (the sandbox: POST /tables
``bots``), so a client author can play one seat against the house.

It learns of tables that name house seats from the house's tables (``services.common.
house_tables``: the table service notes each before appending its opening command), reads each
house seat's view from the read model (woken by its changes, as the table service is) and sends
the bot's commands through the public HTTP API with the seat's token (``services.common.
house_bots``): the same command path as any client, so its commands are checked, rate-limited and
recorded like any other. Each table's bots stop once it is finished, and its note goes.

The house plays at a person's pace (``services.bots.pace``): each bot thinks before it acts (the
table's ``think``), and the worker sends at most ``GCBC_BOT_ACTIONS`` actions a second over all
its tables, granted to the tables in turn.

After a restart the worker reads the notes: the tables still in play. A log from before the notes
is scanned once for tables' opening commands (``build``). A table whose house seats are all its
seats is started by the worker; otherwise a player starts it.
"""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any

import msgspec
from gcbc_client import AsyncClient, AsyncSeat
from gcbc_client.httpx_transport import HttpxTransport

from gcbc.eventlog.leases import Leases
from gcbc.eventlog.port import FullLog, Stored
from gcbc.eventlog.records import entry_or_none
from gcbc.keyvalue.port import KeyValue
from gcbc.readmodel.port import ViewReader, seat_key
from gcbc_contract.entries import CommandEntry
from gcbc_contract.options import HouseBots
from gcbc_contract.views import View
from services.bots.pace import Pace, Turns
from services.bots.seat import play_seat
from services.common import house_tables
from services.common.folded import FoldedTable
from services.common.house_bots import HOUSE_HEADER, bot_seed, bot_token, house_key
from services.common.partitions import Partitions
from services.common.purges import keep_purged
from services.common.settings import Settings

log = logging.getLogger("gcbc.bots")
view_decoder = msgspec.json.Decoder(View)
# what a table's opening command carries near its start (msgspec writes fields in order); other
# entries (answers, most of the log) are never decoded here
OPENING = b'"open_table"'
# seconds before a table's bots try again after an error (the API away, a restart): drawn below
# a ceiling that doubles from RETRY to RETRY_MAX with each failure in a row (tables that failed
# together come back apart), never sooner than the server asked (Retry-After)
RETRY, RETRY_MAX = 2.0, 60.0
# a view not in the read model yet (just opened; a read model rebuilt): looked for again after
# a pause that doubles up to a second, until this many seconds have passed (then an error)
NO_VIEW_FOR = 30.0
# seconds a noted table may take to appear in the log (noted before its opening is appended):
# after that a note of a table with no log is one whose opening was refused or lost
GRACE = 30.0
OVER_AFTER = 3  # failures in a row after which the table's log is read: is it over?
LEASE = "bots"  # the house's lease (its key's first part is the NATS user's: tools.devservers)


def retry_pause(failures: int, retry_after: float | None = None) -> float:
    """Seconds before trying again after ``failures`` in a row (``RETRY``, above)."""
    ceiling = min(RETRY_MAX, RETRY * 2 ** (max(failures, 1) - 1))
    return (retry_after or 0.0) + random.uniform(0, ceiling)  # noqa: S311  (a pause, no secret)


class HouseSeat:
    """A house seat: views from the read model, commands through the API."""

    def __init__(self, model: ViewReader, api: AsyncSeat) -> None:
        self.model, self.api = model, api
        self.seat = api.seat
        self.table_id = api.table_id

    async def view(self, after: int | None = None, timeout: float = 0) -> View:
        loop = asyncio.get_running_loop()
        until = loop.time() + max(timeout, NO_VIEW_FOR)
        pause = 0.05
        while True:
            got = await self.model.wait(
                self.table_id, seat_key(self.seat), after=after, timeout=timeout
            )
            if got is not None:
                return view_decoder.decode(got.data)
            if (await self.model.seated([self.table_id]))[0] is not None:
                # finished, its views expired: the table service makes its view from the log
                return await self.api.view()
            if loop.time() >= until:
                raise LookupError(f"no view of seat {self.seat} in the read model")
            await asyncio.sleep(pause)  # opened, not projected yet
            pause = min(1.0, pause * 2)

    async def send(self, command: Any, command_id: str | None = None) -> Any:
        return await self.api.send(command, command_id)


class BotWorker:
    def __init__(
        self,
        events: FullLog,
        model: ViewReader,
        client: AsyncClient,
        secret: str,
        house: KeyValue,
        grace: float = GRACE,
        think: float = 0.0,
        actions: float = 0.0,
    ) -> None:
        self.events, self.model, self.client, self.secret = events, model, client, secret
        self.house = house
        self.grace = grace
        self.think = think  # for tables whose record names none (opened before it existed)
        self.turns = Turns(actions)
        self.playing: dict[str, asyncio.Task[None]] = {}
        self.finished = 0  # tables whose bots are done (a figure for tests and operators)
        self.built = False

    def _noted(self, table: str, value: bytes | None) -> None:
        """A change of the house's tables: a new note starts the table's bots."""
        if table == house_tables.BUILT:
            self.built = self.built or value is not None
            return
        if value is None or table in self.playing:
            return  # a note removed (the table is over), or a table being played
        try:
            noted = house_tables.decode(value)
        except msgspec.DecodeError:
            log.warning("table %s: a note that is not the house's, ignored", table)
            return
        task = asyncio.create_task(self.play_table(table, noted.bots, noted.seats, noted.owner))
        self.playing[table] = task
        task.add_done_callback(lambda _, table=table: self._done(table))

    async def found(self, stored: Stored) -> None:
        """An entry of the log read by ``build``: a table's opening naming house seats is noted."""
        if OPENING not in stored.data[:128]:
            return  # only a table's opening command names house seats: nothing else is decoded
        entry = entry_or_none(stored)
        if isinstance(entry, CommandEntry):
            noted = house_tables.house_table(entry.command)
            if noted is not None:
                await self.house.put(stored.table, house_tables.encode(noted))

    async def build(self) -> None:
        """Note every house table of a log from before the notes (once: then marked built). A
        table found finished is dropped by its bots at once."""
        async for batch in self.events.scan(after=0):  # up to the end as of now
            for stored in batch:
                await self.found(stored)
        await self.house.put(house_tables.BUILT, b"1")
        self.built = True

    def _done(self, table: str) -> None:
        self.playing.pop(table, None)
        self.finished += 1

    def seat(self, table: str, seat: int) -> HouseSeat:
        token = bot_token(self.secret, table, seat)
        return HouseSeat(self.model, AsyncSeat(self.client, table, seat, token))

    async def _opened(self, table: str) -> bool:
        """Whether the noted table's opening is in the log (waiting ``grace`` for it)."""
        loop = asyncio.get_running_loop()
        until = loop.time() + self.grace
        while await self.events.last(table) is None:
            if loop.time() >= until:
                return False
            await asyncio.sleep(min(0.5, self.grace))
        return True

    async def play_table(self, table: str, bots: HouseBots, seats: int, owner: str = "") -> None:
        house = [self.seat(table, n) for n in bots.seats]
        seed = bot_seed(self.secret, table)
        think = self.think if bots.think is None else bots.think
        loop = asyncio.get_running_loop()
        failures = 0
        while True:
            began = loop.time()
            try:
                if not await self._opened(table):
                    log.info("table %s: noted, never opened: its note goes", table)
                    await self.house.delete(table)
                    return
                v = await house[0].view()
                while v.status == "waiting":  # the lobby: players come (or the house starts)
                    if len(bots.seats) == seats:
                        await house[0].api.start()
                    v = await house[0].view(after=v.version, timeout=10)
                if v.status != "finished":
                    # marked if the table service's mark is missing (a note written again
                    # from the log): its seats count
                    await house_tables.mark_started(self.house, table)
                    # one seat failing stops the others, so that they start again together (a
                    # seat left playing would be played twice once the table is looked at again)
                    async with asyncio.TaskGroup() as playing:
                        for s in house:
                            pace = Pace(table, think, self.turns, seed * 10 + s.seat, owner)
                            playing.create_task(
                                play_seat(s, bots.kind, seed * 10 + s.seat, pace=pace)
                            )
                await self.house.delete(table)  # over: nothing more for the house to do
                return
            except asyncio.CancelledError:
                raise
            except Exception as e:  # the API or Redis away, a view too stale: look again
                if isinstance(e, ExceptionGroup):
                    e = e.exceptions[0]
                # a failure after a long spell of play starts the backoff over
                failures = 1 if loop.time() - began > RETRY_MAX else failures + 1
                if failures >= OVER_AFTER and await self._over(table):
                    # its views stale for good (a lost write): the log is the truth
                    log.info("table %s: over in its log, its views behind: its note goes", table)
                    await self.house.delete(table)
                    return
                pause = retry_pause(failures, getattr(e, "retry_after", None))
                log.warning(
                    "table %s: bots paused %.1f s (%s: %s)", table, pause, type(e).__name__, e
                )
                await asyncio.sleep(pause)

    async def _over(self, table: str) -> bool:
        """Whether the table's log says its game is over (folded whole: only after failures)."""
        t = FoldedTable(table)
        try:
            for stored in await self.events.read(table):
                t.apply(stored)
        except Exception:  # noqa: BLE001  (the log away, or newer: not known to be over)
            return False
        return t.state.step == "finished"

    async def run(self, stop: asyncio.Event) -> None:
        watch = await self.house.watch(self._noted)
        try:
            await watch.ready.wait()
            if not self.built:
                await self.build()
            await keep_purged(self.house, stop, "house tables")
        finally:
            await watch.close()
            self.turns.close()
            for task in list(self.playing.values()):
                task.cancel()
            await asyncio.gather(*self.playing.values(), return_exceptions=True)


class _Playing:
    """A bot worker playing while this process holds the house's lease: its ``close`` (the lease
    lost or handed over) stops it, its tables' bots with it."""

    def __init__(self, worker: BotWorker) -> None:
        self.stop = asyncio.Event()
        self.task = asyncio.create_task(worker.run(self.stop))

    async def close(self) -> None:
        self.stop.set()
        await self.task


async def play_alone(make: Any, stop: asyncio.Event, leases: Leases, instance: str | None) -> None:
    """Play the house's tables in one bot worker process at a time, until ``stop``: two would
    act for the same seats at once (each one's commands built on views the other's made stale).
    It holds a lease, as a partition is held (``Partitions``, one partition); another process
    takes over once it lapses. ``make()``: a new worker each time the lease is taken."""

    async def start(_: int) -> _Playing:
        return _Playing(make())

    await Partitions(leases, LEASE, 1, start, None, instance, gauged=False).run(stop)


async def main_async(settings: Settings, stop: asyncio.Event) -> None:
    """The composition root: the real adapters."""
    from gcbc.eventlog.jetstream import JetStreamEventLog
    from gcbc.eventlog.jetstream_leases import JetStreamLeases
    from gcbc.keyvalue.jetstream import JetStreamKeyValue
    from gcbc.readmodel.redis import RedisReadModel

    if not settings.bot_secret:
        raise SystemExit("the bot worker needs GCBC_BOT_SECRET (the table service's too)")
    events = await JetStreamEventLog.connect(settings.nats_url, settings.stream_replicas)
    house = await JetStreamKeyValue.open(events.nc, house_tables.BUCKET, settings.stream_replicas)
    leases = await JetStreamLeases.open(
        events.nc, ttl=settings.lease_seconds, replicas=settings.stream_replicas
    )
    model = RedisReadModel.connect(settings.redis_url)
    log.info("bot worker ready (API %s)", settings.api_url)
    try:
        # its requests carry the house's key: the table service's per-address request rate
        # leaves them to the worker's own pace
        transport = HttpxTransport(settings.api_url, 60)
        transport.http.headers[HOUSE_HEADER] = house_key(settings.bot_secret)
        async with AsyncClient(settings.api_url, timeout=60, transport=transport) as client:

            def make() -> BotWorker:
                return BotWorker(
                    events,
                    model,
                    client,
                    settings.bot_secret,
                    house,
                    think=settings.bot_think,
                    actions=settings.bot_actions,
                )

            await play_alone(make, stop, leases, settings.instance or None)
    finally:
        await events.close()
        await model.close()


def main() -> None:
    from services.common.runner import run_service

    s = Settings.from_env()
    run_service("bots", lambda stop: main_async(s, stop))
