"""The matchmaker on the in-memory twins (the rules worker and the projection running): two
matchmakers, as two table-service processes, look at one queue at once and each player is
matched once, seated on its own seat as itself, at a table that starts; a table matched by a
matchmaker that stopped before opening it is finished by another."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest

from gcbc.clock import now_ms
from gcbc.eventlog.memory import MemoryEventLog
from gcbc.players.log import PlayerLog
from gcbc.queue.log import KEY, QueueLog
from gcbc.readmodel.port import PUBLIC
from gcbc_contract import commands as C
from gcbc_contract.options import TableOptions
from gcbc_contract.queue import JoinQueue, Matched, Queued, QueueLeft, decode_queue_entry
from services.common.settings import Settings
from services.table.identities import Identities
from services.table.matchmaker import Matchmaker
from services.table.problems import ApiError
from services.table.seats import not_starting
from services.table.service import TableService
from tests.unit.services.test_pipeline_on_twins import Folds, pipeline


async def _players(players: PlayerLog, n: int) -> list[str]:
    return [(await players.register(f"p{i}", bot=False))[0].player_id for i in range(n)]


def _queued(player_id: str, at: int, name: str, rated: bool = False) -> Queued:
    return Queued(
        player_id=player_id,
        name=name,
        bot=False,
        seats=(4,),
        options=TableOptions(),
        rated=rated,
        bots_after=None,
        at=at,
    )


async def _four_players(service: TableService) -> tuple[PlayerLog, list[str], Matchmaker]:
    """Four registered players, and a matchmaker of their queue."""
    player_events = MemoryEventLog()
    players = PlayerLog(player_events)
    return players, await _players(players, 4), _maker(player_events, service)


def _maker(player_events: MemoryEventLog, service: TableService) -> Matchmaker:
    return Matchmaker(
        QueueLog(player_events), service, Identities(PlayerLog(player_events)), Settings()
    )


async def _seated_everywhere(
    service: TableService, matched: list[Matched], rated: bool = False
) -> None:
    for m in matched:
        t = await service.table(m.table_id)
        for _ in range(100):
            if t.state.step != "lobby":
                break
            await asyncio.sleep(0.02)
            t = await service.table(m.table_id)
        assert t.state.step != "lobby" and t.state.rated is rated
        assert t.players == dict(zip(m.seats_of, m.players, strict=True))


@pytest.mark.parametrize("rated", [False, True])
def test_two_matchmakers_never_match_a_player_twice(rated):
    """... and the tables are rated as their players asked."""

    async def go():
        async with pipeline() as (events, _model, service, _clock):
            player_events = MemoryEventLog()
            players = PlayerLog(player_events)
            ids = await _players(players, 8)
            names = {p: (await players.player(p)).name for p in ids}
            log = QueueLog(player_events)
            seq = 0
            for i, p in enumerate(ids):
                seq = await log.append(_queued(p, i, names[p], rated), seq)
            makers = [
                Matchmaker(
                    QueueLog(player_events),
                    TableService(events, service.model),
                    Identities(PlayerLog(player_events)),
                    Settings(),
                )
                for _ in range(2)
            ]
            await asyncio.gather(*(m.match() for m in makers))
            entries = [decode_queue_entry(s.data) for s in await player_events.read(KEY)]
            matched = [e for e in entries if isinstance(e, Matched)]
            assert len(matched) == 2
            seated = [p for m in matched for p in m.players]
            assert sorted(seated) == sorted(ids)  # each once
            await _seated_everywhere(service, matched, rated)
            q = await QueueLog(player_events).current()
            assert q.waiting == {} and q.pending == {}

    asyncio.run(go())


def test_a_table_matched_and_never_opened_is_finished_by_the_next_look():
    async def go():
        async with pipeline() as (events, _model, service, _clock):
            player_events = MemoryEventLog()
            players = PlayerLog(player_events)
            ids = await _players(players, 4)
            log = QueueLog(player_events)
            seq = 0
            for i, p in enumerate(ids):
                seq = await log.append(_queued(p, i, f"p{i}"), seq)
            # a matchmaker recorded the table, then stopped before opening it
            stopped = Matched(
                table_id="00000000000000cd",
                seats=4,
                players=tuple(ids),
                seats_of=(0, 1, 2, 3),
                bots=(),
                at=0,
            )
            await log.append(stopped, seq)
            maker = _maker(player_events, service)
            await maker.match(finish_stale=True)
            await _seated_everywhere(service, [stopped])
            state = maker.state_of(await maker.queue.current(), ids[2])
            assert (state.status, state.table_id, state.seat) == ("seated", stopped.table_id, 2)

    asyncio.run(go())


def test_a_player_matched_or_waiting_may_not_join_again_nor_leave_and_is_told_why():
    """Between its match and its seat the player is waiting (GET /queue): joining again is
    already_queued (it would be matched twice), leaving is not_queued saying its seat comes."""

    async def go():
        async with pipeline() as (events, _model, service, _clock):
            player_events = MemoryEventLog()
            players = PlayerLog(player_events)
            ids = await _players(players, 5)
            log = QueueLog(player_events)
            seq = 0
            for i, p in enumerate(ids):
                seq = await log.append(_queued(p, i, f"p{i}"), seq)
            matched = Matched(
                table_id="00000000000000ce",
                seats=4,
                players=tuple(ids[:4]),
                seats_of=(0, 1, 2, 3),
                bots=(),
                at=0,
            )
            await log.append(matched, seq)  # recorded, its table not opened yet
            maker = _maker(player_events, service)
            first, last = await players.player(ids[0]), await players.player(ids[4])
            assert maker.state_of(await maker.queue.current(), ids[0]).status == "waiting"
            for p in (first, last):  # matched, and still waiting
                with pytest.raises(ApiError) as joined:
                    await maker.join(p, JoinQueue(seats=[4]))
                assert joined.value.code == "already_queued"
                with pytest.raises(ApiError) as seated:  # a seat elsewhere: two tables
                    await maker.not_queued(p.player_id)
                assert seated.value.code == "already_queued"
            with pytest.raises(ApiError) as left:
                await maker.leave(first)
            assert left.value.code == "not_queued" and "being opened" in left.value.detail
            await maker.leave(last)  # still waiting: out of the queue
            await maker.not_queued(last.player_id)  # and free to take a seat anywhere

    asyncio.run(go())


@pytest.mark.parametrize("wait", [0.0, 7200.0])
def test_a_place_waited_past_the_queue_wait_is_given_up_the_longest_first(wait):
    """A player who walked away is not seated at a table of players who came to play: past
    ``GCBC_QUEUE_WAIT`` unmatched its place is given up (0: never), the others stay."""

    async def go():
        async with pipeline() as (_events, _model, service, _clock):
            player_events = MemoryEventLog()
            players = PlayerLog(player_events)
            ids = await _players(players, 3)
            log = QueueLog(player_events)
            now = now_ms()
            seq = 0
            for p, at in zip(ids, (now - 7_300_000, now - 7_250_000, now - 7_100_000), strict=True):
                seq = await log.append(_queued(p, at, p), seq)
            maker = Matchmaker(
                QueueLog(player_events),
                service,
                Identities(PlayerLog(player_events)),
                Settings(queue_wait=wait),
            )
            await maker.lapse()
            q = await maker.queue.current()
            statuses = [maker.state_of(q, p).status for p in ids]
            left = [
                e
                for e in map(decode_queue_entry, (s.data for s in await player_events.read(KEY)))
                if isinstance(e, QueueLeft)
            ]
            if wait:
                assert statuses == ["none", "none", "waiting"]
                assert [e.player_id for e in left] == ids[:2]
            else:
                assert statuses == ["waiting"] * 3 and left == []

    asyncio.run(go())


def test_a_join_waits_for_no_look_and_a_table_not_started_yet_stays_to_be_started():
    async def go():
        async with pipeline() as (events, _model, service, _clock):
            players, ids, maker = await _four_players(service)
            async with maker._busy:  # a look opening tables: a join does not queue behind it
                for p in ids:
                    got = await asyncio.wait_for(
                        maker.join(await players.player(p), JoinQueue(seats=[4])), 2
                    )
                    assert got.status == "waiting"
            real, tries = maker._start, []

            async def slow_start(m: Matched) -> bool:
                tries.append(m.table_id)
                return False if len(tries) == 1 else await real(m)  # a seat answered late

            maker._start = slow_start  # type: ignore[method-assign]
            await maker.match()
            q = await maker.queue.current()
            (table_id,) = q.pending  # not recorded seated: it did not start
            await maker.match(finish_stale=True)  # (not stale yet)
            assert tries == [table_id]
            stale = {t: (m, a, at - 10_000) for t, (m, a, at) in q.pending.items()}
            maker.queue.current = _returning(q, stale)  # type: ignore[method-assign]
            await maker.match(finish_stale=True)
            assert tries == [table_id, table_id]
            await _seated_everywhere(service, [q.pending[table_id][0]])  # and started

    asyncio.run(go())


def test_a_matched_table_closed_before_its_start_lets_its_players_go():
    """Before: a table the queue matched whose lobby closed before it started (a seat left
    empty: its player left it) was looked at again for ever, each look refused, and its players stayed "matched":
    they could neither leave the queue, nor join it again, nor take a seat anywhere as
    players. The next look finds it closed and records it, and its players are free."""

    async def go():
        async with pipeline() as (events, _model, service, _clock):
            players, ids, maker = await _four_players(service)

            async def never(m: Matched) -> bool:  # a seat stayed empty: no start
                return False

            maker._start = never  # type: ignore[method-assign]
            for p in ids:
                await maker.join(await players.player(p), JoinQueue(seats=[4]))
            await maker.match()
            q = await maker.queue.current()
            (table_id,) = q.pending
            assert await maker.starting(table_id)
            with pytest.raises(ApiError) as refused:  # its players may not leave it now
                await not_starting(SimpleNamespace(matchmaker=maker), table_id)
            assert (refused.value.status, refused.value.code) == (409, "table_starting")
            left = q.pending[table_id][0].seats_of[1]  # (as one could before it was refused)
            await service.append_command(table_id, C.LeaveSeat(seat=left))
            await service.append_command(table_id, C.CloseTable())  # its lobby's time over
            for _ in range(100):
                if (await service.table(table_id)).state.step == "finished":
                    break
                await asyncio.sleep(0.02)
            del maker._start  # the real one again
            stale = {t: (m, a, at - 10_000) for t, (m, a, at) in q.pending.items()}
            maker.queue.current = _returning(q, stale)  # type: ignore[method-assign]
            await maker.match(finish_stale=True)
            del maker.queue.current
            q = await maker.queue.current()
            assert not q.pending and not await maker.starting(table_id)
            await not_starting(SimpleNamespace(matchmaker=maker), table_id)
            for p in ids:
                await maker.not_queued(p)  # free to take a seat, or to join again
            await maker.join(await players.player(ids[0]), JoinQueue(seats=[4]))

    asyncio.run(go())


def _returning(q, pending):
    """The queue as read, its tables matched long ago."""

    async def current():
        q.pending = pending
        return q

    return current


def test_a_player_playing_is_found_from_the_public_views_and_no_log_is_folded():
    """Before: every join folded the player's latest 20 tables from the log, a table this
    process no longer held a whole read (and a player already queued paid for them too). Now
    the public views say where it sits; a join of a player already queued looks at nothing."""

    async def go():
        async with pipeline() as (_events, _model, service, _clock):
            player_events = MemoryEventLog()
            players = PlayerLog(player_events)
            (pid,) = await _players(players, 1)
            p = await players.player(pid)
            for i in range(3):  # two tables it left in the lobby, then one it sits at
                table_id = f"00000000000000f{i}"
                seq = await service.append_command(
                    table_id, C.OpenTable(table_id=table_id, seats=4), new_table=True
                )
                seq = await service.append_command(
                    table_id, C.TakeSeat(name="me"), token_hash_="h", player=pid
                )
                if i < 2:
                    seq = await service.append_command(table_id, C.LeaveSeat(seat=0))
                assert await service.answered(table_id, PUBLIC, seq, 5)
                await players.joined(p, table_id)
                p = await players.player(pid)
                service.cache.drop(table_id)  # (a process that does not hold them)
            folds = Folds(service)
            maker = Matchmaker(QueueLog(player_events), service, Identities(players), Settings())
            with pytest.raises(ApiError) as playing:
                await maker.join(p, JoinQueue(seats=[4]))
            assert playing.value.code == "already_playing" and "00000000000000f2" in str(
                playing.value.detail
            )
            assert folds.count == 0

    asyncio.run(go())


def test_long_polls_of_places_wake_on_a_change_without_reading_the_queue_each():
    """Before: each long-poll of a place read the queue's log itself at every change and every
    second (950 waiting: 60-120 ms of the event loop per change). Now the look that finds the
    change (the matchmaker's, each TICK, in every process) wakes them, and they read nothing."""

    class Counted(MemoryEventLog):
        reads = 0

        async def read(self, *args, **kwargs):  # noqa: ANN002, ANN003, ANN201
            Counted.reads += 1
            return await super().read(*args, **kwargs)

    async def go():
        events = Counted()
        other = QueueLog(events)  # another process's
        seq = await other.append(_queued("a", 1, "a"), 0)
        maker = Matchmaker(QueueLog(events), None, None, Settings())  # type: ignore[arg-type]
        first = await maker.state("a", None, 0)
        assert first.status == "waiting"
        waiters = [asyncio.ensure_future(maker.state("a", first.version, 5.0)) for _ in range(100)]
        await asyncio.sleep(0.05)
        before = Counted.reads
        await other.append(QueueLeft(player_id="a", at=2), seq)  # another process's change
        await maker._current()  # noqa: SLF001  (the look the matchmaker makes each TICK)
        answers = await asyncio.gather(*waiters)
        assert {a.status for a in answers} == {"none"}
        assert Counted.reads - before == 1  # the look's read alone

    asyncio.run(go())
