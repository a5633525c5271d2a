"""The projection service: a durable consumer that folds each table's entries and writes every
seat's view, the public view, the lobby listing and each seat's recent answers to the read model,
stamped with the log position, in one atomic step. Anything at or below the stored position is
skipped, so redelivery is harmless. Views come from the engine's view functions only."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import Awaitable, Callable

import msgspec

from gcbc.eventlog.leases import Leases, MemoryLeases
from gcbc.eventlog.partitions import partition_of
from gcbc.eventlog.port import FullLog, Later, Skip, Stored, Subscription
from gcbc.readmodel.port import Put, ViewWriter, viewer_key
from gcbc.rules.views import LogMemo, version_of
from services.common import metrics, operators
from services.common.cache import IDLE_SECONDS, FoldedCache
from services.common.folded import FoldedTable
from services.common.partitions import Partitions
from services.common.progress import ProgressLog
from services.common.settings import CHAT_LIMIT, LOG_LIMIT, Settings
from services.common.view_writer import (
    answers,
    render_views,
    renders,
    replacement_of,
    table_status,
    viewers_of,
    write,
)
from services.projection.ratings import DURABLE as RATINGS
from services.projection.ratings import (
    RatingProjection,
    consume_alone,
    consume_players,
    rebuild_players,
)

log = logging.getLogger("gcbc.projection")
DURABLE = "projection"
# seconds a re-projection's claim on a wiped read model lasts unless renewed: one whose process
# stopped half-way is claimed again (by any projection) and done again, not left half-done
EPOCH_CLAIM = 60.0
# table -> its put, the table folded and the entry that changed it: a batch's writes
Puts = dict[str, tuple[Put, FoldedTable, Stored]]


class Projection:
    MEMO_TABLES = 512  # tables whose viewers' logs are kept (the most recently changed)

    def __init__(
        self,
        events: FullLog,
        model: ViewWriter,
        log_limit: int | None = LOG_LIMIT,
        chat_limit: int | None = CHAT_LIMIT,
        finished_views_expire: bool = False,
    ) -> None:
        """``finished_views_expire``: the read model lets finished tables' views go (its
        ``finished_ttl``); a re-projection then writes a finished table's seated record and
        status, not its views (made from its log if asked for), so that filling a wiped Redis
        again costs the tables in play, not every game ever played."""
        self.events = events
        self.cache = FoldedCache(events)
        self.model = model
        self.log_limit = log_limit
        self.chat_limit = chat_limit
        self.finished_views_expire = finished_views_expire
        self.written = 0
        self.written_last = 0  # tables written by the last batch
        # table -> the position, the wait's start, each viewer's version and newest answer's
        # position, as last rendered
        self._rendered: dict[str, tuple[int, float, dict[int | None, int], dict[str, int]]] = {}
        # table -> its log entries as rendered for each viewer (gcbc.rules.views.views): the
        # tables that changed most recently only, a bounded number of entries each
        self._memos: dict[str, LogMemo] = {}
        self.share: Partitions | None = None  # the partitions this instance processes (run)
        self._behind: list[str] = []  # tables a re-projection after a wipe has still to write
        self._claimed = False  # this instance claimed the wiped read model's epoch, for a time
        # what else the store held that must be made again after a wipe (the players' read model
        # and the ratings: their consumers acknowledged every entry long ago)
        self.after_wipe: Callable[[], Awaitable[object]] | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def handle(self, stored: Stored) -> bool:
        """One entry (ops and tests); whether views were written."""
        result = (await self.handle_batch([stored]))[0]
        if result is not None:
            raise result
        return bool(self.written_last)

    async def handle_batch(self, entries: list[Stored]) -> list[BaseException | None]:
        """Fold every entry of the batch, then write each table it changed once, all in one
        round trip (each table's step still atomic and guarded by its position). An entry whose
        fold failed is delivered again, and so are the later ones of its table."""
        results, puts = await self._fold(entries)
        written = await self._write(puts)
        self._count(puts, written)
        return results

    async def _fold(self, entries: list[Stored]) -> tuple[list[BaseException | None], Puts]:
        """Each entry's result, and the put of each table whose views changed."""
        results: list[BaseException | None] = []
        puts: Puts = {}
        failed: set[str] = set()
        for stored in entries:
            if stored.table in failed:
                results.append(Later(stored.table))
                continue
            try:
                t = await self.cache.deliver(stored)
            except msgspec.DecodeError as e:
                results.append(Skip(f"not an entry: {e}"))
                continue
            except Exception as e:  # noqa: BLE001  (delivered again: the log is read then)
                failed.add(stored.table)
                results.append(e)
                continue
            if t.seq < stored.seq:
                # the log read stopped short of this entry (on a replicated stream a direct get
                # may be answered by a replica not caught up yet): delivered again, never
                # acknowledged unwritten, or a finished table's last views would be lost
                failed.add(stored.table)
                results.append(Later(stored.table))
                continue
            results.append(None)
            if t.seq == stored.seq and not t.settled:
                continue  # a command: views change with its answer
            if not t.state.table_id:
                continue  # no table opened (refused, or nothing but what is not an entry)
            try:
                puts[t.table_id] = (self._put(t, puts.get(t.table_id)), t, stored)
            except Exception as e:  # noqa: BLE001  (this table's alone: the others are written)
                log.exception("could not render the table's views", extra={"table": t.table_id})
                failed.add(stored.table)  # (its put of earlier entries, if any, is written)
                results[-1] = e
        return results, puts

    def _put(self, t: FoldedTable, earlier: tuple[Put, FoldedTable, Stored] | None) -> Put:
        """The table's changed views; over ``earlier``, its put rendered before in this batch
        (what is written is then the views changed since, over that put's)."""
        views, answered, changed, base = self._views(t)
        if earlier is not None:
            put = earlier[0]
            if changed is not None and put.changed is not None:
                changed = sorted({*changed, *put.changed})
            else:
                changed = None
            if base is not None:  # the views changed since that render, over its views
                views = {**put.item.views, **views}
                answered = {**(put.item.answers or {}), **answered}
                base = put.base
        return Put(replacement_of(t, views, answered), changed, base)

    async def _write(self, puts: Puts) -> list[bool]:
        """The views, the listings, the answers and the wake-ups: one atomic step per table;
        whether each table's was written."""
        try:
            written = await self.model.put_many([put for put, _, _ in puts.values()])
            again = [
                table
                for table, done in zip(puts, written, strict=True)
                if not done and puts[table][0].base is not None
            ]
            if again:  # the read model is not as this process left it: every view, once more
                redo = {}
                for table in again:
                    _, t, stored = puts[table]
                    views, answered, _, _ = self._views(t, every=True)
                    redo[table] = (Put(replacement_of(t, views, answered), None), t, stored)
                for table, done in zip(
                    redo, await self.model.put_many([p for p, _, _ in redo.values()]), strict=True
                ):
                    written[list(puts).index(table)] = done
        except Exception:
            for table in puts:  # delivered again: its wake-up must name every view, not none
                self._rendered.pop(table, None)
            raise
        for table, done in zip(puts, written, strict=True):
            if not done:  # not written: the next put sends every view
                self._rendered.pop(table, None)
        return written

    def _count(self, puts: Puts, written: list[bool]) -> None:
        self.written_last = sum(written)
        self.written += self.written_last
        now = time.time()
        for done, (_, t, stored) in zip(written, puts.values(), strict=True):
            if done:
                metrics.VIEWS_WRITTEN.inc()
                if t.seq == stored.seq and stored.at:  # the answer that made these views
                    metrics.ANSWER_TO_VIEWS.observe(max(0.0, now - stored.at))

    def _views(
        self, t: FoldedTable, every: bool = False
    ) -> tuple[dict[str, bytes], dict[str, bytes], list[str] | None, int | None]:
        """The table's views that changed since the last ones rendered (all of them if those
        are unknown, or ``every``), which viewers' views those are (None: unknown, maybe all;
        none if nothing any viewer sees changed: a refusal), and the position rendered last,
        which they are changes from (None: every view is here). A view changes only with its
        version, the events its viewer sees (``version_of``), and with the current wait's start
        (its deadline): only a few numbers per viewer are kept, not the views. A private event
        (a pass, an arrangement) renders and writes one view, not all of them. With them, the
        recent answers of the viewers answered since (of every viewer if every view is here)."""
        s = t.state
        seats = viewers_of(t)
        versions = {seat: version_of(s, seat) for seat in seats}
        before = None if every else self._rendered.get(t.table_id)
        base: int | None = None
        changed: list[str] | None = None
        todo = seats
        if before is not None:
            position, started, seen, _ = before
            if started == t.wait_started:
                todo = [seat for seat in seats if seen.get(seat) != versions[seat]]
            changed = [viewer_key(seat) for seat in todo]
            if seen.keys() == versions.keys():
                base = position  # the same viewers: the others' views are as written
            else:
                todo = seats  # a viewer left or came: every view (a left one's goes)
                # a left viewer's waiters are woken too: its view is gone, not unchanged
                changed += [viewer_key(seat) for seat in seen.keys() - versions.keys()]
        memo = self._memos.pop(t.table_id, None) or LogMemo()
        views = render_views(t, self.log_limit, self.chat_limit, memo, todo) if todo else {}
        # each viewer's newest answer: its answers are sent again only once it has a new one
        newest = {viewer: kept[-1].answer for viewer, kept in t.recent.items()}
        if base is None:
            answered = answers(t)
        else:
            told = before[3] if before is not None else {}
            answered = answers(t, [v for v, a in newest.items() if told.get(v) != a])
        if s.step == "finished":
            self._rendered.pop(t.table_id, None)  # nothing changes any more: keep nothing
        else:
            self._memos[t.table_id] = memo  # the most recently changed last
            if len(self._memos) > self.MEMO_TABLES:
                self._memos.pop(next(iter(self._memos)))
            self._rendered[t.table_id] = (t.seq, t.wait_started, versions, newest)
            if len(self._rendered) > 100_000:
                self._rendered.pop(next(iter(self._rendered)))
        return views, answered, changed, base

    def forget(self, partition: int) -> None:
        """A partition handed over: its tables are another instance's now (keep no memory)."""
        for table_id in list(self.cache.tables):
            if partition_of(table_id, self.events.partitions) == partition:
                self._drop(table_id)

    def _drop(self, table_id: str) -> None:
        """Keep nothing of the table: its folded state, what was rendered of it, its log memo."""
        self.cache.drop(table_id)
        self._rendered.pop(table_id, None)
        self._memos.pop(table_id, None)

    async def _reproject(self) -> None:
        """Every table still behind after a wipe caught up; one that fails (Redis or NATS away,
        a log this code cannot fold) is passed over and tried again at the next check."""
        tables, self._behind = self._behind, []
        count = 0
        progress = ProgressLog(log, "re-projecting the read model", len(tables))
        renew = time.monotonic() + EPOCH_CLAIM / 3
        for table_id in tables:
            if time.monotonic() >= renew:  # still at it: the claim must not lapse
                await self.model.keep_epoch(EPOCH_CLAIM)
                renew = time.monotonic() + EPOCH_CLAIM / 3
            try:
                count += await self.catch_up(table_id)
            except Exception as e:  # noqa: BLE001
                self._behind.append(table_id)
                log.warning("table not re-projected yet: %s", e, extra={"table": table_id})
            if self.share is not None and not self.share.owns(table_id):
                self._drop(table_id)  # another instance's: keep no memory
            progress.step()
        progress.finish()
        log.info("read model (re)projected: %d tables, %d to try again", count, len(self._behind))

    async def _after_wipe(self, rebuild: Callable[[], Awaitable[object]]) -> None:
        """``rebuild`` run to its end, tried again (less and less often) till it is."""
        pause = 1.0
        while True:
            try:
                await rebuild()
                log.info("after the read model's wipe: the players and the ratings made again")
                return
            except Exception as e:  # noqa: BLE001  (Redis or NATS away, a rebuild under way)
                log.warning("after the read model's wipe: players and ratings not made yet: %s", e)
            await asyncio.sleep(pause)
            pause = min(pause * 2, 60.0)

    async def catch_up(self, table_id: str) -> bool:
        """Write the table's views if the read model is behind the log (after a wipe)."""
        t = await self.cache.get(table_id)
        if not renders(t) or await self.model.position(table_id) >= t.seq:
            return False
        if self.finished_views_expire and table_status(t) == "finished":
            written = await write(self.model, t, {}, answered={})  # its seated record
        else:
            views, _, _, _ = self._views(t, every=True)
            written = await write(self.model, t, views)
        if not written:
            self._rendered.pop(table_id, None)
            return False
        return True

    def rest(self, seconds: float = IDLE_SECONDS) -> int:
        """Tables at rest leave memory (their folded state, digests and log entries): the next
        entry of one reads it again from the log. How many left."""
        held = list(self.cache.tables)
        forgotten = self.cache.forget_idle(seconds)
        for table in held:
            if table not in self.cache.tables:
                self._drop(table)
        return forgotten

    async def watch_read_model(self, stop: asyncio.Event, every: float = 2.0) -> None:
        """A read model found without its epoch mark (new, or Redis restarted empty) gets every
        table projected again from the log, instead of waiting for each table's next entry.
        Tables at rest leave memory every half minute."""
        loop = asyncio.get_running_loop()
        rest_at = loop.time() + 30.0
        while not stop.is_set():
            if loop.time() >= rest_at:
                self.rest()
                rest_at = loop.time() + 30.0
            try:
                if await self.model.claim_epoch(EPOCH_CLAIM):
                    self._claimed = True
                    self._behind = [t async for t in self.events.tables()]
                    if self.after_wipe is not None:
                        task = asyncio.create_task(self._after_wipe(self.after_wipe))
                        self._tasks.add(task)
                        task.add_done_callback(self._tasks.discard)
                if self._behind:
                    await self._reproject()
                if self._claimed:  # the mark for good once every table and the players are
                    done = not self._behind and not self._tasks  # made again; till then renewed
                    await self.model.keep_epoch(None if done else EPOCH_CLAIM)
                    self._claimed = not done
                counts = (await self.model.status()).tables  # one small read every 2 s
                for status in ("lobby", "playing", "finished"):
                    metrics.TABLES.labels(status).set(counts.get(status, 0))
            except Exception as e:  # noqa: BLE001  (Redis or NATS away: try again)
                log.warning("read model check failed: %s", e)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), every)
        for task in self._tasks:  # not done: its claim lapses, and the next claim does it again
            task.cancel()

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
        readiness = operators.Readiness(self.events, self.model, (DURABLE,))
        async with operators.serve(readiness, metrics_port):

            async def start(partition: int) -> Subscription:
                # the answers alone (each carries its command): the commands are the rules
                # worker's, and their views change with their answers
                return await self.events.consume_batches(
                    DURABLE, self.handle_batch, partition=partition, only="answers"
                )

            self.share = Partitions(
                leases or MemoryLeases(),
                "projection",
                self.events.partitions,
                start,
                self.forget,
                instance,
            )
            lag = asyncio.create_task(operators.watch_lag(self.events, DURABLE, stop, log))
            try:
                await asyncio.gather(self.share.run(stop), self.watch_read_model(stop))
            finally:
                lag.cancel()


