"""The bot worker learns of house tables from their notes (services.common.house_tables), which
the table service writes before a table's opening; a log from before the notes is scanned once,
decoding only tables' opening commands: the marker it looks for is where the encoder puts it,
whatever the options, and nothing else carries it."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any, ClassVar

import pytest

from gcbc.eventlog.memory import MemoryEventLog
from gcbc.eventlog.port import Stored
from gcbc.keyvalue.memory import MemoryKeyValue
from gcbc.readmodel.memory import MemoryReadModel
from gcbc_contract import commands as C
from gcbc_contract.entries import CommandEntry, OutcomeEntry, RefusalEntry, encode_entry
from gcbc_contract.options import Deadlines, HouseBots, TableOptions
from services.bots import worker as module
from services.bots.worker import OPENING, BotWorker, HouseSeat, retry_pause
from services.common import house_tables
from services.table.problems import ApiError
from services.table.service import TableService

TABLE = "00000000000000ab"


def opening(**more: object) -> bytes:
    command = C.OpenTable(table_id=TABLE, seats=8, **more)  # type: ignore[arg-type]
    return encode_entry(CommandEntry(command=command, token_hash="f" * 64, at=10**13))


def test_the_opening_command_carries_the_marker_near_its_start_whatever_its_options() -> None:
    options = TableOptions(edition="classic", zombies=True, extra_equipment=True)
    for data in (
        opening(),
        opening(bots=HouseBots(seats=[1, 2, 3], kind="heuristic")),
        opening(options=options, deadlines=Deadlines(), bots=HouseBots(seats=[0], kind="random")),
    ):
        assert OPENING in data[:128]


class Worker(BotWorker):
    """The worker without an API: which tables' bots it starts."""

    def __init__(self, events: MemoryEventLog, house: MemoryKeyValue, grace: float = 30) -> None:
        super().__init__(events, MemoryReadModel(), None, "secret", house, grace)  # type: ignore[arg-type]
        self.started: list[tuple] = []

    async def play_table(self, table, bots, seats, owner=""):  # noqa: ANN001, ANN202
        self.started.append((table, bots, seats))
        await asyncio.Event().wait()  # playing until the worker stops


def test_answers_and_other_commands_are_not_decoded() -> None:
    others = [
        encode_entry(CommandEntry(command=C.TakeSeat(name="Ann"), at=1, prev=1)),
        encode_entry(RefusalEntry(answers=2, code="table_full", message="full", prev=2)),
        encode_entry(OutcomeEntry(answers=2, events=[], prev=3)),
    ]
    for data in others:
        assert OPENING not in data[:128]
    # a name that looks like it is decoded, then found not to open a table: only time is lost
    others.append(encode_entry(CommandEntry(command=C.TakeSeat(name="open_table"), at=1, prev=4)))

    async def go() -> None:
        house = MemoryKeyValue()
        worker = Worker(MemoryEventLog(), house)
        for n, data in enumerate(others, 2):
            await worker.found(Stored(seq=n, table=TABLE, data=data))
        await worker.found(Stored(seq=1, table=TABLE, data=opening()))  # no house seats
        assert house.values == {}
        bots = HouseBots(seats=(1, 2), kind="random")
        await worker.found(Stored(seq=9, table=TABLE, data=opening(bots=bots)))
        assert house_tables.decode(house.values[TABLE]) == house_tables.HouseTable(bots, 8)

    asyncio.run(go())


def test_a_noted_table_starts_its_bots_once_and_a_log_from_before_the_notes_is_scanned_once() -> (
    None
):
    bots = HouseBots(seats=(0, 3), kind="heuristic")
    old = "00000000000000cd"

    async def go() -> None:
        events, house = MemoryEventLog(), MemoryKeyValue()
        # a log from before the notes: one house table, one without house seats
        await events.append(old, opening(bots=bots), expected=0)
        await events.append(TABLE, opening(), expected=0)
        worker = Worker(events, house)
        stop = asyncio.Event()
        running = asyncio.create_task(worker.run(stop))
        for _ in range(100):
            await asyncio.sleep(0)
        assert worker.built and house.values[house_tables.BUILT] == b"1"
        assert worker.started == [(old, bots, 8)]
        # a table noted since (by the table service): started once, however often noted again
        new = "00000000000000ef"
        for _ in range(2):
            await house.put(new, house_tables.encode(house_tables.HouseTable(bots, 5)))
            await asyncio.sleep(0.01)
        assert worker.started == [(old, bots, 8), (new, bots, 5)]
        stop.set()
        await running

        # a restart: the notes tell the tables in play; the log is not scanned again
        events.scan = None  # type: ignore[assignment,method-assign]
        again = Worker(events, house)
        stop = asyncio.Event()
        running = asyncio.create_task(again.run(stop))
        await asyncio.sleep(0.01)
        assert sorted(again.started) == sorted([(old, bots, 8), (new, bots, 5)])
        stop.set()
        await running

    asyncio.run(go())


