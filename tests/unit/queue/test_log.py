"""The queue's log on the in-memory twin: who waits, who left, where a matched player was seated,
each player's version; a queue folded again from the log (a restart) is the same; an append that
expects an entry the queue moved past is refused (two matchmakers never match one player twice);
a process that starts from the queue's last snapshot folds the same queue as one reading every
entry, and reads only the entries after it."""

from __future__ import annotations

import asyncio
import random

import msgspec
import pytest

from gcbc.eventlog.memory import MemoryEventLog
from gcbc.eventlog.port import EventLog, WrongExpectedSequence
from gcbc.queue import log as queue_log
from gcbc.queue.log import KEY, FoldedQueue, Placed, QueueLog
from gcbc_contract.options import TableOptions
from gcbc_contract.queue import AnyQueueEntry, Matched, Queued, QueueLeft, TableSeated


def queued(pid: str, at: int = 0) -> Queued:
    return Queued(
        player_id=pid,
        name=pid,
        bot=False,
        seats=(4,),
        options=TableOptions(),
        rated=False,
        bots_after=None,
        at=at,
    )


def test_the_queue_folds_its_entries_and_a_new_reader_folds_the_same():
    async def go():
        events = MemoryEventLog()
        log = QueueLog(events)
        seq = 0
        for pid in ("a", "b", "c", "d", "e"):
            seq = await log.append(queued(pid), seq)
        seq = await log.append(QueueLeft(player_id="e", at=1), seq)
        matched = Matched(
            table_id="t" * 16,
            seats=4,
            players=("a", "b", "c"),
            seats_of=(0, 2, 3),
            bots=(1,),
            at=2,
        )
        seq = await log.append(matched, seq)
        q = await log.current()
        assert list(q.waiting) == ["d"]
        assert q.placed["b"] == Placed("t" * 16, 2)
        assert q.version["e"] == 6 and q.version["a"] == 1  # seated once the table is
        assert set(q.pending) == {"t" * 16}
        assert [x.player_id for x in q.pending["t" * 16][1]] == ["a", "b", "c"]
        seated = await log.append(TableSeated(table_id="t" * 16, at=3), seq)
        assert (await log.current()).version["a"] == seated
        again = await QueueLog(events).current()  # a process that starts: the same queue
        assert list(again.waiting) == ["d"] and again.placed == q.placed
        assert again.pending == {} and again.version == (await log.current()).version

    asyncio.run(go())


def test_of_two_writers_expecting_one_entry_one_is_refused():
    async def go():
        events = MemoryEventLog()
        seq = await QueueLog(events).append(queued("a"), 0)
        await QueueLog(events).append(QueueLeft(player_id="a", at=1), seq)
        with pytest.raises(WrongExpectedSequence):
            await QueueLog(events).append(queued("b"), seq)

    asyncio.run(go())


def _state(q: FoldedQueue) -> tuple:
    return (
        q.seq,
        list(q.waiting.items()),
        q.placed,
        q.version,
        q.pending,
        list(q.settled.items()),
    )


async def _full_fold(events: EventLog) -> FoldedQueue:
    q = FoldedQueue()
    for stored in await events.read(KEY):
        q.apply(stored)
    return q


async def _random_history(events: EventLog, log: QueueLog, rng: random.Random, n: int):
    """``n`` entries as matchmakers would append them: joins, leaves, tables matched, seated;
    a snapshot written whenever one is due."""
    at = 0
    for _ in range(n):
        q = await log.current()
        at += rng.randrange(0, 400_000)
        roll = rng.random()
        idle = [p for p in "abcdefghijklmnop" if p not in q.waiting]
        if roll < 0.45 and idle:
            entry: AnyQueueEntry = queued(rng.choice(idle), at)
        elif roll < 0.6 and q.waiting:
            entry = QueueLeft(player_id=rng.choice(list(q.waiting)), at=at)
        elif roll < 0.8 and len(q.waiting) >= 2:
            players = tuple(rng.sample(list(q.waiting), 2))
            entry = Matched(
                table_id=f"{rng.getrandbits(64):016x}",
                seats=4,
                players=players,
                seats_of=(0, 2),
                bots=(1, 3),
                at=at,
            )
        elif q.pending:
            entry = TableSeated(table_id=rng.choice(list(q.pending)), at=at)
        else:
            continue
        await log.append(entry, q.seq)
        await log.snapshot_if_due()