async def main_async(settings: Settings, stop: asyncio.Event) -> None:
    """The composition root: the real adapters."""
    from gcbc.eventlog.jetstream import JetStreamEventLog
    from gcbc.eventlog.jetstream_leases import JetStreamLeases
    from gcbc.playermodel.redis import RedisPlayerModel
    from gcbc.players.log import STREAM_NAMES as PLAYERS_STREAM
    from gcbc.readmodel.redis import RedisReadModel

    events = await JetStreamEventLog.connect(
        settings.nats_url, settings.stream_replicas, partitions=settings.partitions
    )
    leases = await JetStreamLeases.open(
        events.nc, ttl=settings.lease_seconds, replicas=settings.stream_replicas
    )
    model = RedisReadModel.connect(settings.redis_url, finished_ttl=settings.finished_ttl())
    player_log = await JetStreamEventLog.connect(
        settings.nats_url, settings.stream_replicas, **PLAYERS_STREAM
    )
    log.info("projection ready")
    try:
        projection = Projection(
            events,
            model,
            settings.log_limit,
            settings.chat_limit,
            finished_views_expire=settings.finished_ttl() is not None,
        )
        player_model = RedisPlayerModel(model.redis)
        projection.after_wipe = functools.partial(rebuild_players, player_log, events, player_model)
        ratings = RatingProjection(events, player_model)  # every table's answers
        instance = settings.instance or None
        await asyncio.gather(
            projection.run(stop, operators.metrics_port(9102), leases, instance),
            consume_players(player_log, player_model, stop, leases, instance),
            consume_alone(
                events,
                RATINGS,
                ratings.handle,
                stop,
                leases,
                instance,
                only="answers",
                in_order=True,
            ),
        )
    finally:
        await player_log.close()
        await events.close()
        await model.close()


def main() -> None:
    from services.common.runner import run_service

    s = Settings.from_env()
    run_service("projection", lambda stop: main_async(s, stop))
