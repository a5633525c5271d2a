"""The service loops on the in-memory twins of the log and the read model (whole
ports): the rules worker answers, the projection writes views and answers, the table service
appends and reads its answer back — the same road as in production, without a server."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import msgspec
import pytest
from msgspec.structs import replace

from gcbc.eventlog.memory import MemoryEventLog
from gcbc.eventlog.port import Later
from gcbc.readmodel.memory import MemoryReadModel
from gcbc.readmodel.port import PUBLIC, ModelUnavailable, seat_key
from gcbc_contract import commands as C
from gcbc_contract.entries import (
    SCHEMA,
    CommandEntry,
    OutcomeEntry,
    RefusalEntry,
    decode_entry,
    encode_entry,
)
from services.projection import service as projection_service
from services.projection.service import DURABLE as PROJECTION
from services.projection.service import Projection
from services.rules.service import DURABLE as RULES
from services.rules.service import run
from services.rules.worker import RulesWorker
from services.table.problems import ApiError
from services.table.service import TableService, token_hash
from services.table.shown import PlayerAt

TABLE = "00000000000000ab"


class Clock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


@asynccontextmanager
async def pipeline(
    lobby_seconds: float = 1800.0, finished_ttl: float | None = None
) -> AsyncIterator[tuple]:
    events, clock = MemoryEventLog(), Clock()
    model = MemoryReadModel(finished_ttl, clock)
    worker = RulesWorker(events, clock=clock, lobby_seconds=lobby_seconds)
    projection = Projection(events, model, finished_views_expire=finished_ttl is not None)
    stop = asyncio.Event()
    tasks = [asyncio.create_task(run(worker, stop)), asyncio.create_task(projection.run(stop))]
    service = TableService(events, model)
    follower = await service.follow()
    try:
        yield events, model, service, clock
    finally:
        stop.set()
        await asyncio.gather(*tasks)
        await follower.close()
        await events.close()


async def settled(events: MemoryEventLog) -> None:
    """Both consumers have handled every entry (waits on positions, never on time)."""
    for _ in range(500):
        if events.pending(RULES) == 0 and events.pending(PROJECTION) == 0:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the consumers did not catch up")


async def opened(service: TableService, table: str, seats: int = 4) -> None:
    """A table opened, its opening answered."""
    seq = await service.append_command(
        table, C.OpenTable(table_id=table, seats=seats), new_table=True
    )
    assert await service.answered(table, PUBLIC, seq, 5)


async def open_table(service: TableService, seats: int = 4) -> list[str]:
    seq = await service.append_command(
        TABLE, C.OpenTable(table_id=TABLE, seats=seats), new_table=True
    )
    assert await service.answered(TABLE, PUBLIC, seq, 5)
    tokens = []
    for i in range(seats):
        token = f"token-{i}"
        seq = await service.append_command(
            TABLE, C.TakeSeat(name=f"p{i}"), token_hash_=token_hash(token)
        )
        _, answer = await service.answered(TABLE, PUBLIC, seq, 5)
        assert answer.seat == i and answer.code is None
        tokens.append(token)
    return tokens


def test_a_command_is_answered_and_its_view_and_answer_come_back_together():
    async def go():
        async with pipeline() as (events, model, service, _):
            await open_table(service)
            seq = await service.append_command(TABLE, C.StartGame(seat=0, random_seed=7))
            view, answer = await service.answered(TABLE, seat_key(0), seq, 5)
            assert answer.code is None and b'"status":"playing"' in view.data
            seq = await service.append_command(TABLE, C.Arrange(seat=1, positions=(3, 2, 1)))
            view, answer = await service.answered(TABLE, seat_key(1), seq, 5)
            assert answer.command == seq and answer.answer > seq and answer.code is None
            await settled(events)
            kinds = [type(decode_entry(s.data)).__name__ for s in events.all()]
            assert kinds == ["CommandEntry", "OutcomeEntry"] * (len(kinds) // 2)

    asyncio.run(go())


def test_a_refusal_decided_by_the_worker_comes_back_to_its_seat_only():
    """The table service's check runs on its cached state; the worker decides on the log. A
    command appended on purpose without the check (as a stale cache could) is refused by the
    worker, and that refusal comes back through the read model, for its seat only."""

    async def go():
        async with pipeline() as (events, model, service, _):
            await open_table(service)
            last = await events.last(TABLE)
            bad = CommandEntry(command=C.Shoot(seat=2), prev=last.seq)
            from gcbc_contract.entries import encode_entry

            appended = await events.append(TABLE, encode_entry(bad), last.seq)
            view, answer = await service.answered(TABLE, seat_key(2), appended.seq, 5)
            assert answer.code == "game_not_started"
            public = await model.wait(TABLE, PUBLIC, position=appended.seq + 1, timeout=5)
            assert public.answer(appended.seq) is None  # nobody else learns of it
            with pytest.raises(ApiError) as refused:  # the table service's own check
                await service.append_command(TABLE, C.Shoot(seat=2))
            assert refused.value.code == "game_not_started"

    asyncio.run(go())


def test_a_retry_with_the_same_command_id_records_nothing_new():
    async def go():
        async with pipeline() as (events, model, service, _):
            await open_table(service)
            seq = await service.append_command(TABLE, C.StartGame(seat=0, random_seed=7))
            await service.answered(TABLE, seat_key(0), seq, 5)
            command = C.Arrange(seat=1, positions=(1, 2, 3), command_id="once")
            first = await service.append_command(TABLE, command)
            await settled(events)
            count = len(events.all())
            again = await service.append_command(TABLE, command)
            assert again == first and len(events.all()) == count
            _, answer = await service.answered(TABLE, seat_key(1), again, 5)
            assert answer.command == first

    asyncio.run(go())


def test_a_player_asking_for_two_seats_at_once_gets_one():
    """Both asks pass the player's check before either is appended: the second is appended
    only after the first is answered, and is refused on it."""

    async def go():
        async with pipeline() as (events, model, service, _):
            seq = await service.append_command(
                TABLE, C.OpenTable(table_id=TABLE, seats=4, rated=True), new_table=True
            )
            assert await service.answered(TABLE, PUBLIC, seq, 5)

            async def take(name: str) -> int | ApiError:
                try:
                    return await service.append_command(
                        TABLE, C.TakeSeat(name=name), token_hash(name), player="a" * 16
                    )
                except ApiError as e:
                    return e

            got = await asyncio.gather(take("ann"), take("ann again"))
            refused = [x for x in got if isinstance(x, ApiError)]
            assert len(refused) == 1 and refused[0].code == "already_seated", got
            await settled(events)
            t = await service.table(TABLE)
            assert list(t.players.values()) == ["a" * 16]
            assert sum(seat is not None for seat in t.state.seats) == 1

    asyncio.run(go())


class SlowLog(MemoryEventLog):
    """A log whose appends take a round trip (a command waits for the ones before it)."""

    async def append(self, *args, **kwargs):
        await asyncio.sleep(0.02)
        return await super().append(*args, **kwargs)


def test_many_seats_asked_for_at_once_each_wait_their_turn_without_a_table_busy():
    async def go():
        events, model = SlowLog(), MemoryReadModel()
        stop = asyncio.Event()
        worker = RulesWorker(events)
        tasks = [
            asyncio.create_task(run(worker, stop)),
            asyncio.create_task(Projection(events, model).run(stop)),
        ]
        service = TableService(events, model)
        follower = await service.follow()
        try:
            await opened(service, TABLE, seats=8)
            takes = [
                service.append_command(TABLE, C.TakeSeat(name=f"p{i}"), token_hash(f"t{i}"))
                for i in range(8)
            ]
            assert len(set(await asyncio.gather(*takes))) == 8  # no 409 table_busy
        finally:
            stop.set()
            await asyncio.gather(*tasks)
            await follower.close()

    asyncio.run(go())


def test_a_command_id_sent_again_with_another_command_is_refused_and_records_nothing():
    async def go():
        async with pipeline() as (events, model, service, _):
            await open_table(service)
            seq = await service.append_command(TABLE, C.StartGame(seat=0, random_seed=7))
            await service.answered(TABLE, seat_key(0), seq, 5)
            await service.append_command(
                TABLE, C.Arrange(seat=1, positions=(1, 2, 3), command_id="once")
            )
            await settled(events)
            count = len(events.all())
            with pytest.raises(ApiError) as refused:
                await service.append_command(
                    TABLE, C.Arrange(seat=1, positions=(2, 1, 3), command_id="once")
                )
            assert refused.value.code == "command_id_reused" and refused.value.status == 409
            assert refused.value.field == "command_id"
            assert len(events.all()) == count
            # another seat's command_id of the same name is its own
            other = await service.append_command(
                TABLE, C.Arrange(seat=2, positions=(2, 1, 3), command_id="once")
            )
            assert other > seq
            # sent at once, before the first was folded: the log's de-duplication finds the first
            t = await service.table(TABLE)
            raced = C.Arrange(seat=3, positions=(3, 2, 1), command_id="race")
            first = await service._append(t, raced, None, False)
            with pytest.raises(ApiError) as refused:
                await service._append(t, replace(raced, positions=(1, 2, 3)), None, False)
            assert refused.value.code == "command_id_reused"
            assert await service._append(t, raced, None, False) == first  # a retry

    asyncio.run(go())


def test_a_command_id_refused_before_the_log_keeps_its_first_answer():
    """API: sending the same command_id again returns the first answer and records nothing new;
    a command_id reused with another command is refused. A refusal records nothing in the log,
    so it is kept for its retries: the same command gets the same refusal, another command
    under that id is a command_id reused (not appended)."""

    async def go():
        async with pipeline() as (events, model, service, _):
            await open_table(service)
            seq = await service.append_command(TABLE, C.StartGame(seat=0, random_seed=7))
            await service.answered(TABLE, seat_key(0), seq, 5)
            await settled(events)
            count = len(events.all())
            early = C.Shoot(seat=1, command_id="x1")  # no gun, and not its turn
            with pytest.raises(ApiError) as first:
                await service.append_command(TABLE, early)
            assert first.value.status == 409
            with pytest.raises(ApiError) as again:
                await service.append_command(TABLE, early)
            assert (again.value.code, again.value.detail) == (first.value.code, first.value.detail)
            with pytest.raises(ApiError) as reused:
                await service.append_command(
                    TABLE, C.Arrange(seat=1, positions=(1, 2, 3), command_id="x1")
                )
            assert reused.value.code == "command_id_reused"
            assert len(events.all()) == count  # nothing recorded
            # a new command_id is a new command
            await service.append_command(
                TABLE, C.Arrange(seat=1, positions=(1, 2, 3), command_id="x2")
            )

    asyncio.run(go())


async def closed(events: MemoryEventLog, table: str) -> None:
    """Once the rules worker has closed the table (its last answer ends with TableClosed)."""
    for _ in range(300):
        last = decode_entry((await events.last(table)).data)
        if isinstance(last, OutcomeEntry) and last.events:
            if type(last.events[-1]).__name__ == "TableClosed":
                return
        await asyncio.sleep(0.01)
    raise AssertionError(f"table {table} did not close")


def test_a_lobby_nobody_starts_closes_when_its_time_is_up():
    async def go():
        async with pipeline(lobby_seconds=60) as (events, model, service, clock):
            seq = await service.append_command(
                TABLE, C.OpenTable(table_id=TABLE, seats=4), new_table=True
            )
            await service.answered(TABLE, PUBLIC, seq, 5)
            assert (await model.open_tables()).listings
            opened = decode_entry((await events.read(TABLE))[-1].data).at / 1000
            clock.now = opened + 61
            await closed(events, TABLE)
            await settled(events)
            assert (await model.open_tables()).listings == []

    asyncio.run(go())


def test_a_lobby_with_house_bots_closes_sooner_than_the_others():
    """Before: a table of house bots nobody started held its house seats (the server has 120)
    for the lobby's whole life: six addresses opening three each kept the house full for half
    an hour. It waits ``HOUSE_LOBBY_SECONDS`` at most; a table of people waits on."""
    from gcbc_contract.options import HouseBots
    from services.common.folded import HOUSE_LOBBY_SECONDS

    people, house = "00000000000000b1", "00000000000000b2"

    async def go():
        async with pipeline(lobby_seconds=3600) as (events, model, service, clock):
            for table, bots in ((people, None), (house, HouseBots(seats=(1, 2, 3)))):
                seq = await service.append_command(
                    table, C.OpenTable(table_id=table, seats=4, bots=bots), new_table=True
                )
                await service.answered(table, PUBLIC, seq, 5)
            opened = decode_entry((await events.read(house))[-1].data).at / 1000
            clock.now = opened + HOUSE_LOBBY_SECONDS + 1
            await closed(events, house)
            await settled(events)
            listed = [
                msgspec.json.decode(x)["table_id"] for x in (await model.open_tables()).listings
            ]
            assert listed == [people]

    asyncio.run(go())


def test_a_wiped_read_model_is_projected_again_from_the_log():
    async def go():
        async with pipeline() as (events, model, service, _):
            await open_table(service)
            await settled(events)
            before = await model.get(TABLE, seat_key(3))
            model.wipe()
            for _ in range(500):  # the projection notices the lost epoch (every 2 s at most)
                if await model.get(TABLE, seat_key(3)) == before:
                    break
                await asyncio.sleep(0.02)
            assert await model.get(TABLE, seat_key(3)) == before

    asyncio.run(go())


def test_a_wipe_is_projected_again_whole_past_a_failure_and_no_table_that_never_opened():
    """A table whose catch-up fails (Redis back but still blinking, a log read lost) is tried
    again at the next check, not left without views till its next entry; a table whose opening
    was refused gets no view."""

    async def go():
        async with pipeline() as (events, model, service, _):
            tables = [f"00000000000000a{i}" for i in range(3)]
            for table in tables:
                await opened(service, table)
            refused = "00000000000000b1"  # past the table service's checks: the rules refuse it
            opening = CommandEntry(command=C.OpenTable(table_id=refused, seats=99), prev=0)
            await events.append(refused, encode_entry(opening), 0)
            await settled(events)
            before = [await model.position(t) for t in tables]
            real, calls = model.position, []

            async def blinking(table: str) -> int:
                calls.append(table)
                if len(calls) == 1:
                    raise ModelUnavailable("a blip while Redis comes back")
                return await real(table)

            model.position = blinking  # type: ignore[method-assign]
            model.wipe()
            for _ in range(500):  # checked every 2 s at most
                if [await real(t) for t in tables] == before:
                    break
                await asyncio.sleep(0.02)
            assert [await real(t) for t in tables] == before
            assert await model.get(refused, PUBLIC) is None
            assert (await model.status()).tables == {"lobby": 3}

    asyncio.run(go())


def test_a_reprojection_whose_process_stopped_half_way_is_done_by_another(monkeypatch):
    """Its claim on the wiped read model lapses: another projection claims it and writes every
    table (none left without views till its next entry)."""
    monkeypatch.setattr(projection_service, "EPOCH_CLAIM", 0.3)

    async def go():
        async with pipeline() as (events, model, service, _):
            tables = [f"00000000000000a{i}" for i in range(3)]
            for table in tables:
                await opened(service, table)
            await settled(events)
            before = [await model.position(t) for t in tables]
            model = MemoryReadModel()  # wiped (the pipeline's own projection writes elsewhere)
            first, second = Projection(events, model), Projection(events, model)

            async def stuck(table_id: str) -> bool:
                await asyncio.Event().wait()  # its process stops here
                return False

            first.catch_up = stuck  # type: ignore[method-assign]
            stop = asyncio.Event()
            dying = asyncio.create_task(first.watch_read_model(stop, every=0.05))
            for _ in range(100):
                if first._claimed:
                    break
                await asyncio.sleep(0.01)
            assert first._claimed
            dying.cancel()  # killed half-way
            going_on = asyncio.create_task(second.watch_read_model(stop, every=0.05))
            for _ in range(300):
                if [await model.position(t) for t in tables] == before:
                    break
                await asyncio.sleep(0.02)
            stop.set()
            await going_on
            assert [await model.position(t) for t in tables] == before
            assert not await model.claim_epoch()  # made for good once done

    asyncio.run(go())


def test_a_table_whose_views_cannot_be_made_holds_back_no_other_table():
    async def go():
        async with pipeline() as (events, model, service, _):
            a, b = "00000000000000a1", "00000000000000a2"
            for table in (a, b):
                await opened(service, table)
            await settled(events)
            answers = [(await events.read(t))[-1] for t in (a, b)]
        fresh = MemoryReadModel()
        projection = Projection(events, fresh)
        real = projection._views

        def views(t, every=False):
            if t.table_id == a:
                raise ValueError("a view of this one state cannot be made")
            return real(t, every)

        projection._views = views  # type: ignore[method-assign]
        results = await projection.handle_batch(answers)
        assert isinstance(results[0], ValueError) and results[1] is None
        assert await fresh.position(b) == answers[1].seq and await fresh.position(a) == 0

    asyncio.run(go())


def test_not_an_entry_is_skipped_and_the_rest_goes_on():
    async def go():
        async with pipeline() as (events, model, service, _):
            await events.append("0000000000000bad", b"not json", 0)
            await open_table(service)
            await settled(events)
            assert isinstance(
                decode_entry((await events.read(TABLE))[1].data), OutcomeEntry | RefusalEntry
            )

    asyncio.run(go())


def test_an_entry_newer_code_wrote_is_never_stepped_over_and_other_tables_go_on():
    """Not answered on a state the log does not hold: its table waits for this code to be
    upgraded (its entry delivered again), every other table goes on."""

    async def go():
        async with pipeline() as (events, model, service, _):
            await open_table(service)
            await settled(events)
            last = await events.last(TABLE)
            newer = CommandEntry(command=C.PostChat(seat=0, text="hi"), prev=last.seq)
            data = msgspec.json.encode(msgspec.structs.replace(newer, schema=SCHEMA + 1))
            await events.append(TABLE, data, last.seq)
            other = "00000000000000cd"
            seq = await service.append_command(
                other, C.OpenTable(table_id=other, seats=4), new_table=True
            )
            assert await service.answered(other, PUBLIC, seq, 5)  # another table goes on
            await asyncio.sleep(0.3)
            assert (await events.last(TABLE)).data == data  # not answered
            assert events.pending(RULES) >= 1  # and not acknowledged: delivered again

    asyncio.run(go())


class SlowToList(MemoryEventLog):
    """A log whose list of tables takes long to walk (thousands of tables after a restart)."""

    async def tables(self, partition=None) -> AsyncIterator[str]:
        async for t in super().tables(partition):
            await asyncio.sleep(0.025)  # 200 tables: five seconds, the first answer in less
            yield t


def test_a_restarted_worker_answers_before_it_has_folded_every_table():
    """The first command is answered at once, however many tables exist: its table is
    folded when it comes; the others meanwhile."""

    async def go():
        events = SlowToList()
        for i in range(200):  # tables from before the restart, each waiting in its lobby
            other = f"ff{i:014x}"
            entry = CommandEntry(command=C.OpenTable(table_id=other, seats=4), at=1, prev=0)
            await events.append(other, encode_entry(entry), 0)
        worker = RulesWorker(events, clock=Clock())
        stop = asyncio.Event()
        task = asyncio.create_task(run(worker, stop))
        entry = CommandEntry(command=C.OpenTable(table_id=TABLE, seats=4), at=1, prev=0)
        seq = (await events.append(TABLE, encode_entry(entry), 0)).seq
        for _ in range(200):
            if len(await events.read(TABLE)) == 2:
                break
            await asyncio.sleep(0.01)
        answered = await events.read(TABLE)
        assert len(answered) == 2 and decode_entry(answered[1].data).answers == seq
        assert worker.loads == 0  # the other 200 tables are still being folded
        stop.set()
        await task

    asyncio.run(go())


def test_the_projection_writes_each_table_once_per_batch_and_holds_back_a_failed_tables_entries():
    """A batch (what arrived at once) folds every entry and writes each changed table once; an
    entry whose fold fails is delivered again with its table's later entries, the others go on."""

    async def go() -> None:
        async with pipeline() as (events, model, service, _):
            await open_table(service)
            await settled(events)
            other = "00000000000000cd"
            seq = await service.append_command(
                other, C.OpenTable(table_id=other, seats=4), new_table=True
            )
            assert await service.answered(other, PUBLIC, seq, 5)
            await settled(events)
            entries = [s for s in events.all() if s.table in (TABLE, other)]
            # a fresh projection handed the whole log at once: two tables, two writes
            fresh, empty = Projection(events, model), MemoryReadModel()
            fresh.model = empty
            results = await fresh.handle_batch(entries)
            assert results == [None] * len(entries)
            assert fresh.written_last == 2
            assert await empty.get(TABLE, PUBLIC) == await model.get(TABLE, PUBLIC)
            assert await empty.get(other, PUBLIC) == await model.get(other, PUBLIC)

            # a table whose fold fails: its entries are held back, the other table is written
            broken = Projection(events, MemoryReadModel())

            async def failing(stored):  # noqa: ANN001, ANN202
                if stored.table == TABLE:
                    raise RuntimeError("the log is away")
                return await deliver(stored)

            deliver = broken.cache.deliver
            broken.cache.deliver = failing  # type: ignore[method-assign]
            results = await broken.handle_batch(entries)
            mine = [r for s, r in zip(entries, results, strict=True) if s.table == TABLE]
            assert isinstance(mine[0], RuntimeError)
            assert all(isinstance(r, Later) for r in mine[1:])
            assert all(r is None for s, r in zip(entries, results, strict=True) if s.table == other)
            assert broken.written_last == 1

    asyncio.run(go())


