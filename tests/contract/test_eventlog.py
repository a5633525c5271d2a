"""One contract for every event log adapter: the in-memory twin and JetStream behave alike
(DESIGN property 2: per-table order, optimistic concurrency, idempotent retries)."""

from __future__ import annotations

import asyncio
import time
import uuid

import pytest

from gcbc.eventlog.jetstream import JetStreamEventLog
from gcbc.eventlog.memory import MemoryEventLog
from gcbc.eventlog.partitions import partition_of
from gcbc.eventlog.port import Skip, WrongExpectedSequence


@pytest.fixture(params=["memory", "jetstream"])
def log_factory(request, nats_url):
    async def make():
        if request.param == "memory":
            return MemoryEventLog()
        # a stream of its own: the services' consumers never see these test entries
        name = uuid.uuid4().hex[:12]
        return await JetStreamEventLog.connect(
            nats_url, stream=f"TEST_{name}", prefix=f"test.{name}"
        )

    return make


def table() -> str:
    return uuid.uuid4().hex


def run(coro):
    return asyncio.run(coro)


def test_appends_are_ordered_per_table_and_read_back(log_factory):
    async def go():
        log = await log_factory()
        t = table()
        seqs = []
        last = 0
        for i in range(40):  # past the direct-read limit: the long read path too
            r = await log.append(t, b"e%d" % i, last)
            seqs.append(r.seq)
            last = r.seq
        assert seqs == sorted(seqs)
        got = await log.read(t)
        assert [s.data for s in got] == [b"e%d" % i for i in range(40)]
        assert [s.seq for s in await log.read(t, after=seqs[9])] == seqs[10:]
        assert (await log.last(t)).seq == seqs[-1]
        assert await log.read(t, after=seqs[-1]) == []
        # the first entries only, on either read path (a long log's reader stops at its bound)
        for most, after in ((0, 0), (5, 0), (16, 0), (30, 0), (40, 0), (99, 0), (7, seqs[20])):
            got = await log.read(t, after=after, most=most)
            assert [s.seq for s in got] == [q for q in seqs if q > after][:most], (most, after)

    run(go())


def test_an_empty_entry_is_refused_and_stores_nothing(log_factory):
    """The log's readers take an empty message for the server's own (flow control): an empty
    entry would stall every one of them."""

    async def go():
        log = await log_factory()
        t = table()
        with pytest.raises(ValueError):
            await log.append(t, b"", 0)
        assert await log.read(t) == [] and await log.last(t) is None

    run(go())


def test_a_stale_expectation_is_refused_and_stores_nothing(log_factory):
    async def go():
        log = await log_factory()
        t = table()
        first = await log.append(t, b"a", 0)
        with pytest.raises(WrongExpectedSequence):
            await log.append(t, b"b", 0)
        assert [s.data for s in await log.read(t)] == [b"a"]
        await log.append(t, b"c", first.seq)

    run(go())


def test_two_writers_with_the_same_expectation_exactly_one_lands(log_factory):
    async def go():
        log = await log_factory()
        t = table()
        first = await log.append(t, b"a", 0)
        results = await asyncio.gather(
            log.append(t, b"x", first.seq), log.append(t, b"y", first.seq), return_exceptions=True
        )
        assert sum(isinstance(r, WrongExpectedSequence) for r in results) == 1
        assert len(await log.read(t)) == 2

    run(go())


def test_a_duplicate_message_id_is_acknowledged_not_stored(log_factory):
    async def go():
        log = await log_factory()
        t = table()
        first = await log.append(t, b"a", 0, msg_id=f"{t}-1")
        again = await log.append(t, b"a", first.seq, msg_id=f"{t}-1")
        assert again.duplicate and again.seq == first.seq
        assert len(await log.read(t)) == 1

    run(go())


