"""One contract for every read model adapter: the in-memory twin and Redis behave alike
(DESIGN property 1 and 4: atomic updates stamped with a position; redelivery is harmless)."""

from __future__ import annotations

import asyncio
import time
import uuid

import pytest

from gcbc.readmodel.memory import MemoryReadModel
from gcbc.readmodel.port import ROSTER, Put, Replacement
from gcbc.readmodel.redis import RedisReadModel
from gcbc.readmodel.rediscluster import RedisClusterReadModel


@pytest.fixture(params=["memory", "redis", "redis-cluster"])
def model_factory(request):
    def make(finished_ttl=None):
        if request.param == "memory":
            return MemoryReadModel(finished_ttl)
        if request.param == "redis-cluster":
            # a cluster of this session's own (one database only: nobody else's keys there)
            url = request.getfixturevalue("redis_cluster").url
            return RedisReadModel.connect(url, finished_ttl=finished_ttl)
        # a database of its own: the services' read model (db 0) never sees these test keys
        redis_url = request.getfixturevalue("redis_url")
        return RedisReadModel.connect(
            redis_url.rsplit("/", 1)[0] + "/15", finished_ttl=finished_ttl
        )

    return make


async def wiped(m):
    """The model emptied (the Redis ones hold only this suite's keys), as a fresh one is."""
    if isinstance(m, RedisClusterReadModel):
        await m.redis.flushdb(target_nodes=m.redis.PRIMARIES)
    elif isinstance(m, RedisReadModel):
        await m.redis.flushdb()
    return m


def run(coro):
    return asyncio.run(coro)


def test_views_are_written_together_with_their_position(model_factory):
    async def go():
        m = model_factory()
        t = uuid.uuid4().hex
        assert await m.get(t, "public") is None
        assert await m.position(t) == 0
        assert await m.put(t, {"public": b"p1", "seat:0": b"s1"}, 5)
        assert await m.get(t, "public") == (5, b"p1")
        assert await m.get(t, "seat:0") == (5, b"s1")
        assert await m.get(t, "seat:1") is None

    run(go())


def test_an_older_or_equal_position_is_skipped(model_factory):
    async def go():
        m = model_factory()
        t = uuid.uuid4().hex
        await m.put(t, {"public": b"new"}, 9)
        assert not await m.put(t, {"public": b"old"}, 9)
        assert not await m.put(t, {"public": b"older"}, 3)
        assert await m.get(t, "public") == (9, b"new")
        assert await m.put(t, {"public": b"newer", "seat:2": b"x"}, 10)
        assert await m.get(t, "seat:2") == (10, b"x")

    run(go())


def test_several_tables_put_at_once_each_guarded_by_its_own_position(model_factory):
    async def go():
        m = model_factory()
        t, u = uuid.uuid4().hex, uuid.uuid4().hex
        await m.put(u, {"public": b"u9"}, 9)
        written = await m.put_many(
            [
                Put(Replacement(t, {"public": b"t4", "seat:0": b"s4"}, 4, status="lobby")),
                Put(Replacement(u, {"public": b"u8"}, 8), ["public"]),  # older: skipped
            ]
        )
        assert written == [True, False]
        assert await m.get(t, "seat:0") == (4, b"s4")
        assert await m.get(u, "public") == (9, b"u9")
        assert await m.put_many([]) == []

    run(go())