def test_a_note_whose_table_never_opened_goes_and_one_whose_table_opens_late_stays() -> None:
    bots = HouseBots(seats=(1,), kind="random")

    async def go() -> None:
        events, house = MemoryEventLog(), MemoryKeyValue()
        worker = BotWorker(events, MemoryReadModel(), None, "secret", house, grace=0.05)  # type: ignore[arg-type]
        await house.put(TABLE, house_tables.encode(house_tables.HouseTable(bots, 4)))
        await worker.play_table(TABLE, bots, 4)  # the opening refused, or lost: nothing to play
        assert TABLE not in house.values
        # the opening appended a moment after its note: the table is played (its view awaited)
        late = BotWorker(events, MemoryReadModel(), None, "secret", house, grace=5)  # type: ignore[arg-type]
        playing = asyncio.create_task(late.play_table(TABLE, bots, 4))
        await asyncio.sleep(0.1)
        await events.append(TABLE, opening(bots=bots), expected=0)
        await asyncio.sleep(0.7)
        assert not playing.done()  # past the log check: waiting for the table's first view
        playing.cancel()

    asyncio.run(go())


def test_the_table_service_notes_a_house_table_before_its_opening_and_only_then() -> None:
    bots = HouseBots(seats=(2,), kind="random")

    async def go() -> None:
        events, house = MemoryEventLog(), MemoryKeyValue()
        service = TableService(events, MemoryReadModel(), bot_secret="secret", house=house)
        appended: list[bool] = []
        append = events.append

        async def watched(table, data, expected, msg_id=None, answer=False):  # noqa: ANN001, ANN202
            appended.append(table in house.values)  # noted by then
            return await append(table, data, expected, msg_id, answer)

        events.append = watched  # type: ignore[method-assign]
        await service.append_command(
            TABLE, C.OpenTable(table_id=TABLE, seats=4, bots=bots), new_table=True
        )
        assert appended == [True]
        assert house_tables.decode(house.values[TABLE]) == house_tables.HouseTable(bots, 4)
        # a table without house seats, and a refused opening (a table that exists): no note
        plain = "00000000000000cd"
        await service.append_command(plain, C.OpenTable(table_id=plain, seats=4), new_table=True)
        with pytest.raises(ApiError):
            await service.append_command(
                TABLE, C.OpenTable(table_id=TABLE, seats=4, bots=bots), new_table=True
            )
        assert sorted(house.values) == [TABLE]
        assert house.puts == 1

    asyncio.run(go())


class SeatInPlay:
    """A house seat whose view shows its table in play."""

    def __init__(self, n: int) -> None:
        self.seat = n

    async def view(self, after=None, timeout=0):  # noqa: ANN001, ANN202
        return SimpleNamespace(status="playing", version=1)


def _play_table_for(
    monkeypatch, bots: HouseBots, seat: type, seconds: float, house: MemoryKeyValue | None = None
) -> None:
    """The worker plays TABLE's house seats (each a ``seat(n)``) for ``seconds``, a failure
    looked at again after a pause drawn below RETRY = 0.01 s (doubling), then is stopped."""
    monkeypatch.setattr(module, "RETRY", 0.01)

    async def go() -> None:
        events = MemoryEventLog()
        await events.append(TABLE, opening(bots=bots), expected=0)
        store = house if house is not None else MemoryKeyValue()
        worker = BotWorker(events, MemoryReadModel(), None, "secret", store)  # type: ignore[arg-type]
        monkeypatch.setattr(worker, "seat", lambda table, n: seat(n))
        playing = asyncio.create_task(worker.play_table(TABLE, bots, 4))
        await asyncio.sleep(seconds)
        playing.cancel()
        with pytest.raises(asyncio.CancelledError):
            await playing

    asyncio.run(go())


