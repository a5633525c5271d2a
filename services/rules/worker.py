"""The rules worker: pulls entries from a durable JetStream consumer, answers each command with
the engine's outcome (one message: all or nothing) or a refusal, appended right after the command
with optimistic concurrency; and owns deadlines: when a wait expires it appends ``deadline
passed`` so the autopilot acts. Any number of instances may run: an answer or a deadline lands
only if the table is still where the instance saw it, so nothing is ever decided twice."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

import msgspec

from gcbc.contract import commands as C
from gcbc.contract import events as E
from gcbc.contract.entries import CommandEntry, OutcomeEntry, RefusalEntry, encode_entry
from gcbc.eventlog.port import EventLog, Later, Skip, Stored, WrongExpectedSequence
from gcbc.rules import RuleViolation, decide
from services.common import health, metrics
from services.common.cache import FoldedCache
from services.common.folded import FoldedTable
from services.common.progress import ProgressLog
from services.common.settings import STUCK_AFTER, Settings

log = logging.getLogger("gcbc.rules")
DURABLE = "rules-worker"
ACK_WAIT = 5.0  # a delivered command whose worker died is delivered again after this long


def now_ms() -> int:
    return int(time.time() * 1000)


GAME_COMMANDS = C.GameCommand.__args__


def answer(
    table: FoldedTable, command: CommandEntry, seq: int, at: int, noop: bool = False
) -> OutcomeEntry | RefusalEntry:
    if noop and isinstance(command.command, GAME_COMMANDS):
        return OutcomeEntry(answers=seq, events=[], at=at)  # benchmarks: the rules as a no-op
    try:
        events = decide(table.state, command.command)
    except RuleViolation as v:
        return RefusalEntry(answers=seq, code=v.code, message=v.message, at=at)
    except Exception as e:  # noqa: BLE001  (an engine bug must not wedge the table forever)
        log.exception("deciding #%s of %s failed: %s", seq, table.table_id, e)
        return RefusalEntry(answers=seq, code="internal_error", message="the rules failed", at=at)
    return OutcomeEntry(answers=seq, events=events, at=at)


class RulesWorker:
    def __init__(
        self,
        events: EventLog,
        clock: Callable[[], float] = time.time,
        noop: bool = False,
        lobby_seconds: float = 1800.0,
    ) -> None:
        self.events = events
        self.noop = noop
        self.lobby_seconds = lobby_seconds
        self.cache = FoldedCache(events)
        self.clock = clock
        self.decided = 0
        self._seen: dict[str, tuple[int, float]] = {}  # table -> (pending command, first seen)
        self.loads = 0  # passes of load_all completed

    async def handle_batch(self, entries: list[Stored]) -> list[BaseException | None]:
        """What arrived at once: each table's entries in order, the tables side by side (their
        answers are appended together: one flush to NATS, their acknowledgements in one read)."""
        by_table: dict[str, list[int]] = {}
        for i, stored in enumerate(entries):
            by_table.setdefault(stored.table, []).append(i)
        results: list[BaseException | None] = [None] * len(entries)

        async def one_table(indexes: list[int]) -> None:
            for n, i in enumerate(indexes):
                try:
                    await self.handle(entries[i])
                except Exception as e:  # noqa: BLE001  (answered for: Skip or delivered again)
                    results[i] = e
                    if not isinstance(e, Skip):
                        for later in indexes[n + 1 :]:  # in order: delivered again after it
                            results[later] = Later(entries[later].table)
                        return

        await asyncio.gather(*(one_table(indexes) for indexes in by_table.values()))
        return results

    async def handle(self, stored: Stored) -> None:
        """One entry from the consumer: answer it if it is a command nobody answered yet."""
        try:
            t = await self.cache.deliver(stored)
        except msgspec.DecodeError as e:
            raise Skip(f"not an entry: {e}") from None
        if t.pending != stored.seq:
            return  # not a command, or answered already (by this or another instance)
        command = t.pending_command
        if command is not None and command.imported:
            # gcbc-ops import: its recorded answer comes next; if none does, the sweep answers
            # it STUCK_AFTER after this worker first saw it
            self._since(t)
            return
        await self._answer(t)

    def _since(self, t: FoldedTable) -> float:
        """Since when the table's pending command is waiting, as far as this worker knows: its
        time, or when this worker first saw it if that was later (an imported command)."""
        command = t.pending_command
        assert command is not None and t.pending is not None
        seen = self._seen.get(t.table_id)
        if seen is None or seen[0] != t.pending:
            seen = self._seen[t.table_id] = (t.pending, self.clock())
        return max(command.at / 1000, seen[1])

    async def _answer(self, t: FoldedTable) -> None:
        """Append the answer to the table's pending command (at most once: it expects the
        command's sequence)."""
        seq, command = t.pending, t.pending_command
        assert seq is not None and command is not None
        reply = msgspec.structs.replace(answer(t, command, seq, now_ms(), self.noop), prev=seq)
        data = encode_entry(reply)
        try:
            result = await self.events.append(
                t.table_id, data, expected=seq, msg_id=f"answer:{seq}"
            )
        except WrongExpectedSequence:
            await self.cache.get(t.table_id)  # another instance answered first: catch up
            return
        stored = Stored(seq=result.seq, table=t.table_id, data=data)
        if not result.duplicate:
            self.decided += 1
            self._count(t, seq, command, reply)
            if t.seq == seq:  # not caught up by someone else meanwhile
                t.apply(stored)

    def _count(
        self, t: FoldedTable, seq: int, command: CommandEntry, reply: OutcomeEntry | RefusalEntry
    ) -> None:
        kind = metrics.kind_of(command.command)
        context = {"table": t.table_id, "seq": seq, "seat": command.command.seat, "command": kind}
        if command.at:
            metrics.APPEND_TO_ANSWER.observe(max(0.0, time.time() - command.at / 1000))
        if isinstance(reply, RefusalEntry):
            metrics.COMMANDS.labels(kind, "refused").inc()
            metrics.REFUSALS.labels(reply.code, "rules").inc()
            log.debug("refused %s: %s", kind, reply.code, extra={**context, "code": reply.code})
            return
        metrics.COMMANDS.labels(kind, "accepted").inc()
        autopilot = sum(1 for e in reply.events if isinstance(e, E.AutopilotActed))
        if autopilot:
            metrics.AUTOPILOT.inc(autopilot)
        log.debug("answered %s: %d events", kind, len(reply.events), extra=context)

    async def sweep_deadlines(self) -> int:
        """Append ``deadline passed`` for every expired wait this instance knows of."""
        fired = 0
        now = self.clock()
        for table_id, t in list(self.cache.tables.items()):
            command = t.pending_command
            if command is None:
                self._seen.pop(table_id, None)
            elif now - self._since(t) > STUCK_AFTER:
                # a command nobody answered (its worker died before acking): answer it here
                log.info(
                    "answering #%s, left unanswered",
                    t.pending,
                    extra={"table": table_id, "seq": t.pending},
                )
                metrics.DEADLINES.labels("unanswered").inc()
                await self._answer(t)
                continue
            closes = t.lobby_closes(self.lobby_seconds)
            if closes is not None:
                if now >= closes:  # nobody started it in time: it closes (DESIGN property 7)
                    closed = await self._system(t, C.CloseTable(), f"close:{table_id}")
                    if closed:
                        metrics.DEADLINES.labels("close_table").inc()
                        log.info("lobby time up: closing", extra={"table": table_id})
                    fired += closed
                continue
            due = t.deadline()
            if due is None or now < due[1]:
                continue
            wait_id = due[0]
            passed = await self._system(
                t, C.DeadlinePassed(wait=wait_id), f"deadline:{table_id}:{wait_id}"
            )
            if passed:
                metrics.DEADLINES.labels("deadline_passed").inc()
                log.info("deadline of wait %s passed", wait_id, extra={"table": table_id})
            fired += passed
        return fired

    async def _system(self, t: FoldedTable, command: object, msg_id: str) -> bool:
        """Append a system command where the table is now; False if someone got there first."""
        entry = CommandEntry(command=command, at=now_ms(), prev=t.seq)  # type: ignore[arg-type]
        try:
            await self.events.append(t.table_id, encode_entry(entry), t.seq, msg_id)
        except WrongExpectedSequence:
            await self.cache.get(t.table_id)  # stale: catch up, decide again next sweep
            return False
        return True

    async def load_all(self) -> None:
        """Fold every table this instance does not know yet (at start: all of them), so
        deadlines survive a restart. Known tables need no read: a deadline appended on a stale
        view is refused (expected sequence) and the table caught up then."""
        todo = [
            t
            async for t in self.events.tables()
            if t not in self.cache.tables and t not in self.cache.finished_ids
        ]
        progress = ProgressLog(log, "folding tables", len(todo)) if len(todo) > 1000 else None
        for table_id in todo:
            if table_id not in self.cache.tables:  # (its command may have folded it meanwhile)
                await self.cache.get(table_id)
            if progress is not None:
                progress.step()
        if progress is not None:
            progress.finish()
        self.loads += 1