def test_a_put_of_the_changed_views_goes_over_the_writers_own_put_only(model_factory):
    async def go():
        m = await wiped(model_factory())
        t = uuid.uuid4().hex
        views = {"public": b"p4", "seat:0": b"a4", "seat:1": b"b4"}
        assert (await m.put_many([Put(Replacement(t, views, 4, status="playing"))])) == [True]
        # seat 0 passed: its view alone changed, the others stay as written at 4
        mine = Replacement(t, {"seat:0": b"a6"}, 6, answers={"seat:0": b"[6]"})
        assert await m.put_many([Put(mine, ["seat:0"], base=4)]) == [True]
        assert await m.get(t, "seat:0") == (6, b"a6")
        assert await m.get(t, "seat:1") == (6, b"b4")
        assert await m.get(t, "public") == (6, b"p4")
        held = (await m.snapshots([t]))[0]
        assert held.fields["answers:seat:0"] == b"[6]" and held.status == "playing"
        # seat 1's command refused: its answers alone are sent, no view
        refused = Replacement(t, {}, 7, answers={"seat:1": b"[7]"})
        assert await m.put_many([Put(refused, [], base=6)]) == [True]
        held = (await m.snapshots([t]))[0]
        assert held.position == 7 and held.fields["answers:seat:0"] == b"[6]"
        assert held.fields["answers:seat:1"] == b"[7]" and held.fields["seat:0"] == b"a6"
        # not over the writer's own put (it wrote 7, not 5; or the model was wiped): refused,
        # nothing written, and the writer sends every view
        assert await m.put_many([Put(Replacement(t, {"seat:1": b"b9"}, 9), None, base=5)]) == [
            False
        ]
        assert await m.get(t, "seat:1") == (7, b"b4")
        assert await m.put_many([Put(Replacement(t, {"seat:1": b"b7"}, 7), None, base=7)]) == [
            False
        ]  # not newer
        await m.delete(t)  # as a wiped model holds it
        assert await m.put_many([Put(Replacement(t, {"seat:1": b"b9"}, 9), None, base=7)]) == [
            False
        ]
        assert await m.get(t, "seat:1") is None and await m.position(t) == 0

    run(go())


def test_delete_then_rebuild(model_factory):
    async def go():
        m = model_factory()
        t = uuid.uuid4().hex
        await m.put(t, {"public": b"a"}, 4)
        await m.delete(t)
        assert await m.get(t, "public") is None
        assert await m.put(t, {"public": b"a"}, 4)

    run(go())


def test_the_lobby_listing_moves_with_the_views(model_factory):
    async def go():
        m = model_factory()
        t = uuid.uuid4().hex
        await m.put(t, {"public": b"a"}, 3, listing=b'{"table_id": "x"}')
        assert b'{"table_id": "x"}' in (await m.open_tables()).listings
        assert not await m.put(t, {"public": b"old"}, 2, listing=b'{"stale": 1}')
        assert b'{"stale": 1}' not in (await m.open_tables()).listings  # a redelivery: nothing
        await m.put(t, {"public": b"b"}, 5, listing=None)
        assert b'{"table_id": "x"}' not in (await m.open_tables()).listings

    run(go())


@pytest.mark.parametrize("hostile", ["*", "a.b", "a b", "a\x01b", "", "x>"])
def test_an_id_that_could_reach_other_keys_is_refused(model_factory, hostile):
    """DESIGN property 3: ids are checked, never passed raw into keys or channels."""
    from gcbc_contract.ids import InvalidTableId

    async def go():
        model = model_factory()
        for call in (
            lambda: model.get(hostile, "public"),
            lambda: model.position(hostile),
            lambda: model.delete(hostile),
            lambda: model.put(hostile, {"public": b"{}"}, 1),
        ):
            with pytest.raises(InvalidTableId):
                await call()

    run(go())


def test_the_lobby_is_listed_in_pages_oldest_first(model_factory):
    """GET /tables is paginated: a cursor walks the lobby in the order tables were listed, a
    table listed again (a seat taken) keeps its place, and one that leaves the lobby is gone."""

    async def go():
        m = await wiped(model_factory())
        tables = [uuid.uuid4().hex for _ in range(7)]
        for i, t in enumerate(tables):
            await m.put(t, {"public": b"v"}, 10 + i, listing=t.encode())
        await m.put(tables[1], {"public": b"v"}, 30, listing=tables[1].encode() + b"+")
        await m.put(tables[2], {"public": b"v"}, 31, listing=None)
        seen, after, pages = [], 0, 0
        while True:
            page = await m.open_tables(limit=2, after=after)
            seen += page.listings
            pages += 1
            if page.next is None:
                break
            after = page.next
        expected = [t.encode() for t in tables]
        expected[1] += b"+"
        del expected[2]
        assert seen == expected and pages == 3

    run(go())


def _view(version: int) -> bytes:
    return b'{"version":%d}' % version