def test_one_house_seat_failing_stops_its_table_mates_before_they_all_play_again(
    monkeypatch,
) -> None:
    """Each seat of a table is played once at a time: a seat failing (the API away, a view too
    stale) stops the others before the table is looked at again."""

    bots = HouseBots(seats=(1, 2), kind="random")
    running: dict[int, int] = {1: 0, 2: 0}
    most: dict[int, int] = {1: 0, 2: 0}
    started: list[int] = []

    async def play_seat(seat, kind, seed, pace) -> None:
        started.append(seat.seat)
        running[seat.seat] += 1
        most[seat.seat] = max(most[seat.seat], running[seat.seat])
        try:
            if seat.seat == 1 and started.count(1) == 1:
                await asyncio.sleep(0.01)
                raise RuntimeError("a view too stale")
            await asyncio.sleep(3600)
        finally:
            running[seat.seat] -= 1

    monkeypatch.setattr(module, "play_seat", play_seat)
    _play_table_for(monkeypatch, bots, SeatInPlay, 0.3)
    assert sorted(started) == [1, 1, 2, 2]  # played again together, once
    assert most == {1: 1, 2: 1}  # never twice at once


def test_a_retry_waits_a_pause_drawn_below_a_doubling_ceiling_and_after_retry_after() -> None:
    third = [retry_pause(3) for _ in range(200)]
    assert all(0 <= p < 4 * module.RETRY for p in third)
    assert len(set(third)) > 150  # drawn: tables that failed together come back apart
    assert max(third) > 2 * module.RETRY  # the ceiling doubled
    assert max(retry_pause(40) for _ in range(200)) <= module.RETRY_MAX
    assert min(retry_pause(1, 5.0) for _ in range(50)) >= 5.0


def test_a_table_whose_bots_keep_failing_is_tried_again_less_and_less_often(monkeypatch) -> None:
    """A failure that never heals (the API refusing the house's tokens, a secret that differs)
    costs the server fewer and fewer requests, not one every RETRY seconds for ever."""
    bots = HouseBots(seats=(1, 2), kind="random")
    looks: list[float] = []

    class Seat:
        def __init__(self, n: int) -> None:
            self.seat = n

        async def view(self, after=None, timeout=0):  # noqa: ANN001, ANN202
            looks.append(asyncio.get_running_loop().time())
            raise RuntimeError("401 bad_token")

    _play_table_for(monkeypatch, bots, Seat, 1.5)
    assert 3 <= len(looks) <= 20  # a fixed pause of RETRY would have looked about 150 times


def test_a_house_seat_whose_view_is_missing_looks_less_often_then_gives_up(monkeypatch) -> None:
    """A view not in the read model (a table the projection cannot render, a read model being
    rebuilt) is looked for with a growing pause, then reported: the table is looked at again."""
    monkeypatch.setattr(module, "NO_VIEW_FOR", 1.0)

    class Model:
        reads = 0

        async def wait(self, *args, **kwargs):  # noqa: ANN002, ANN003, ANN202
            self.reads += 1

        async def seated(self, tables):  # noqa: ANN001, ANN202  (opened, not projected: none)
            return [None for _ in tables]

    model = Model()
    seat = HouseSeat(model, type("Api", (), {"seat": 1, "table_id": TABLE})())  # type: ignore[arg-type]

    async def go() -> None:
        with pytest.raises(LookupError):
            await asyncio.wait_for(seat.view(), 5)

    asyncio.run(go())
    assert model.reads <= 10  # a fixed tenth of a second: ten reads a second, for ever


def test_one_bot_worker_plays_at_a_time_and_another_takes_over_once_it_stops() -> None:
    """Two bot workers would act for the same house seats at once (each one's commands made on
    views the other's made stale): the house's lease lets one play; once it stops, another
    process takes over with a new worker."""
    from gcbc.eventlog.leases import MemoryLeases
    from services.bots.worker import play_alone

    class Worker:
        playing: ClassVar[list[str]] = []

        def __init__(self, name: str) -> None:
            self.name = name

        async def run(self, stop: asyncio.Event) -> None:
            Worker.playing.append(self.name)
            try:
                await stop.wait()
            finally:
                Worker.playing.remove(self.name)

    async def go() -> None:
        leases = MemoryLeases(ttl=0.3)
        made: list[str] = []

        def make(name: str) -> Any:
            def made_one() -> Worker:
                made.append(name)
                return Worker(name)

            return made_one

        stops = {name: asyncio.Event() for name in ("a", "b")}
        running = {
            name: asyncio.create_task(play_alone(make(name), stops[name], leases, name))
            for name in stops
        }
        for _ in range(100):
            await asyncio.sleep(0.02)
            assert len(Worker.playing) <= 1
        assert len(Worker.playing) == 1 and made == Worker.playing
        first = Worker.playing[0]
        other = "b" if first == "a" else "a"
        stops[first].set()
        await running[first]
        for _ in range(200):
            if Worker.playing == [other]:
                break
            await asyncio.sleep(0.02)
        assert Worker.playing == [other] and made == [first, other]
        stops[other].set()
        await running[other]
        assert Worker.playing == []

    asyncio.run(go())