def test_an_entry_the_log_read_stops_short_of_is_delivered_again_not_acknowledged_unwritten():
    """Given a log read that lags the entry handed over (a replica not caught up: direct gets on
    a replicated stream), the projection holds the entry back instead of acknowledging it with
    nothing written; delivered again once the read has it, its views are written."""

    async def go() -> None:
        async with pipeline() as (events, model, service, _):
            await open_table(service)
            await settled(events)
            last = [s for s in events.all() if s.table == TABLE][-1]
            fresh = Projection(events, MemoryReadModel())
            read = events.read

            async def lagging(table: str, after: int = 0):  # noqa: ANN202
                return [s for s in await read(table, after) if s.seq < last.seq]

            fresh.cache.log.read = lagging  # type: ignore[method-assign]
            results = await fresh.handle_batch([last])
            assert isinstance(results[0], Later) and fresh.written_last == 0
            fresh.cache.log.read = read  # type: ignore[method-assign]
            assert await fresh.handle_batch([last]) == [None] and fresh.written_last == 1
            assert await fresh.model.get(TABLE, PUBLIC) == await model.get(TABLE, PUBLIC)

    asyncio.run(go())


def test_where_a_player_sits_is_read_from_the_rosters_without_a_view_or_a_fold():
    """Before: each table's public view was read and decoded, and a view grows with its chat (a
    player's list of 200 tables with long chats read 20 MB for one request)."""

    async def go():
        async with pipeline() as (_events, model, service, _):
            seq = await service.append_command(
                TABLE, C.OpenTable(table_id=TABLE, seats=4), new_table=True
            )
            await service.append_command(TABLE, C.TakeSeat(name="a"), token_hash_="x")
            seq = await service.append_command(
                TABLE, C.TakeSeat(name="b"), token_hash_="y", player="pl-b"
            )
            assert await service.answered(TABLE, PUBLIC, seq, 5)
            service.cache.drop(TABLE)
            asked: list[str] = []
            get = model.get

            async def recorded(table: str, viewer: str):  # noqa: ANN202
                asked.append(viewer)
                return await get(table, viewer)

            model.get = recorded  # type: ignore[method-assign]
            got = await service.players_at([TABLE, "00000000000000ff"], "pl-b")
            assert got == [PlayerAt("waiting", 1), None]  # (a table not projected: None)
            assert (await service.players_at([TABLE], "pl-c")) == [PlayerAt("waiting", None)]
            assert TABLE not in service.cache.tables  # nothing folded
            assert asked == []  # no view read: the rosters, at once

    asyncio.run(go())