@pytest.mark.parametrize("seed", range(6))
def test_a_queue_folded_from_its_snapshot_is_the_queue_folded_from_its_first_entry(
    seed, monkeypatch
):
    monkeypatch.setattr(queue_log, "SNAPSHOT_EVERY", 7)
    monkeypatch.setattr(queue_log, "PART", 3)

    async def go():
        events = MemoryEventLog()
        rng = random.Random(seed)
        log = QueueLog(events)
        for _ in range(12):
            await _random_history(events, log, rng, rng.randrange(1, 15))
            started = QueueLog(events)  # a process that starts now
            assert _state(await started.current()) == _state(await _full_fold(events))
            assert _state(await log.current()) == _state(await _full_fold(events))
        assert log.snapshot_at  # snapshots were written and read

    asyncio.run(go())


def test_a_start_reads_the_last_snapshot_and_the_entries_after_it_only(monkeypatch):
    monkeypatch.setattr(queue_log, "SNAPSHOT_EVERY", 5)
    reads: list[int] = []

    class Counting(MemoryEventLog):
        async def read(self, table: str, after: int = 0):
            got = await super().read(table, after)
            if table == KEY:
                reads.append(len(got))
            return got

    async def go():
        events = Counting()
        log = QueueLog(events)
        for pid in "abcdefgh":
            await log.append(queued(pid), (await log.current()).seq)
            await log.snapshot_if_due()
        reads.clear()
        started = QueueLog(events)
        q = await started.current()
        assert list(q.waiting) == list("abcdefgh")
        assert reads == [len("fgh")]  # the snapshot holds the first five

    asyncio.run(go())


def test_a_writer_stopped_between_parts_and_head_leaves_the_snapshot_before_it(monkeypatch):
    monkeypatch.setattr(queue_log, "SNAPSHOT_EVERY", 2)

    async def go():
        events = MemoryEventLog()
        log = QueueLog(events)
        for pid in "abc":
            await log.append(queued(pid), (await log.current()).seq)
            await log.snapshot_if_due()
        last = await events.last(queue_log.SNAPSHOT_KEY)
        assert last is not None
        part = queue_log.SnapshotPart(previous=log.snapshot_at)
        await events.append(queue_log.SNAPSHOT_KEY, msgspec.json.encode(part), last.seq)
        q = await QueueLog(events).current()
        assert _state(q) == _state(await _full_fold(events))

    asyncio.run(go())


def test_a_player_that_left_or_was_seated_is_forgotten_an_hour_on():
    async def go():
        log = QueueLog(MemoryEventLog())
        seq = await log.append(queued("a", at=0), 0)
        seq = await log.append(QueueLeft(player_id="a", at=1000), seq)
        seq = await log.append(queued("b", at=2000), seq)
        q = await log.current()
        assert q.version.get("a") == 2
        await log.append(queued("c", at=1000 + queue_log.KEPT_MS + 1), seq)
        q = await log.current()
        assert "a" not in q.version and list(q.waiting) == ["b", "c"]

    asyncio.run(go())


class _GatedReads(MemoryEventLog):
    """The twin, each read counted and held until ``gate`` opens (a read in flight)."""

    def __init__(self) -> None:
        super().__init__()
        self.reads = 0
        self.gate = asyncio.Event()
        self.gate.set()

    async def read(self, *args, **kwargs):  # noqa: ANN002, ANN003, ANN201
        self.reads += 1
        await self.gate.wait()
        return await super().read(*args, **kwargs)


def test_a_crowd_asking_at_once_shares_one_read_begun_after_it_asked():
    """Before: every long-poll of a place in the queue read the log itself at each change (950
    waiting: 0.1 s of the event loop per change). Callers who come while a read is in flight
    share the next one, which begins after they asked: an entry appended before a call is
    always in its answer."""

    async def go():
        events = _GatedReads()
        log = QueueLog(events)
        seq = await log.append(queued("a"), 0)
        await log.current()  # started, caught up
        events.reads = 0
        events.gate.clear()
        early = [asyncio.ensure_future(log.current()) for _ in range(20)]
        await asyncio.sleep(0)  # the first read is in flight, held
        await log.append(queued("b"), seq)  # appended while it is
        late = [asyncio.ensure_future(log.current()) for _ in range(30)]
        await asyncio.sleep(0)
        events.gate.set()
        answers = await asyncio.gather(*early, *late)
        assert events.reads == 2  # one for the first twenty, one after it for the rest
        assert all("b" in q.waiting for q in answers[20:])  # asked after b came: b is there

    asyncio.run(go())
