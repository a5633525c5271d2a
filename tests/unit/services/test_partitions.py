"""The partition map (gcbc.eventlog.partitions), the division of partitions among a service's
instances and its failover (services.common.partitions) on the lease twin with a clock the test
moves, and the guards that make two instances overlapping on a table harmless."""

from __future__ import annotations

import asyncio
import uuid
import zlib

from gcbc.eventlog.leases import MemoryLeases
from gcbc.eventlog.memory import MemoryEventLog
from gcbc.eventlog.partitions import group_of, partition_group, partition_of
from gcbc.readmodel.memory import MemoryReadModel
from gcbc_contract import commands as C
from gcbc_contract.entries import CommandEntry, decode_entry, encode_entry
from services.common.partitions import Partitions, assignment
from services.projection.service import Projection
from services.rules.worker import RulesWorker

P = 16


class Clock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


# --- the partition map ------------------------------------------------------------------------
def test_a_tables_partition_is_a_stable_hash_of_its_id():
    table = "0123456789abcdef"
    assert partition_of(table, P) == zlib.crc32(table.encode()) % P == 3
    assert partition_of(table, 1) == 0
    assert all(0 <= partition_of(uuid.uuid4().hex, P) < P for _ in range(100))


def test_tables_spread_over_every_partition():
    counts = [0] * P
    for i in range(3200):
        counts[partition_of(f"{i:016x}", P)] += 1
    assert min(counts) > 100 and max(counts) < 300  # 200 each, give or take


def test_a_partitions_consumer_is_named_after_its_group():
    assert partition_group("rules-worker", 3) == "rules-worker-p3"
    assert group_of("rules-worker-p3") == ("rules-worker", 3)
    assert group_of("projection") == ("projection", None)


# --- the assignment ---------------------------------------------------------------------------
def test_each_member_gets_about_its_share_and_every_partition_one_member():
    for n in range(1, 6):
        members = [f"m{i}" for i in range(n)]
        got = assignment(P, members)
        assert sorted(got) == list(range(P))
        shares = sorted(list(got.values()).count(m) for m in members)
        assert shares[0] >= P // n and shares[-1] <= -(-P // n)
        assert assignment(P, reversed(members)) == got  # the same from any member's view


def test_a_member_joining_moves_some_partitions_not_all():
    before = assignment(P, ["a", "b"])
    after = assignment(P, ["a", "b", "c"])
    moved = [p for p in range(P) if before[p] != after[p]]
    assert len([p for p in moved if after[p] == "c"]) == 5  # c's share …
    assert len(moved) < P  # … and the others keep part of theirs


# --- instances on the lease twin --------------------------------------------------------------
class Instance:
    """One instance's share, recording what it starts and stops."""

    def __init__(self, leases: MemoryLeases, name: str, clock: Clock) -> None:
        self.running: set[int] = set()
        self.started: list[int] = []

        async def start(p: int) -> object:
            assert p not in self.running
            self.running.add(p)
            self.started.append(p)
            return _Sub(self.running, p)

        self.share = Partitions(
            leases, "rules", P, start, self.running.discard, instance=name, clock=clock
        )


class _Sub:
    def __init__(self, running: set[int], p: int) -> None:
        self.running, self.p = running, p

    async def close(self) -> None:
        self.running.discard(self.p)


def _exclusive(*instances: Instance) -> None:
    """No partition processed by two instances at once."""
    seen: set[int] = set()
    for i in instances:
        assert not (i.running & seen)
        seen |= i.running
        assert i.running == set(i.share.held)


def test_one_instance_takes_every_partition_a_second_one_takes_half():
    async def go():
        clock = Clock()
        leases = MemoryLeases(3.0, clock)
        a = Instance(leases, "a", clock)
        await a.share.step()
        assert a.running == set(range(P))
        b = Instance(leases, "b", clock)
        await b.share.step()  # b is a member now, but a still holds its share
        _exclusive(a, b)
        assert b.running == set()
        await a.share.step()  # a sees b: hands b's share over
        _exclusive(a, b)
        await b.share.step()  # b takes it
        _exclusive(a, b)
        assert len(a.running) == len(b.running) == P // 2
        assert a.running | b.running == set(range(P))

    asyncio.run(go())


def test_a_dead_instances_partitions_go_to_the_others_once_its_leases_lapse():
    async def go():
        clock = Clock()
        leases = MemoryLeases(3.0, clock)
        a, b = Instance(leases, "a", clock), Instance(leases, "b", clock)
        for _ in range(2):
            await a.share.step()
            await b.share.step()
        assert len(b.running) == P // 2
        # b dies (kill -9): it renews nothing any more; a goes on every second
        for _ in range(2):
            clock.now += 1.0
            await a.share.step()
            assert len(a.running) == P // 2  # b's leases have not lapsed yet
        for _ in range(2):
            clock.now += 1.0
            await a.share.step()
        assert a.running == set(range(P))

    asyncio.run(go())