def test_a_finished_tables_views_expire_and_are_made_from_its_log_when_asked_for():
    async def go():
        async with pipeline(lobby_seconds=60, finished_ttl=3600) as (events, model, service, clock):
            await opened(service, TABLE)
            seq = await service.append_command(
                TABLE, C.TakeSeat(name="b"), token_hash_="y", player="pl-b"
            )
            assert await service.answered(TABLE, PUBLIC, seq, 5)
            clock.now = decode_entry((await events.read(TABLE))[0].data).at / 1000 + 61
            await closed(events, TABLE)  # a lobby closed: finished, as a game over is
            await settled(events)
            written = {v: await model.get(TABLE, v) for v in (PUBLIC, seat_key(0))}
            assert (await model.seated([TABLE])) == [b'{"pl-b":0}']
            clock.now += 3601
            assert await model.get(TABLE, PUBLIC) is None  # expired
            service.cache.drop(TABLE)
            folds = Folds(service)
            # where the player sat, from the record kept: no fold
            assert await service.players_at([TABLE], "pl-b") == [PlayerAt("finished", 0)]
            assert folds.count == 0
            charged: list[str] = []

            async def reading() -> None:
                charged.append(TABLE)

            # made from its log as the projection made it (its log read charged once; the table
            # then stays folded here for its next readers), and nothing written
            for viewer, seat in ((PUBLIC, None), (seat_key(0), 0)):
                got = await service.finished_view(TABLE, seat, reading)
                assert got is not None and (got.position, got.data) == written[viewer]
            assert folds.count == 1 and len(charged) == 1
            assert await service.finished_view(TABLE, 0, reading) is got  # made once, kept
            assert await model.get(TABLE, PUBLIC) is None
            # a chat after the end: its views stay gone (its position alone is written), and
            # the view made here is made again, with the chat
            seq = await service.append_command(TABLE, C.PostChat(seat=0, text="gg"))
            await settled(events)
            assert await model.get(TABLE, PUBLIC) is None and await model.position(TABLE) > seq
            again = await service.finished_view(TABLE, 0, reading)
            assert again is not None and again is not got and b'"gg"' in again.data
            seq = await service.append_command(TABLE, C.PostChat(seat=0, text="bye"))
            await settled(events)  # a second one: still no views, the made one made again
            assert await model.get(TABLE, PUBLIC) is None and await model.position(TABLE) > seq
            again = await service.finished_view(TABLE, 0, reading)
            assert again is not None and b'"bye"' in again.data
            # a table in play or waiting has no record: no view is made of it here
            clock.now = time.time()  # (the entries' time: the new table's lobby stays open)
            other = "00000000000000ac"
            await opened(service, other)
            service.cache.drop(other)
            assert await service.finished_view(other, None, reading) is None
            assert len(charged) == 1
            # a wiped read model filled again: the table waiting gets its views, the finished
            # one only its record and status (its views are made from the log if asked for)
            await settled(events)
            waiting = await model.get(other, PUBLIC)
            model.wipe()
            for _ in range(500):
                if await model.get(other, PUBLIC) == waiting:
                    break
                await asyncio.sleep(0.02)
            assert await model.get(other, PUBLIC) == waiting
            assert await model.seated([TABLE]) == [b'{"pl-b":0}']
            assert await model.get(TABLE, PUBLIC) is None
            assert (await model.status()).tables == {"lobby": 1, "finished": 1}
            got = await service.finished_view(TABLE, None, reading)
            assert got is not None and got.position == again.position and b'"gg"' in got.data

    asyncio.run(go())


