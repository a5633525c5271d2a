"""The queue's log on the in-memory twin: who waits, who left, where a matched player was seated,
each player's version; a queue folded again from the log (a restart) is the same; an append that
expects an entry the queue moved past is refused (two matchmakers never match one player twice)."""

from __future__ import annotations

import asyncio

import pytest

from gcbc.eventlog.memory import MemoryEventLog
from gcbc.eventlog.port import WrongExpectedSequence
from gcbc.queue.log import Placed, QueueLog
from gcbc_contract.options import TableOptions
from gcbc_contract.queue import Matched, Queued, QueueLeft, TableSeated


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