def test_a_slots_process_started_again_takes_its_predecessors_partitions_at_once():
    async def go():
        clock = Clock()
        leases = MemoryLeases(3.0, clock)
        a, b = Instance(leases, "rules-1", clock), Instance(leases, "rules-2", clock)
        for _ in range(2):
            await a.share.step()
            await b.share.step()
        held = set(b.running)
        assert len(held) == P // 2
        # b is killed -9 and its supervisor starts the slot again, under the same name
        clock.now += 0.5
        again = Instance(leases, "rules-2", clock)
        assert await again.share.step()
        assert again.running == held  # no lease waited for
        await a.share.step()
        _exclusive(a, again)
        assert len(a.running) == P // 2

    asyncio.run(go())


def test_a_partition_not_lapsed_yet_is_tried_again_before_the_next_round():
    async def go():
        clock = Clock()
        leases = MemoryLeases(3.0, clock)
        a, b = Instance(leases, "a", clock), Instance(leases, "b", clock)
        for _ in range(2):
            await a.share.step()
            await b.share.step()
        # b dies; a sees it gone once its membership lapses, its partitions a moment later
        await leases.release("rules.member.b", b.share._member_revision)  # noqa: SLF001
        assert not await a.share.step()  # its share grew, b's leases still held: soon again
        clock.now += 3.0
        assert await a.share.step()
        assert a.running == set(range(P))

    asyncio.run(go())


def test_an_instance_that_cannot_renew_stops_before_its_leases_lapse():
    async def go():
        clock = Clock()
        leases = MemoryLeases(3.0, clock)
        a = Instance(leases, "a", clock)
        await a.share.step()
        clock.now += 1.9  # NATS away: no round got through
        await a.share.expire()
        assert a.running == set(range(P))  # still surely its own
        clock.now += 0.2  # past two thirds of the TTL: it may lapse soon, stop now
        await a.share.expire()
        assert a.running == set()
        b = Instance(leases, "b", clock)
        await b.share.step()
        assert b.running == set()  # not lapsed yet: nobody else processes them either
        clock.now += 1.0
        await b.share.step()
        assert b.running == set(range(P))

    asyncio.run(go())


def test_a_lease_lost_is_stopped_at_the_next_round():
    async def go():
        clock = Clock()
        leases = MemoryLeases(3.0, clock)
        a = Instance(leases, "a", clock)
        await a.share.step()
        leases._held.pop("rules.partition.5")  # noqa: SLF001  (lapsed behind its back)
        assert await leases.take("rules.partition.5", "intruder") is not None
        await a.share.step()
        assert 5 not in a.running and len(a.running) == P - 1

    asyncio.run(go())


def test_an_instance_leaving_hands_everything_over_at_once():
    async def go():
        clock = Clock()
        leases = MemoryLeases(3.0, clock)
        a, b = Instance(leases, "a", clock), Instance(leases, "b", clock)
        for _ in range(2):
            await a.share.step()
            await b.share.step()
        await a.share.leave()
        assert a.running == set()
        await b.share.step()  # no lapse waited for
        assert b.running == set(range(P))

    asyncio.run(go())


# --- two instances on one table at once: harmless -------------------------------------------
TABLE = "00000000000000ab"


def test_two_workers_handling_the_same_command_answer_it_once():
    async def go():
        events = MemoryEventLog()
        entry = CommandEntry(command=C.OpenTable(table_id=TABLE, seats=4), at=1, prev=0)
        seq = (await events.append(TABLE, encode_entry(entry), 0)).seq
        command = (await events.read(TABLE))[0]
        first, second = RulesWorker(events), RulesWorker(events)
        await asyncio.gather(first.handle(command), second.handle(command))
        await second.handle(command)  # redelivered after the handover
        entries = await events.read(TABLE)
        assert len(entries) == 2 and decode_entry(entries[1].data).answers == seq
        assert first.decided + second.decided == 1

    asyncio.run(go())


def test_a_projection_behind_another_never_writes_older_views_over_newer():
    async def go():
        events, model = MemoryEventLog(), MemoryReadModel()
        ahead, behind = Projection(events, model), Projection(events, model)
        entry = CommandEntry(command=C.OpenTable(table_id=TABLE, seats=4), at=1, prev=0)
        seq = (await events.append(TABLE, encode_entry(entry), 0)).seq
        worker = RulesWorker(events)
        await worker.handle((await events.read(TABLE))[0])
        seat = CommandEntry(command=C.TakeSeat(name="x"), at=2, prev=seq + 1)
        await events.append(TABLE, encode_entry(seat), seq + 1)
        await worker.handle((await events.read(TABLE))[-1])
        entries = await events.read(TABLE)
        for stored in entries:
            await ahead.handle(stored)
        newest = await model.position(TABLE)
        assert newest == entries[-1].seq
        assert not await behind.handle(entries[1])  # the old answer, handled late elsewhere
        assert await model.position(TABLE) == newest

    asyncio.run(go())


def test_after_a_blip_an_instance_takes_back_what_nobody_took_meanwhile_at_once():
    async def go():
        clock = Clock()
        leases = MemoryLeases(3.0, clock)
        a = Instance(leases, "a", clock)
        await a.share.step()
        clock.now += 2.1  # NATS away: renewals late, everything stopped
        await a.share.expire()
        assert a.running == set()
        await a.share.step()  # NATS back before the leases lapsed: renewed, not waited for
        assert a.running == set(range(P))

    asyncio.run(go())