def test_tables_are_listed(log_factory):
    async def go():
        log = await log_factory()
        a, b = table(), table()
        await log.append(a, b"1", 0)
        await log.append(b, b"2", 0)
        names = [x async for x in log.tables()]
        assert a in names and b in names

    run(go())


HOSTILE_IDS = ["*", ">", "a.b", "..", "a b", "a\tb", "a\x01b", "a\x7f", "", "é"]


@pytest.mark.parametrize("hostile", HOSTILE_IDS)
def test_an_id_that_could_reach_other_tables_is_refused(log_factory, hostile):
    """DESIGN property 3: a wildcard, a dot, a space or a control character never reaches a
    subject: reading or appending with it raises, and nothing is stored."""
    from gcbc_contract.ids import InvalidTableId

    async def go():
        log = await log_factory()
        t = table()
        await log.append(t, b"mine", 0)
        for call in (
            lambda: log.read(hostile),
            lambda: log.last(hostile),
            lambda: log.append(hostile, b"x", 0),
        ):
            with pytest.raises(InvalidTableId):
                await call()
        assert [s.data for s in await log.read(t)] == [b"mine"]
        assert [x async for x in log.tables()] == [t]

    run(go())


async def _until(check, timeout: float = 10.0) -> None:
    for _ in range(int(timeout / 0.02)):
        if check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("timed out")


def test_a_group_gets_every_entry_in_order_again_after_a_failure_and_goes_on_after_a_restart(
    log_factory,
):
    """consume(): at least once, in order, acknowledged when handled; a handler's exception gets
    the entry again; Skip drops it; a group that stops and starts again goes on where it was."""

    async def go():
        log = await log_factory()
        t, u = table(), table()
        seen: list[bytes] = []
        failed: set[bytes] = set()

        async def handle(stored):
            if stored.data == b"fails-once" and stored.data not in failed:
                failed.add(stored.data)
                raise RuntimeError("a passing failure")
            if stored.data == b"never":
                raise Skip("not an entry")
            seen.append(stored.data)

        a = await log.append(t, b"a", 0)
        sub = await log.consume("grp", handle, ack_wait=2)
        b = await log.append(u, b"fails-once", 0)
        await log.append(t, b"never", a.seq)
        await log.append(u, b"c", b.seq)
        await _until(lambda: len(seen) == 3)
        assert sorted(seen) == [b"a", b"c", b"fails-once"]  # a failed one may come after later ones
        assert seen[0] == b"a"
        await sub.close()
        last = await log.last(t)
        await log.append(t, b"after", last.seq)
        again: list[bytes] = []

        async def handle_again(stored):
            again.append(stored.data)

        sub = await log.consume("grp", handle_again, ack_wait=2)
        await _until(lambda: again == [b"after"])
        await sub.close()
        await log.close()

    run(go())


def test_an_entry_is_acknowledged_once_the_work_its_handler_returned_is_done(log_factory):
    """consume(): a handler may return an awaitable (an index write batched with others): the
    entry counts as handled once that is done, while the next entries are handled meanwhile; if
    it fails, the entry comes again."""

    async def go():
        log = await log_factory()
        t = table()
        a = await log.append(t, b"a", 0)
        b = await log.append(t, b"b", a.seq)
        seen: list[bytes] = []
        written = asyncio.get_running_loop().create_future()
        failing = asyncio.get_running_loop().create_future()

        async def handle(stored):
            seen.append(stored.data)
            if stored.data == b"a":
                return written
            if stored.data == b"b" and seen.count(b"b") == 1:
                return failing
            return None

        sub = await log.consume("later", handle, ack_wait=1)
        await _until(lambda: seen[:2] == [b"a", b"b"])  # b handled while a's work is not done
        failing.set_exception(RuntimeError("the index write failed"))
        await _until(lambda: seen.count(b"b") == 2)  # delivered again
        await asyncio.sleep(0.3)
        g = await log.group("later")
        assert g.acked < a.seq  # a is not acknowledged yet
        written.set_result(None)
        for _ in range(100):
            g = await log.group("later")
            if g.acked == b.seq:
                break
            await asyncio.sleep(0.05)
        assert g.acked == b.seq and g.lag == 0
        await sub.close()
        await log.close()

    run(go())