def test_a_waiter_gets_the_view_once_it_reflects_a_position_or_a_newer_version(model_factory):
    """wait(): for a position (a command's answer) or a version over the one a client has (a
    long-poll); the current view when the time runs out; the viewer's recent answers with it."""
    from gcbc.readmodel.port import Answer, encode_answers

    async def go():
        m = model_factory()
        t = uuid.uuid4().hex
        await m.put(t, {"public": _view(1), "seat:0": _view(1)}, 5)
        got = await m.wait(t, "seat:0", timeout=0)
        assert (got.position, got.data) == (5, _view(1))
        by_position = asyncio.create_task(m.wait(t, "seat:0", position=7, timeout=10))
        by_version = asyncio.create_task(m.wait(t, "public", after=1, timeout=10))
        await asyncio.sleep(0.3)
        assert not by_position.done() and not by_version.done()
        answers = {"seat:0": encode_answers([Answer(6, 7, "no_gun", "you hold no gun")])}
        await m.put(t, {"public": _view(1), "seat:0": _view(1)}, 7, changed=[], answers=answers)
        got = await asyncio.wait_for(by_position, 10)
        assert got.position == 7 and got.answer(6) == Answer(6, 7, "no_gun", "you hold no gun")
        assert got.answer(5) is None
        assert not by_version.done()  # the public view did not change
        await m.put(t, {"public": _view(2), "seat:0": _view(2)}, 9, changed=["public", "seat:0"])
        got = await asyncio.wait_for(by_version, 10)
        assert got.data == _view(2)
        late = await m.wait(t, "public", after=2, timeout=0.2)
        assert late.data == _view(2)  # the current one when the time runs out
        assert await m.wait(uuid.uuid4().hex, "public", timeout=0) is None
        await m.close()

    run(go())


def test_an_epoch_is_claimed_once(model_factory):
    async def go():
        m = await wiped(model_factory())
        assert await m.claim_epoch()
        assert not await m.claim_epoch()
        await m.close()

    run(go())


def test_an_epoch_claimed_for_a_time_lapses_unless_kept_and_is_kept_for_good(model_factory):
    """A re-projection claims the wiped read model for a while and renews its claim; one that
    stops lets it lapse (claimed again, done again); one done makes it for good."""

    async def go():
        m = await wiped(model_factory())
        assert await m.claim_epoch(0.3)
        assert not await m.claim_epoch(0.3)
        await m.keep_epoch(0.3)
        await asyncio.sleep(0.5)  # not renewed: lapsed
        assert await m.claim_epoch(0.3)
        await m.keep_epoch(None)
        await asyncio.sleep(0.5)
        assert not await m.claim_epoch(0.3)  # for good
        assert (await m.status()).epoch is not None
        await m.close()

    run(go())


def test_replace_writes_whatever_the_position_unless_newer_and_never_leaves_a_gap(model_factory):
    """A rebuild's write: one atomic step per table (no moment without a view), at the same
    position too (an engine change re-renders the views), never over a newer live write unless
    forced (a read model ahead of its log), with the listing and the status index."""
    from gcbc.readmodel.port import Replacement

    async def go():
        m = model_factory()
        t, u = uuid.uuid4().hex, uuid.uuid4().hex
        await m.put(t, {"public": _view(1), "seat:0": _view(1)}, 5, status="lobby", listing=b"L")
        waiter = asyncio.create_task(m.wait(t, "public", after=1, timeout=10))
        await asyncio.sleep(0.2)
        done = await m.replace(
            [
                Replacement(t, {"public": _view(2)}, 5, None, {"public": b"[]"}, "playing"),
                Replacement(u, {"public": _view(1)}, 3, b"U", None, "lobby"),
            ]
        )
        assert done == [True, True]
        assert (await asyncio.wait_for(waiter, 10)).data == _view(2)  # its watchers are woken
        assert await m.get(t, "seat:0") is None  # every field replaced
        snap_t, snap_u, none = await m.snapshots([t, u, uuid.uuid4().hex])
        assert snap_t.position == 5 and snap_t.fields == {
            "public": _view(2),
            "answers:public": b"[]",
        }
        assert snap_t.listing is None and snap_t.status == "playing"
        assert snap_u.listing == b"U" and snap_u.status == "lobby" and none is None
        assert await m.put(t, {"public": _view(3)}, 9)  # the live projection moves on …
        assert await m.replace([Replacement(t, {"public": _view(2)}, 5)]) == [False]  # kept
        assert (await m.get(t, "public")) == (9, _view(3))
        assert await m.replace([Replacement(t, {"public": _view(2)}, 5)], force=True) == [True]
        assert (await m.get(t, "public")) == (5, _view(2))
        names = [x async for x in m.tables()]
        assert t in names and u in names
        await m.close()

    run(go())