def test_readers_of_an_expired_table_at_once_all_get_its_view_while_its_log_is_read():
    """The first reader's fold of the log yields as it goes: a reader meanwhile found the table
    half-folded, not finished yet, and got no view (a 404 for a finished table)."""

    async def go():
        async with pipeline(lobby_seconds=60, finished_ttl=3600) as (events, model, service, clock):
            await opened(service, TABLE)
            seq = await service.append_command(TABLE, C.TakeSeat(name="b"), token_hash_="y")
            assert await service.answered(TABLE, PUBLIC, seq, 5)
            clock.now = decode_entry((await events.read(TABLE))[0].data).at / 1000 + 61
            await closed(events, TABLE)
            await settled(events)
            clock.now += 3601
            assert await model.get(TABLE, PUBLIC) is None
            service.cache.drop(TABLE)
            service.cache.FOLD_SLICE = 1  # (the fold yields at every entry)

            async def reading() -> None:
                pass

            readers = []
            for _ in range(12):  # one after another, as the first one's fold goes on
                readers.append(asyncio.ensure_future(service.finished_view(TABLE, None, reading)))
                await asyncio.sleep(0)
            assert all(got is not None for got in await asyncio.gather(*readers))

    asyncio.run(go())


class Folds:
    """Counts the tables the service's cache is asked for (each one it does not hold, a fold of
    its log): ``count``."""

    def __init__(self, service: TableService) -> None:
        self.count = 0
        self._real = service.cache.get
        service.cache.get = self._counted  # type: ignore[method-assign]

    async def _counted(self, table_id: str):  # type: ignore[no-untyped-def]
        self.count += 1
        return await self._real(table_id)