def test_a_member_closed_acknowledges_none_of_the_entries_still_waiting_on_its_work(log_factory):
    """Before (the NATS adapter): a member closed (its partition handed over) still acknowledged
    an entry once the work its handler returned was done, work the handover had let go of: the
    entry was never delivered again. Now it goes to the next member."""

    async def go():
        log = await log_factory()
        t = table()
        await log.append(t, b"a", 0)
        work = asyncio.get_running_loop().create_future()
        seen: list[bytes] = []

        async def first(stored):
            seen.append(stored.data)
            return work

        async def second(stored):
            seen.append(stored.data)

        sub = await log.consume("handed", first, ack_wait=1)
        await _until(lambda: seen == [b"a"])
        await sub.close()
        work.set_result(None)  # done after the member closed: not its to acknowledge
        await asyncio.sleep(0.1)
        sub = await log.consume("handed", second, ack_wait=1)
        await _until(lambda: seen == [b"a", b"a"], 15)
        await sub.close()
        await log.close()

    run(go())


def test_a_group_in_batches_gets_what_arrived_at_once_and_each_entry_answered_for(log_factory):
    async def go():
        log = await log_factory()
        t, u = table(), table()
        batches: list[list[bytes]] = []
        failed: set[bytes] = set()
        release, entered = asyncio.Event(), asyncio.Event()

        async def handle(entries):
            if not batches:
                entered.set()
                await release.wait()  # the rest arrive meanwhile: the next batch holds them
            batches.append([s.data for s in entries])
            out = []
            for stored in entries:
                if stored.data == b"fails-once" and stored.data not in failed:
                    failed.add(stored.data)
                    out.append(RuntimeError("a passing failure"))
                elif stored.data == b"never":
                    out.append(Skip("not an entry"))
                else:
                    out.append(None)
            return out

        a = await log.append(t, b"a", 0)
        sub = await log.consume_batches("grp", handle, ack_wait=2)
        await asyncio.wait_for(entered.wait(), 10)
        b = await log.append(u, b"fails-once", 0)
        n = await log.append(t, b"never", a.seq)
        await log.append(u, b"c", b.seq)
        await log.append(t, b"d", n.seq)
        await asyncio.sleep(0.3)  # delivered, queued behind the first batch
        release.set()
        await _until(lambda: sum(len(x) for x in batches) >= 6)
        assert batches[0] == [b"a"]
        assert batches[1] == [b"fails-once", b"never", b"c", b"d"]  # everything that had come
        assert b"fails-once" in batches[-1]  # delivered again; the Skip one is not
        assert sum(x.count(b"never") for x in batches) == 1
        await sub.close()
        last = await log.last(t)
        await log.append(t, b"after", last.seq)
        again: list[bytes] = []

        async def handle_again(entries):
            again.extend(s.data for s in entries)
            return [None] * len(entries)

        sub = await log.consume_batches("grp", handle_again, ack_wait=2)
        await _until(lambda: b"after" in again)
        assert again == [b"after"]  # what was answered for is never delivered again
        await sub.close()
        await log.close()

    run(go())


def test_a_follower_gets_what_comes_after_its_position(log_factory):
    async def go():
        log = await log_factory()
        t = table()
        first = await log.append(t, b"1", 0)
        second = await log.append(t, b"2", first.seq)
        from_first: list[bytes] = []
        from_now: list[bytes] = []

        async def keep(into):
            async def handle(stored):
                into.append(stored.data)

            return handle

        a = await log.follow(await keep(from_first), after=first.seq)
        b = await log.follow(await keep(from_now))
        await asyncio.sleep(0.2)
        await log.append(t, b"3", second.seq)
        await _until(lambda: from_first == [b"2", b"3"] and from_now == [b"3"])
        await a.close()
        await b.close()
        await log.close()

    run(go())