def test_a_table_over_in_its_log_whose_views_stay_behind_loses_its_note(monkeypatch) -> None:
    """A house seat whose stored view is stale for good (a write the read model lost) fails
    again and again: after a few failures in a row the worker reads the table's log, and a
    table over there is left (its note goes), not tried for ever."""
    from tools import tablelogs

    monkeypatch.setattr(module, "RETRY", 0.01)
    bots = HouseBots(seats=(1, 2), kind="random")
    failed: list[int] = []

    async def play_seat(seat, kind, seed, pace) -> None:  # noqa: ANN001
        failed.append(seat.seat)
        raise RuntimeError("200 refusals in a row")

    class Seat:
        def __init__(self, n: int) -> None:
            self.seat = n

        async def view(self, after=None, timeout=0):  # noqa: ANN001, ANN202
            return type("V", (), {"status": "playing", "version": 1})()

    monkeypatch.setattr(module, "play_seat", play_seat)

    async def go() -> bool:
        events, house = MemoryEventLog(), MemoryKeyValue()
        await tablelogs.write_table(events, tablelogs.play(TABLE, 4, 1), TABLE)
        await house.put(TABLE, b"noted")
        worker = BotWorker(events, MemoryReadModel(), None, "secret", house)  # type: ignore[arg-type]
        monkeypatch.setattr(worker, "seat", lambda table, n: Seat(n))
        await asyncio.wait_for(worker.play_table(TABLE, bots, 4), 10)
        return await house.get(TABLE) is None

    assert asyncio.run(go())  # left, its note gone
    assert module.OVER_AFTER <= len(failed) <= 2 * module.OVER_AFTER  # till the log was read


def test_a_house_seat_of_a_finished_table_whose_views_expired_asks_the_api_for_its_view():
    """A bot worker down longer than finished views are kept (or reading an old log) finds no
    view of a finished house table: its seated record says it is over, and the table service
    makes its view from the log."""

    class Model:
        async def wait(self, *args, **kwargs):  # noqa: ANN002, ANN003, ANN202
            return None

        async def seated(self, tables):  # noqa: ANN001, ANN202
            return [b"{}" for _ in tables]

    class Api:
        seat, table_id = 1, TABLE

        async def view(self):  # noqa: ANN202
            return "the view the table service made"

    seat = HouseSeat(Model(), Api())  # type: ignore[arg-type]
    assert asyncio.run(asyncio.wait_for(seat.view(), 2)) == "the view the table service made"


def test_the_table_service_marks_a_house_tables_note_started_with_its_start() -> None:
    """The house's seats count against its cap from a table's start (``InPlay`` counts started
    notes): a table waiting for players holds none, and its start marks its note."""
    from services.rules.service import run
    from services.rules.worker import RulesWorker

    bots = HouseBots(seats=(2,), kind="random")

    async def go() -> None:
        events, house = MemoryEventLog(), MemoryKeyValue()
        stop = asyncio.Event()
        rules = asyncio.create_task(run(RulesWorker(events), stop))
        service = TableService(events, MemoryReadModel(), bot_secret="secret", house=house)
        follower = await service.follow()
        try:
            opening = C.OpenTable(table_id=TABLE, seats=4, bots=bots)
            await service.append_command(TABLE, opening, new_table=True)
            for n in range(3):
                await service.append_command(
                    TABLE, C.TakeSeat(name=f"p{n}"), token_hash_=f"{n}" * 64
                )
            assert not house_tables.decode(house.values[TABLE]).started  # waiting: holds none
            await service.append_command(TABLE, C.StartGame(seat=0, random_seed=7))
            noted = house_tables.decode(house.values[TABLE])
            assert noted == house_tables.marked_started(house_tables.HouseTable(bots, 4))
        finally:
            stop.set()
            await rules
            await follower.close()

    asyncio.run(go())


def test_the_worker_marks_a_note_started_once_it_sees_its_table_playing(monkeypatch) -> None:
    """A note written again from the log (``build``: the house's store lost) is not marked
    started; the worker marks it once it finds the table in play, so its seats count."""

    bots = HouseBots(seats=(1, 2), kind="random")
    house = MemoryKeyValue()
    asyncio.run(house.put(TABLE, house_tables.encode(house_tables.HouseTable(bots, 4))))

    async def play_seat(seat, kind, seed, pace) -> None:
        await asyncio.sleep(3600)

    monkeypatch.setattr(module, "play_seat", play_seat)
    _play_table_for(monkeypatch, bots, SeatInPlay, 0.2, house)
    noted = house_tables.decode(house.values[TABLE])
    assert noted == house_tables.marked_started(house_tables.HouseTable(bots, 4))