def test_status_tells_the_epoch_the_newest_position_and_tables_per_status(model_factory):
    async def go():
        m = await wiped(model_factory())
        assert (await m.status()) == (None, 0, {})
        a, b, c = (uuid.uuid4().hex for _ in range(3))
        await m.put(a, {"public": b"v"}, 3, status="lobby")
        await m.put(b, {"public": b"v"}, 7, status="lobby")
        await m.put(c, {"public": b"v"}, 5, status="playing")
        await m.put(b, {"public": b"v"}, 8, status="playing")
        await m.put(c, {"public": b"v"}, 6, status="finished")
        await m.claim_epoch()
        status = await m.status()
        assert status.epoch is not None and abs(status.epoch - time.time()) < 60
        assert status.position == 8 and status.tables == {"lobby": 1, "playing": 1, "finished": 1}
        await m.delete(a)
        assert (await m.status()).tables == {"playing": 1, "finished": 1}
        assert await m.snapshots([a]) == [None]
        await m.ping()
        await m.close()

    run(go())


def test_a_finished_tables_views_expire_and_its_seated_record_stays(model_factory):
    async def go():
        m = model_factory(finished_ttl=0.4)
        playing, done, closed = (uuid.uuid4().hex for _ in range(3))
        record = b'{"p1":0,"p2":2}'
        await m.replace(
            [
                Replacement(playing, {"public": b"v"}, 3, status="playing"),
                Replacement(
                    done, {"public": b"v", "seat:0": b"s"}, 7, None, None, "finished", record
                ),
                Replacement(closed, {"public": b"v"}, 2, status="finished", seated=b"{}"),
            ]
        )
        assert await m.seated([playing, done, closed]) == [None, record, b"{}"]
        assert await m.get(done, "seat:0") == (7, b"s")
        finished = (await m.status()).tables.get("finished")
        await asyncio.sleep(0.7)
        assert await m.get(done, "public") is None and await m.get(closed, "public") is None
        assert await m.get(playing, "public") == (3, b"v")  # a table in play stays
        assert await m.seated([done, closed, playing]) == [record, b"{}", None]
        assert (await m.status()).tables.get("finished") == finished  # still counted
        # written again (a rebuild): there again, for the same time
        again = Replacement(done, {"public": b"w"}, 7, status="finished", seated=record)
        assert (await m.replace([again]))[0]
        assert await m.get(done, "public") == (7, b"w")
        await asyncio.sleep(0.7)
        assert await m.get(done, "public") is None
        await m.delete(done)
        assert await m.seated([done]) == [None]
        await m.close()

    run(go())


def test_the_rosters_of_many_tables_are_read_at_once(model_factory):
    async def go():
        m = model_factory(finished_ttl=0.4)
        waiting, done, never = (uuid.uuid4().hex for _ in range(3))
        held = b'{"status":"waiting","players":{"p1":0}}'
        over = b'{"status":"finished","players":{}}'
        await m.replace(
            [
                Replacement(waiting, {"public": b"v", ROSTER: held}, 3, status="lobby"),
                Replacement(done, {"public": b"v", ROSTER: over}, 7, None, None, "finished", b"{}"),
            ]
        )
        assert await m.rosters([waiting, done, never]) == [held, over, None]
        assert await m.rosters([]) == []
        await asyncio.sleep(0.7)  # the finished table's views, and its roster, expire
        assert await m.rosters([done, waiting]) == [None, held]
        await m.close()

    run(go())


def test_without_a_time_finished_tables_views_stay(model_factory):
    async def go():
        m = model_factory()
        t = uuid.uuid4().hex
        await m.replace([Replacement(t, {"public": b"v"}, 4, status="finished", seated=b"{}")])
        await asyncio.sleep(0.3)
        assert await m.get(t, "public") == (4, b"v")
        await m.close()

    run(go())


def test_only_a_finished_table_written_with_its_seated_record_expires(model_factory):
    """Without its record a table whose views went could not be told from one never projected;
    a write in their place without it (no status) keeps them for good, as a new hash would."""

    async def go():
        m = model_factory(finished_ttl=0.3)
        bare, later = uuid.uuid4().hex, uuid.uuid4().hex
        await m.put(bare, {"public": b"v"}, 3, status="finished")
        await m.put(later, {"public": b"v"}, 3, status="finished", seated=b"{}")
        await m.replace([Replacement(later, {"public": b"w"}, 4)])
        await asyncio.sleep(0.5)
        assert await m.get(bare, "public") == (3, b"v")
        assert await m.get(later, "public") == (4, b"w")
        await m.close()

    run(go())