def test_a_scan_reads_every_table_in_one_ordered_pass_in_batches(log_factory):
    """scan(): the whole log in order (what rebuild --all reads), bounded by after/until; a scan
    stops at the last entry stored when it began even while entries keep coming."""

    async def go():
        log = await log_factory()
        tables = [table() for _ in range(5)]
        last = dict.fromkeys(tables, 0)
        for i in range(2600):  # more than one batch
            t = tables[i % 5]
            last[t] = (await log.append(t, b"%d" % i, last[t])).seq
        seen = [s async for batch in log.scan() for s in batch]
        assert [s.data for s in seen] == [b"%d" % i for i in range(2600)]
        assert [s.seq for s in seen] == sorted(s.seq for s in seen)
        assert [s.table for s in seen[:5]] == tables and all(s.at > 0 for s in seen)
        middle = seen[1000].seq
        part = [s async for batch in log.scan(after=middle, until=seen[1009].seq) for s in batch]
        assert [s.seq for s in part] == [s.seq for s in seen[1001:1010]]
        assert [s async for batch in log.scan(after=seen[-1].seq) for s in batch] == []
        got = []
        async for batch in log.scan():
            if not got:  # entries appended during the scan are not part of it
                t = tables[0]
                last[t] = (await log.append(t, b"later", last[t])).seq
            got += batch
        assert len(got) == 2600
        last_seq, sizes = await log.sizes()
        assert last_seq == last[tables[0]] and sizes == {t: 520 + (t == tables[0]) for t in tables}
        await log.close()

    run(go())


def test_status_tells_the_size_and_each_groups_progress(log_factory):
    async def go():
        log = await log_factory()
        t = table()
        a = await log.append(t, b"a", 0)
        b = await log.append(t, b"b", a.seq)
        handled: list[bytes] = []

        async def handle(stored):
            handled.append(stored.data)

        sub = await log.consume("progress", handle, ack_wait=2)
        await _until(lambda: len(handled) == 2)
        await sub.close()
        await log.append(t, b"c", b.seq)
        # the server takes the closed consumer's acknowledgements and the new entry in its own
        # time: looked at until both show (a loaded machine may take seconds)
        for _ in range(200):
            g = await log.group("progress")
            if g.acked == b.seq and g.lag == 1:
                break
            await asyncio.sleep(0.05)
        assert g.acked == b.seq and g.lag == 1 and g.oldest_at is not None, g
        assert await log.group("nobody") is None
        status = await log.status()
        assert status.entries == 3 and status.tables == 1 and status.last >= b.seq + 1
        assert status.last_at is not None and abs(status.last_at - time.time()) < 60
        assert [x.name for x in status.groups] == ["progress"]
        await log.close()

    run(go())


def test_a_follower_of_one_table_gets_only_its_entries(log_factory):
    async def go():
        log = await log_factory()
        t, u = table(), table()
        got: list[bytes] = []

        async def handle(stored):
            got.append(stored.data)

        sub = await log.follow(handle, table=t)
        await asyncio.sleep(0.2)
        a = await log.append(u, b"other", 0)
        await log.append(t, b"mine", 0)
        await log.append(u, b"other again", a.seq)
        await _until(lambda: got == [b"mine"])
        await asyncio.sleep(0.2)
        assert got == [b"mine"]
        await sub.close()
        await log.close()

    run(go())