async def deadlines(worker: RulesWorker, stop: asyncio.Event, every: float = 0.1) -> None:
    while not stop.is_set():
        try:
            await worker.sweep_deadlines()
        except Exception as e:  # noqa: BLE001
            log.warning("deadline sweep failed: %s", e)
        try:
            await asyncio.wait_for(stop.wait(), every)
        except TimeoutError:
            pass


async def keep_loading(worker: RulesWorker, stop: asyncio.Event, every: float = 5.0) -> None:
    """Fold the tables this instance does not know (at start: every one; later, those whose
    entries went to another instance), beside the answering and the sweeps, never before them."""
    while not stop.is_set():
        started = time.monotonic()
        try:
            await worker.load_all()
        except Exception as e:  # noqa: BLE001
            log.warning("loading tables failed: %s", e)
        else:
            if worker.loads == 1:
                took = time.monotonic() - started
                log.info("%d tables folded in %.1f s", len(worker.cache.tables), took)
        try:
            await asyncio.wait_for(stop.wait(), every)
        except TimeoutError:
            pass


async def run(worker: RulesWorker, stop: asyncio.Event, metrics_port: int = 0) -> None:
    """Answer commands as they come and fire deadlines until ``stop`` (metrics and health on
    ``metrics_port``). A restarted worker answers at once, however many tables exist: a
    command's table is folded when its command comes; every other table is folded meanwhile
    (its deadlines fire once it is; a long fold says how far it is, with a rate)."""
    readiness = health.Readiness(worker.events, None, (DURABLE,))
    async with health.serve(readiness, metrics_port):
        subscription = await worker.events.consume_batches(DURABLE, worker.handle_batch, ACK_WAIT)
        log.info("rules worker consuming")
        watching = asyncio.create_task(health.watch_lag(worker.events, DURABLE, stop, log))
        try:
            await asyncio.gather(deadlines(worker, stop), keep_loading(worker, stop))
        finally:
            watching.cancel()
            await subscription.close()


async def main_async(settings: Settings, stop: asyncio.Event | None = None) -> None:
    """The composition root: the real adapters."""
    from gcbc.eventlog.jetstream import JetStreamEventLog

    stop = stop or asyncio.Event()
    events = await JetStreamEventLog.connect(settings.nats_url, settings.stream_replicas)
    worker = RulesWorker(events, noop=settings.noop_rules, lobby_seconds=settings.lobby_ttl)
    try:
        await run(worker, stop, health.metrics_port(9101))
    finally:
        await events.close()


def main() -> None:
    from services.common.runner import run_service

    settings = Settings.from_env()
    run_service("rules worker", lambda stop: main_async(settings, stop))
