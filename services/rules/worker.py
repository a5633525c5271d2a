"""The rules worker: pulls entries from a durable JetStream consumer, answers each command with
the engine's outcome (one message: all or nothing) or a refusal, appended right after the command
with optimistic concurrency; and owns deadlines: when a wait expires it appends ``deadline
passed`` so the autopilot acts. Any number of instances may run: an answer or a deadline lands
only if the table is still where the instance saw it, so nothing is ever decided twice."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

import msgspec

from gcbc.clock import now_ms
from gcbc.eventlog.partitions import partition_of
from gcbc.eventlog.port import (
    FullLog,
    Later,
    LogUnavailable,
    Outcome,
    OutcomeUnknown,
    Skip,
    Stored,
    WrongExpectedSequence,
)
from gcbc.eventlog.records import append_entry
from gcbc.keyvalue.memory import MemoryKeyValue
from gcbc.keyvalue.port import KeyValue
from gcbc.rules import RuleViolation
from gcbc_contract import commands as C
from gcbc_contract import events as E
from gcbc_contract.entries import CommandEntry, NewerSchema, OutcomeEntry, RefusalEntry
from services.common import metrics
from services.common.cache import FoldedCache
from services.common.deadlines import DeadlineIndex, due
from services.common.folded import FoldedTable
from services.common.partitions import Partitions
from services.common.progress import ProgressLog
from services.common.rules import ENGINE, Rules
from services.common.settings import STUCK_AFTER
from services.common.snapshots import Snapshots

# seconds an imported table's log must have been quiet before its deadlines are fired here
IMPORT_QUIET = 10.0
log = logging.getLogger("gcbc.rules")


def answer(
    table: FoldedTable, command: CommandEntry, seq: int, at: int, rules: Rules = ENGINE
) -> OutcomeEntry | RefusalEntry:
    try:
        events = rules.decide(table.state, command.command)
    except RuleViolation as v:
        return RefusalEntry(answers=seq, code=v.code, message=v.message, at=at)
    except Exception as e:  # noqa: BLE001  (an engine bug must not wedge the table forever)
        log.exception("deciding #%s of %s failed: %s", seq, table.table_id, e)
        return RefusalEntry(answers=seq, code="internal_error", message="the rules failed", at=at)
    return OutcomeEntry(answers=seq, events=events, at=at)


class RulesWorker:
    FINISHED_KEPT = 1000  # positions of recently finished tables (their last entries come late)
    LEAD = 1.0  # seconds before a deadline its table (not in memory) is loaded
    RETRY_FOLD = 5.0  # seconds before a table that could not be folded is tried again
    LOADS_PER_SWEEP = 100  # tables not in memory folded by one sweep of the deadlines
    IDLE_AFTER = 60.0  # seconds untouched, its deadline further off: a table leaves memory

    def __init__(
        self,
        events: FullLog,
        clock: Callable[[], float] = time.time,
        rules: Rules = ENGINE,
        lobby_seconds: float = 1800.0,
        snapshots: KeyValue | None = None,
        deadlines: KeyValue | None = None,
    ) -> None:
        """``snapshots``, ``deadlines``: the stores of the tables' snapshots and of the deadline
        index (in-memory twins if not given: they last as long as this instance)."""
        self.events = events
        self.rules = rules  # what decides each command
        self.lobby_seconds = lobby_seconds
        self.snapshots = Snapshots(snapshots if snapshots is not None else MemoryKeyValue())
        self.index = DeadlineIndex(deadlines if deadlines is not None else MemoryKeyValue())
        # finished tables cost no memory: dropped once done (a late command reads the snapshot)
        self.cache = FoldedCache(events, keep_finished=0, restore=self.snapshots.load)
        self.clock = clock
        self.decided = 0
        self._seen: dict[str, tuple[int, float]] = {}  # table -> (pending command, first seen)
        self._finished: dict[str, int] = {}  # recently finished table -> its last position
        self._touched: dict[str, float] = {}  # table in memory -> when last folded, oldest first
        self.loads = 0  # passes of load_all completed
        self.folds = 0  # tables read from the log or a snapshot (not in memory when needed)
        self.share: Partitions | None = None  # the partitions this instance processes (run)

    def owns(self, table_id: str) -> bool:
        return self.share is None or self.share.owns(table_id)

    def take(self, partition: int) -> None:
        """A partition taken: the deadlines of its tables are this instance's to fire now (a
        sweep passed over them while another instance held it, or before this one took it)."""
        self._again([t for t in self.index.known if self._in(t, partition)])

    def _in(self, table_id: str, partition: int) -> bool:
        return partition_of(table_id, self.events.partitions) == partition

    def forget(self, partition: int) -> None:
        """A partition handed over: its tables are another instance's now (keep no memory, and
        write none of their deadlines or snapshots: the new owner's are newer)."""

        def belongs(table_id: str) -> bool:
            return self._in(table_id, partition)

        for table_id in list(self.cache.tables):
            if belongs(table_id):
                self.cache.drop(table_id)
                self._seen.pop(table_id, None)
        self.index.let_go(belongs)
        self.snapshots.let_go(belongs)

    async def handle_batch(self, entries: list[Stored]) -> list[Outcome]:
        """What arrived at once: each table's entries in order, the tables side by side (their
        answers are appended together: one flush to NATS, their acknowledgements in one read).
        An entry's outcome may be the index write it waits for (``handle``)."""
        by_table: dict[str, list[int]] = {}
        for i, stored in enumerate(entries):
            by_table.setdefault(stored.table, []).append(i)
        results: list[Outcome] = [None] * len(entries)

        async def one_table(indexes: list[int]) -> None:
            for n, i in enumerate(indexes):
                try:
                    results[i] = await self.handle(entries[i])
                except Exception as e:  # noqa: BLE001  (answered for: Skip or delivered again)
                    results[i] = e
                    if not isinstance(e, Skip):
                        for later in indexes[n + 1 :]:  # in order: delivered again after it
                            results[later] = Later(entries[later].table)
                        return

        await asyncio.gather(*(one_table(indexes) for indexes in by_table.values()))
        return results

    async def handle(self, stored: Stored) -> Awaitable[object] | None:
        """One entry from the consumer: answer it if it is a command nobody answered yet. What
        it returns is done once the table's deadline is in the index (the acknowledgement waits
        for it, never the answer)."""
        done = self._finished.get(stored.table)
        if done is not None and stored.seq <= done:
            return None  # an entry of a table finished and dropped: nothing left to answer
        try:
            known = stored.table in self.cache.tables
            t = await self.cache.deliver(stored)
        except NewerSchema:
            raise  # delivered again, the table's later entries after it, till this is upgraded
        except msgspec.DecodeError as e:
            raise Skip(f"not an entry: {e}") from None
        if not known:
            self.folds += 1
        if t.pending == stored.seq:
            command = t.pending_command
            if command is not None and command.imported:
                # gcbc-ops import: its recorded answer comes next, on the answers' subject, which
                # this worker does not read: looked for once (the importer appends it right
                # after); if it is not there yet, the next command (or the sweep) brings it, and
                # if none comes, the sweep answers the command STUCK_AFTER after this worker
                # first saw it
                t = await self.cache.get(stored.table)
                if t.pending == stored.seq:
                    self._since(t)
            else:
                await self._answer(t)
        # (otherwise not a command, or answered already, by this or another instance)
        return self._noted(t)

    def _noted(self, t: FoldedTable) -> Awaitable[object] | None:
        """Keep the index and the snapshots up with the table as folded here; a finished table
        leaves memory (its last snapshot is written first)."""
        if t.seq == 0:
            return None
        self.snapshots.folded(t)
        self._touched.pop(t.table_id, None)
        if t.state.step == "finished" and t.settled:
            # (a command sent as it ended, not answered yet, keeps it here until it is)
            self.snapshots.owe(t)
            self.cache.drop(t.table_id)
            self._seen.pop(t.table_id, None)
            self._finished[t.table_id] = max(t.seq, self._finished.pop(t.table_id, 0))
            while len(self._finished) > self.FINISHED_KEPT:
                del self._finished[next(iter(self._finished))]
            return self.index.forget(t.table_id, t.seq)
        self._touched[t.table_id] = self.clock()
        since = self._since(t) if not t.settled else None
        return self.index.note(t.table_id, due(t, self.lobby_seconds, since), t.seq)

    def rest(self) -> int:
        """Tables untouched for IDLE_AFTER whose deadline is further off than that leave memory
        (snapshot first; their deadline is in the index, which loads them back in time): the
        worker holds the tables in play, not every table it has seen. How many left."""
        now = self.clock()
        left = 0
        for table_id, touched in list(self._touched.items()):
            if now - touched < self.IDLE_AFTER:
                break  # oldest first: the rest are younger
            t = self.cache.tables.get(table_id)
            d = self.index.known.get(table_id)
            if t is None:
                del self._touched[table_id]
                continue
            if not t.settled or d is None or d.when < now + self.IDLE_AFTER:
                continue  # wanted soon, or its deadline not known
            if self.index.owes(table_id):
                continue  # (its deadline not written yet)
            self.snapshots.owe_all([t])
            self.cache.drop(table_id)
            self._seen.pop(table_id, None)
            del self._touched[table_id]
            left += 1
        return left

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
        # the answer carries its command: readers of the answers alone fold both
        reply = msgspec.structs.replace(
            answer(t, command, seq, now_ms(), self.rules), prev=seq, command=command
        )
        try:
            result = await append_entry(
                self.events, t.table_id, reply, expected=seq, msg_id=f"answer:{seq}"
            )
        except WrongExpectedSequence:
            await self.cache.get(t.table_id)  # another instance answered first: catch up
            return
        if not result.duplicate:
            self.decided += 1
            self._count(t, seq, command, reply)
            if t.seq == seq:  # not caught up by someone else meanwhile
                t.apply(result.stored)

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
        """Append ``deadline passed`` for every expired wait this instance knows of: the tables
        in memory, and those the index says are due soon (folded now: snapshot and tail). A
        table that fails is passed over (logged) and the others go on; the log away stops the
        sweep (every table is looked at again at the next)."""
        now = self.clock()
        await self._load_due(now)
        fired = 0
        for table_id, t in list(self.cache.tables.items()):
            if not self.owns(table_id):
                continue  # another instance's (a partition in the middle of a handover)
            try:
                fired += await self._fire(t, now)
            except (LogUnavailable, OutcomeUnknown):
                raise
            except Exception:
                log.exception("could not fire the table's deadline", extra={"table": table_id})
        return fired

    async def _load_due(self, now: float) -> None:
        """Fold the tables the index says are due soon and are not in memory, at most
        ``LOADS_PER_SWEEP`` (after a long stop the first deadlines fire while the others wait
        for the next sweeps, not after every overdue table is folded)."""
        due = self.index.soon(now + self.LEAD)
        loaded = 0
        for i, table_id in enumerate(due):
            if not self.owns(table_id):
                continue  # another instance's partition: handed back when it is taken (take)
            if table_id in self.cache.tables:
                continue
            if loaded == self.LOADS_PER_SWEEP:
                self._again(due[i:])
                return
            loaded += 1
            try:
                t = await self.cache.get(table_id)
            except LogUnavailable:
                self._again(due[i:])  # the log is away: every one at the next sweep
                raise
            except Exception:  # this table alone: the others go on, it is tried later
                log.exception("could not fold the table", extra={"table": table_id})
                self.index.again(table_id, now + self.RETRY_FOLD)
                continue
            self.folds += 1
            self._noted(t)

    def _again(self, tables: list[str]) -> None:
        for table_id in tables:
            self.index.again(table_id)

    async def _fire(self, t: FoldedTable, now: float) -> bool:
        """What the table in memory needs by ``now``: its command left unanswered answered, its
        lobby closed or its wait's deadline passed; whether a system command was appended."""
        table_id = t.table_id
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
            return False
        if t.imported and now - t.appended_at < IMPORT_QUIET:
            # an import under way appends the table's own entries (its waits, stamped where it
            # was played, look long past): nothing is fired on it before it has been quiet
            return False
        closes = t.lobby_closes(self.lobby_seconds)
        if closes is not None:
            if now < closes:
                return False
            # nobody started it in time: it closes (DESIGN property 7)
            closed = await self._system(t, C.CloseTable(), f"close:{table_id}")
            if closed:
                metrics.DEADLINES.labels("close_table").inc()
                log.info("lobby time up: closing", extra={"table": table_id})
            return closed
        due = t.deadline()
        if due is None or now < due[1]:
            return False
        wait_id = due[0]
        passed = await self._system(
            t, C.DeadlinePassed(wait=wait_id), f"deadline:{table_id}:{wait_id}"
        )
        if passed:
            metrics.DEADLINES.labels("deadline_passed").inc()
            log.info("deadline of wait %s passed", wait_id, extra={"table": table_id})
        return passed

    async def _system(self, t: FoldedTable, command: object, msg_id: str) -> bool:
        """Append a system command where the table is now; False if someone got there first, or
        if the same one was appended a moment ago (its id deduplicated: refused, the wait as it
        was; not fired again)."""
        entry = CommandEntry(command=command, at=now_ms(), prev=t.seq)  # type: ignore[arg-type]
        try:
            result = await append_entry(self.events, t.table_id, entry, t.seq, msg_id)
        except WrongExpectedSequence:
            await self.cache.get(t.table_id)  # stale: catch up, decide again next sweep
            self._noted(t)
            return False
        return not result.duplicate

    async def load_all(self) -> None:
        """Fold every table this instance does not know yet and note its deadline: what builds
        the deadline index of a log from before it (once; the index says when it is built).
        Known tables need no read: a deadline appended on a stale view is refused (expected
        sequence) and the table caught up then."""
        todo = [
            t
            async for t in self.events.tables()
            if t not in self.cache.tables and t not in self.index.known
        ]
        progress = ProgressLog(log, "folding tables", len(todo)) if len(todo) > 1000 else None
        for table_id in todo:
            # (its command may have folded it meanwhile, or finished it)
            if table_id not in self.cache.tables and table_id not in self._finished:
                t = await self.cache.get(table_id)
                self.folds += 1
                self._noted(t)
            if progress is not None:
                progress.step()
        if progress is not None:
            progress.finish()
        self.loads += 1

    async def part(self, partition: int) -> None:
        """A partition handed over while held: snapshot each of its tables with entries since its
        last snapshot, so its next holder (or this one restarted) reads less."""
        self.snapshots.owe_all(
            t for table_id, t in self.cache.tables.items() if self._in(table_id, partition)
        )
        await self.snapshots.flush()