def test_a_partition_consumer_gets_its_partitions_tables_only(log_factory):
    """consume(partition=p): only the tables partition_of places in p, through a durable of its
    own (``<group>-p<p>``); the group's progress is the sum over its partitions' consumers."""

    async def go():
        log = await log_factory()
        tables = [table() for _ in range(12)]
        for t in tables:
            await log.append(t, t.encode(), 0)
        by_partition: dict[int, list[str]] = {}
        for t in tables:
            by_partition.setdefault(partition_of(t, log.partitions), []).append(t)
        p, mine = next(iter(by_partition.items()))
        got: list[str] = []

        async def handle(stored):
            got.append(stored.table)

        sub = await log.consume("split", handle, ack_wait=2, partition=p)
        await _until(lambda: sorted(got) == sorted(mine))
        assert sorted([t async for t in log.tables(p)]) == sorted(mine)
        assert sorted((await log.sizes(p))[1]) == sorted(mine)
        for _ in range(100):
            g = await log.group("split")
            if g is not None and g.lag == 0:
                break
            await asyncio.sleep(0.05)
        assert g.name == "split" and g.lag == 0
        assert [x.name for x in (await log.status()).groups] == ["split"]
        await asyncio.sleep(0.2)
        assert sorted(got) == sorted(mine)  # nothing of another partition came
        await sub.close()
        await log.close()

    run(go())


def test_a_partition_handed_to_another_member_goes_on_where_it_stopped(log_factory):
    async def go():
        log = await log_factory()
        t = table()
        p = partition_of(t, log.partitions)
        first: list[bytes] = []
        second: list[bytes] = []

        async def keep(into):
            async def handle(stored):
                into.append(stored.data)

            return handle

        a = await log.append(t, b"a", 0)
        sub = await log.consume("moving", await keep(first), ack_wait=2, partition=p)
        await _until(lambda: first == [b"a"])
        await asyncio.sleep(0.1)  # its ack reaches the server
        await sub.close()
        await log.append(t, b"b", a.seq)
        sub = await log.consume("moving", await keep(second), ack_wait=2, partition=p)
        await _until(lambda: second == [b"b"])
        await sub.close()
        await log.close()

    run(go())


def test_a_group_in_order_gets_an_entry_its_gone_member_held_before_any_later_one(log_factory):
    """``in_order``: one entry at a time, so an entry a member held when it went (a kill, a
    lease handed over) comes to the next member before every entry after it (the ratings rate
    tables in the log's order: a later game rated first would pass the earlier one over)."""

    async def go():
        log = await log_factory()
        tables = [table() for _ in range(3)]
        held = asyncio.Event()
        first: list[bytes] = []
        second: list[bytes] = []

        async def stuck(stored):  # the member dies holding its first entry
            first.append(stored.data)
            held.set()
            await asyncio.Event().wait()

        async def keep(stored):
            second.append(stored.data)

        # a group made before it was in order is brought up to it
        await (await log.consume("ordered", keep, ack_wait=1)).close()
        await log.append(tables[0], b"first", 0)
        sub = await log.consume("ordered", stuck, ack_wait=1, in_order=True)
        await asyncio.wait_for(held.wait(), 10)
        await sub.close()
        sub = await log.consume("ordered", keep, ack_wait=1, in_order=True)
        # entries after it, appended while the entry it held waits out its ack wait
        await log.append(tables[1], b"second", 0)
        await log.append(tables[2], b"third", 0)
        await _until(lambda: len(second) == 3, 15)
        assert first == [b"first"]
        assert second == [b"first", b"second", b"third"]
        await sub.close()
        await log.close()

    run(go())


def test_the_streams_own_partition_count_wins_over_a_setting(nats_url):
    """P is fixed for a stream's life: a table placed under another P would not be found."""

    async def go():
        name = uuid.uuid4().hex[:12]
        stream, prefix = f"TEST_{name}", f"test.{name}"
        first = await JetStreamEventLog.connect(
            nats_url, stream=stream, prefix=prefix, partitions=4
        )
        t = table()
        await first.append(t, b"a", 0)
        again = await JetStreamEventLog.connect(
            nats_url, stream=stream, prefix=prefix, partitions=8
        )
        assert again.partitions == 4
        assert [s.data for s in await again.read(t)] == [b"a"]
        await again.js.delete_stream(stream)
        await first.close()
        await again.close()

    run(go())