def test_waiting_at_a_finished_table_whose_views_expired_answers_at_once(model_factory):
    async def go():
        m = model_factory(finished_ttl=0.2)
        t = uuid.uuid4().hex
        await m.put(t, {"public": b'{"version":1}'}, 3, status="finished", seated=b"{}")
        await asyncio.sleep(0.4)
        began = time.monotonic()
        assert await m.wait(t, "public", after=1, timeout=5) is None
        assert time.monotonic() - began < 2
        await m.close()

    run(go())


def test_a_finished_tables_views_expire_from_its_end_and_a_late_put_never_brings_them_back(
    model_factory,
):
    """A chat after the end rewrites a finished table: it must neither keep its views longer
    (one address chatting at many tables would hold them all) nor write them again once they
    went, however many come (its position alone, kept, so its readers know it moved); a
    rebuild does write them."""

    async def go():
        m = model_factory(finished_ttl=2.0)
        t, u = uuid.uuid4().hex, uuid.uuid4().hex
        await m.put(t, {"public": b"v1"}, 3, status="finished", seated=b"{}")
        await asyncio.sleep(1.0)
        assert await m.put(t, {"public": b"v2"}, 4, status="finished", seated=b"{}")
        assert await m.get(t, "public") == (4, b"v2")
        await asyncio.sleep(1.3)  # 2.3 s after the end, 1.3 s after the late put
        assert await m.get(t, "public") is None
        for position in (5, 6):  # one late put after another: a position alone each time
            assert await m.put(t, {"public": b"v3"}, position, status="finished", seated=b"{}")
            assert await m.get(t, "public") is None and await m.position(t) == position
        began = time.monotonic()
        assert await m.wait(t, "public", after=0, timeout=5) is None
        assert time.monotonic() - began < 2
        # after a record-only write (a wipe's, rebuild --all's), the same
        await m.put(u, {}, 3, status="finished", seated=b"{}")
        assert await m.put(u, {"public": b"x"}, 4, status="finished", seated=b"{}")
        assert await m.get(u, "public") is None and await m.position(u) == 4
        rebuilt = Replacement(t, {"public": b"v3"}, 6, status="finished", seated=b"{}")
        assert (await m.replace([rebuilt]))[0]
        assert await m.get(t, "public") == (6, b"v3")
        assert await m.seated([t, u]) == [b"{}", b"{}"]
        await m.close()

    run(go())


def test_a_waiter_on_a_view_that_goes_is_answered_none_at_once(model_factory):
    """A left seat's view goes with it: its long-poll ends then, with no view, rather than
    holding its connection until its timeout for a view that will never change."""

    async def go():
        m = model_factory()
        t = uuid.uuid4().hex
        await m.put(t, {"public": _view(1), "seat:0": _view(1), "seat:1": _view(1)}, 5)
        leaving = asyncio.create_task(m.wait(t, "seat:1", after=1, timeout=60))
        staying = asyncio.create_task(m.wait(t, "seat:0", after=1, timeout=60))
        await asyncio.sleep(0.3)
        assert not leaving.done()
        await m.put(t, {"public": _view(2), "seat:0": _view(1)}, 6, changed=["public", "seat:1"])
        assert await asyncio.wait_for(leaving, 10) is None
        assert not staying.done()  # its view is there, unchanged: it goes on waiting
        staying.cancel()
        await m.close()

    run(go())


def test_a_waiter_whose_table_is_wiped_waits_for_it_to_be_projected_again(model_factory):
    """A table gone whole (Redis restarted empty, a wipe) is not a seat left: its waiters, woken
    (the wake-ups' reconnection wakes every one), wait on and get its views once written again."""

    async def go():
        m = model_factory()
        t = uuid.uuid4().hex
        await m.put(t, {"public": _view(1), "seat:0": _view(1)}, 5)
        waiting = asyncio.create_task(m.wait(t, "seat:0", after=1, timeout=60))
        await asyncio.sleep(0.3)
        await m.delete(t)
        if isinstance(m, MemoryReadModel):
            m._changed[t].set()
        else:
            m.wakeups.wake(t)
        await asyncio.sleep(0.3)
        assert not waiting.done()
        await m.put(t, {"public": _view(2), "seat:0": _view(2)}, 5)
        got = await asyncio.wait_for(waiting, 10)
        assert got is not None and got.data == _view(2)
        await m.close()

    run(go())
