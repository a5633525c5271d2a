"""The deadline index: what is noted is written in batches, and what waits on a write goes on
once it is stored (or fails with it, the change still owed); another instance's deadline of a
table folded further wins; ``soon`` hands each table over once, as its time comes."""

from __future__ import annotations

import asyncio

from gcbc.keyvalue.memory import MemoryKeyValue
from services.common.deadlines import BUILT, DeadlineIndex, Due, HandedOver, _decode, _encode


class Failing(MemoryKeyValue):
    def __init__(self) -> None:
        super().__init__()
        self.fail = True

    async def put(self, key: str, value: bytes) -> None:
        if self.fail:
            raise ConnectionError("the store is away")
        await super().put(key, value)


def test_a_change_is_written_once_and_its_waiters_go_on_after_the_write():
    async def go():
        store = MemoryKeyValue()
        index = DeadlineIndex(store)
        written = index.note("t1", 100.0, 5)
        assert written is not None and not written.done()
        assert index.note("t2", 50.0, 6) is written  # one batch, one wait
        assert await index.flush() == 2 and written.done() and store.puts == 2
        assert index.note("t1", 100.0, 9) is None  # unchanged: nothing to wait for
        assert index.note("t1", 90.0, 3) is None  # noted from an older position: ignored
        index.forget("t2", 8)
        await index.flush()
        assert await store.get("t2") is None and "t2" not in index.known

    asyncio.run(go())


def test_a_failed_write_stays_owed_and_fails_its_waiters():
    async def go():
        store = Failing()
        index = DeadlineIndex(store)
        written = index.note("t1", 100.0, 5)
        await index.flush()
        assert written.exception() is not None and index.owed == 1
        again = index.note("t1", 100.0, 5)  # the entry delivered again waits for the retry
        assert again is not None and again is not written
        store.fail = False
        await index.flush()
        assert again.done() and not again.exception() and await store.get("t1") is not None

    asyncio.run(go())


def test_a_write_owed_for_a_table_handed_over_is_never_written_over_the_new_owners():
    async def go():
        store = Failing()
        index = DeadlineIndex(store)
        index.note("t1", 100.0, 5)
        index.note("t2", 100.0, 5)
        await index.flush()  # the store away: both owed still
        store.fail = False
        await store.put("t1", b"the new owner's")  # t1's partition handed over meanwhile
        index.let_go(lambda table_id: table_id == "t1")
        assert not index.owes("t1") and index.owes("t2")
        await index.flush()
        assert await store.get("t1") == b"the new owner's" and await store.get("t2") is not None

    asyncio.run(go())


def test_the_entries_waiting_on_a_write_let_go_are_not_acknowledged():
    """Before: the writes owed for a partition handed over were dropped, and the next write of
    any other table resolved what their entries waited on: acknowledged, never delivered again,
    their deadlines stored nowhere (a lobby never closed). Now they fail: delivered again, each
    to its owner (the other tables' entries too, handled again at no harm)."""

    async def go():
        index = DeadlineIndex(MemoryKeyValue())
        handed = index.note("t1", 100.0, 5)
        kept = index.note("t2", 100.0, 5)
        assert handed is kept
        index.let_go(lambda table_id: table_id == "t1")
        assert handed is not None and isinstance(handed.exception(), HandedOver)
        again = index.note("t2", 100.0, 6)  # t2's entry, delivered again, waits for its write
        assert again is not None and again is not handed
        await index.flush()
        assert again.done() and again.exception() is None
        # a let-go that drops nothing owed fails nothing
        waiting = index.note("t3", 100.0, 5)
        index.let_go(lambda table_id: table_id == "t1")
        assert waiting is not None and not waiting.done()

    asyncio.run(go())


def test_an_older_and_later_deadline_stored_over_a_newer_one_is_written_again():
    """Before: an instance that handed a table over could land its last write after the new
    owner's: the store kept the older fold's later deadline, which a restart then fired late."""

    async def go():
        store = MemoryKeyValue()
        index = DeadlineIndex(store)
        await index.start()
        index.note("t1", 100.0, 9)  # the new owner's, from the newer fold
        await index.flush()
        await store.put("t1", _encode(Due(190.0, 5)))  # the old owner's, landing late
        await until(lambda: index.owes("t1"))
        await index.flush()
        assert _decode(await store.get("t1")) == Due(100.0, 9)
        await store.put("t1", _encode(Due(50.0, 5)))  # older but sooner: it still comes first
        await asyncio.sleep(0.05)
        assert not index.owes("t1")
        await index.close()

    asyncio.run(go())


async def until(check, what: str = "never") -> None:  # type: ignore[no-untyped-def]
    for _ in range(200):
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(what)


def test_a_restarted_index_reads_every_deadline_and_another_instances_newer_one_wins():
    async def go():
        store = MemoryKeyValue()
        mine = DeadlineIndex(store)
        mine.note("t1", 100.0, 5)
        mine.note("t2", 200.0, 6)
        await mine.flush()
        await mine.mark_built()
        other = DeadlineIndex(store)
        await other.start()
        assert other.built and other.known == {"t1": Due(100.0, 5), "t2": Due(200.0, 6)}
        await mine.start()
        other.note("t1", 40.0, 12)  # folded further there: an earlier deadline
        await other.flush()
        for _ in range(100):
            if mine.known["t1"].seq == 12:
                break
            await asyncio.sleep(0.01)
        assert mine.known["t1"] == Due(40.0, 12)
        assert mine.soon(50.0) == ["t1"] and mine.soon(50.0) == []
        assert mine.soon(1000.0) == ["t2"]
        assert BUILT not in mine.known
        await mine.close()
        await other.close()

    asyncio.run(go())


def test_the_store_holds_no_later_than_the_deadline_nor_much_earlier():
    """A deadline moving a little later is not written (most commands move it so: no write per
    command); an earlier one is, and so is one more than ``EARLY`` seconds later than the one
    stored. A worker reading the store wakes no later than it must, and not much earlier."""

    async def go():
        store = MemoryKeyValue()
        index = DeadlineIndex(store)
        early = index.EARLY
        index.note("t1", 100.0, 5)
        await index.flush()
        assert store.puts == 1
        assert index.note("t1", 100.0 + early / 2, 6) is None and index.owed == 0  # not written
        assert index.known["t1"] == Due(100.0 + early / 2, 6)  # (this worker keeps the real one)
        assert index.soon(100.0) == [] and index.soon(100.0 + early / 2) == ["t1"]
        assert index.note("t1", 80.0, 7) is not None  # earlier: written
        await index.flush()
        assert store.puts == 2
        assert index.note("t1", 80.0 + early + 1, 8) is not None  # too far off: written
        await index.flush()
        assert store.puts == 3
        assert index.note("t1", 80.0 + early + 5, 9) is None
        restarted = DeadlineIndex(store)
        await restarted.start()
        assert restarted.known["t1"] == Due(80.0 + early + 1, 8)  # 4 s before the real one
        restarted.note("t1", 80.0 + early + 5, 9)  # woken then, folded: the real one, not written
        assert restarted.owed == 0 and restarted.known["t1"] == Due(80.0 + early + 5, 9)
        restarted.forget("t1", 10)  # finished: deleted, whatever was noted
        await restarted.flush()
        assert await store.get("t1") is None
        await restarted.close()

    asyncio.run(go())