def _collect(into: list[tuple[str, bytes]]):
    async def handle(stored) -> None:
        into.append((stored.table, stored.data))

    return handle


def test_commands_and_answers_are_read_apart_and_in_one_order(log_factory):
    """A table's answers expect its commands' positions and the other way round (one order per
    table, DESIGN property 2), and a consumer or a follower may read only one kind: the rules
    worker gets the commands alone, the projection the answers alone."""

    async def go():
        log = await log_factory()
        everything, commands, answers, followed = [], [], [], []
        groups = [
            await log.consume("all", _collect(everything)),
            await log.consume("cmds", _collect(commands), only="commands"),
            await log.consume("ans", _collect(answers), only="answers"),
            await log.follow(_collect(followed), only="answers"),
        ]
        a, b = table(), table()
        c1 = await log.append(a, b"a:c1", 0)
        d1 = await log.append(b, b"b:c1", 0)
        with pytest.raises(WrongExpectedSequence):
            await log.append(a, b"a:late", 0)  # the table has its command already
        a1 = await log.append(a, b"a:a1", c1.seq, answer=True)
        with pytest.raises(WrongExpectedSequence):
            await log.append(a, b"a:stale", c1.seq)  # expects the command: the answer came
        c2 = await log.append(a, b"a:c2", a1.seq, msg_id="c2")
        dup = await log.append(a, b"a:c2", c2.seq, msg_id="c2")
        assert dup.duplicate and dup.seq == c2.seq
        await log.append(b, b"b:a1", d1.seq, answer=True)
        a2 = await log.append(a, b"a:a2", c2.seq, answer=True)
        for _ in range(250):
            if (len(everything), len(commands), len(answers), len(followed)) == (6, 3, 3, 3):
                break
            await asyncio.sleep(0.02)
        await asyncio.sleep(0.1)  # nothing more comes
        data = [b"a:c1", b"b:c1", b"a:a1", b"a:c2", b"b:a1", b"a:a2"]
        assert [d for _, d in everything] == data
        assert [d for _, d in commands] == [b"a:c1", b"b:c1", b"a:c2"]
        assert [d for _, d in answers] == [b"a:a1", b"b:a1", b"a:a2"]
        assert [d for _, d in followed] == [b"a:a1", b"b:a1", b"a:a2"]
        assert [t for t, _ in answers] == [a, b, a]
        assert [s.data for s in await log.read(a)] == [b"a:c1", b"a:a1", b"a:c2", b"a:a2"]
        assert [s.data for s in await log.read(a, after=a1.seq)] == [b"a:c2", b"a:a2"]
        assert (await log.last(a)).seq == a2.seq
        _, sizes = await log.sizes()
        assert sizes[a] == 4 and sizes[b] == 2
        assert sorted([t async for t in log.tables()]) == sorted([a, b])
        for name in ("all", "cmds", "ans"):
            for _ in range(100):
                g = await log.group(name)
                if g is not None and g.lag == 0:
                    break
                await asyncio.sleep(0.02)
            assert g is not None and g.lag == 0, (name, g)
        for g in groups:
            await g.close()
        await log.close()

    run(go())


def test_an_entry_is_read_by_its_sequence_if_it_is_the_tables(log_factory):
    async def go():
        log = await log_factory()
        a, b = table(), table()
        first = await log.append(a, b"a1", 0)
        other = await log.append(b, b"b1", 0)
        answer = await log.append(a, b"a2", first.seq, answer=True)
        assert (await log.at(a, first.seq)).data == b"a1"
        assert (await log.at(a, answer.seq)).data == b"a2"
        assert await log.at(a, other.seq) is None  # another table's
        assert await log.at(a, answer.seq + 100) is None
        await log.close()

    run(go())
