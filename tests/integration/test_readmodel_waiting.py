"""Watchers of one view share one read and one frame per change (a crowd of
streams must not multiply the server's memory), against a real Redis."""

from __future__ import annotations

import asyncio

from gcbc.readmodel.port import PUBLIC, seat_key
from gcbc.readmodel.redis import RedisReadModel

TABLE = "00000000000000aa"


class CountingReads(RedisReadModel):
    reads = 0

    async def _read(self, table, viewer):  # noqa: ANN001, ANN202
        got = await super()._read(table, viewer)
        self.reads += 1
        return got


def _view(version: int) -> bytes:
    return b'{"version":%d,"table_id":"t"}' % version


async def _heard_at_10(redis_url: str) -> CountingReads:
    """A read model listening to wake-ups, its table's view of position 10 written and its
    wake-up heard."""
    url = redis_url.rsplit("/", 1)[0] + "/14"
    plain = RedisReadModel.connect(url)
    model = CountingReads(plain.redis, plain.wakeups.client)
    await model.redis.flushdb()
    model.wakeups.start()
    await asyncio.wait_for(model.wakeups.ready.wait(), 10)
    await model.put(TABLE, {PUBLIC: _view(1)}, 10, changed=[PUBLIC])
    while not model.wakeups.quiet(TABLE, 10, PUBLIC):  # the wake-up of position 10 was heard
        await asyncio.sleep(0.01)
    return model


def test_every_watcher_of_a_view_gets_the_same_bytes_for_a_change(redis_url):
    async def go() -> None:
        url = redis_url.rsplit("/", 1)[0] + "/14"
        plain = RedisReadModel.connect(url)
        model = CountingReads(plain.redis, plain.wakeups.client)
        await model.redis.flushdb()
        try:
            await model.put(TABLE, {PUBLIC: _view(1)}, 10)
            model.wakeups.start()
            await asyncio.wait_for(model.wakeups.ready.wait(), 10)  # it listens
            watchers = [
                asyncio.create_task(model.wait(TABLE, PUBLIC, 0, 1, 10.0)) for _ in range(50)
            ]
            while model.reads < 50:  # every watcher has read version 1 and waits for more
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.05)
            await model.put(TABLE, {PUBLIC: _view(2)}, 11, changed=[PUBLIC])
            got = await asyncio.gather(*watchers)
            assert {g.data for g in got} == {_view(2)}
            assert len({id(g) for g in got}) == 1  # one read for all of them
            assert model.reads == 50  # … and not one more
            frames = {id(g.frame()) for g in got}
            assert len(frames) == 1  # one frame, sent to every stream
            assert got[0].frame() == b"id: 2\r\ndata: " + _view(2) + b"\r\n\r\n"
        finally:
            await model.close()

    asyncio.run(go())


def test_an_answer_awaited_past_the_newest_wake_up_is_read_once_it_comes(redis_url):
    """A command just appended cannot be answered yet: once a wake-up of the table was heard,
    the waiter for its position reads Redis only when the next one comes (one read, not two)."""

    async def go() -> None:
        model = await _heard_at_10(redis_url)
        try:
            assert model.wakeups.behind(TABLE, 12) and not model.wakeups.behind(TABLE, 10)
            answer = asyncio.create_task(model.wait(TABLE, PUBLIC, position=12, timeout=10.0))
            await asyncio.sleep(0.1)
            assert model.reads == 0  # nothing to read yet: the answer's view is not there
            await model.put(TABLE, {PUBLIC: _view(2)}, 12, changed=[PUBLIC])
            got = await answer
            assert (got.position, got.data) == (12, _view(2))
            assert model.reads == 1
            # no wait (timeout 0), or a table never heard of: read at once
            assert (await model.wait(TABLE, PUBLIC, position=13)).position == 12
            assert await model.wait("00000000000000bb", PUBLIC, position=5, timeout=0.2) is None
            assert model.reads == 4  # one each, and one more after the wait of the unknown one
        finally:
            await model.close()

    asyncio.run(go())


def test_a_stream_going_on_waits_without_reading_again_unless_a_change_was_announced(redis_url):
    """A stream that sent the view of position 10 waits for the next change without reading
    Redis first when no newer wake-up was heard, and gets that same view back, unread, when its
    wait runs out (a keep-alive); it reads when a newer one was heard (a change it missed
    between two waits), and always when wake-ups are not heard."""

    async def go() -> None:
        model = await _heard_at_10(redis_url)
        try:
            sent = await model.wait(TABLE, PUBLIC)
            assert (sent.position, model.reads) == (10, 1)
            # a read that does not wait leaves no waiter (a change would be read for nobody)
            assert TABLE not in model.wakeups._signals  # noqa: SLF001
            # nothing new before the wait runs out: the view the stream has, not read again
            assert await model.wait(TABLE, PUBLIC, 0, 1, 0.2, last=sent) is sent
            going_on = asyncio.create_task(model.wait(TABLE, PUBLIC, 0, 1, 10.0, last=sent))
            await asyncio.sleep(0.1)
            assert model.reads == 1  # nothing newer announced: nothing to read
            await model.put(TABLE, {PUBLIC: _view(2)}, 11, changed=[PUBLIC])
            got = await going_on
            assert (got.position, got.data) == (11, _view(2))
            assert model.reads == 1  # the wake-up's own read served it
            # a change announced after the view the stream sent: read at once, not waited for
            assert not model.wakeups.quiet(TABLE, 10, PUBLIC)
            missed = await model.wait(TABLE, PUBLIC, 0, 1, 10.0, last=sent)
            assert (missed.position, missed.data, model.reads) == (11, _view(2), 2)
            # wake-ups lost (a reconnect): nothing is known quiet any more
            model.wakeups.ready.clear()
            assert not model.wakeups.quiet(TABLE, 11, PUBLIC)
            assert (await model.wait(TABLE, PUBLIC, 0, 2, 0.1, last=missed)).data == _view(2)
            assert model.reads == 4  # read first, and again when the wait ran out
        finally:
            await model.close()

    asyncio.run(go())


def test_a_newer_change_of_other_views_leaves_a_view_read_before_it_current(redis_url):
    """Wake-ups name the views they changed: a view read (or read for its waiters at a wake-up)
    before a newer wake-up that left it as it was is still current, and is read again only once
    it changed (in the arrange phase each seat's arrange changes its own view alone; under load
    a table's next change is often heard before the waiters woken by the last one run)."""

    async def go() -> None:
        model = await _heard_at_10(redis_url)
        seat = seat_key(0)
        try:
            await model.put(TABLE, {seat: _view(1)}, 11, changed=[seat])
            sent = await model.wait(TABLE, seat)
            assert sent.position == 11
            reads = model.reads
            going_on = asyncio.create_task(model.wait(TABLE, seat, 0, 1, 0.5, last=sent))
            await asyncio.sleep(0.05)
            await model.put(TABLE, {PUBLIC: _view(2)}, 12, changed=[PUBLIC])  # another view
            assert await going_on is sent  # its wait ran out: the view it has, not read again
            assert model.reads == reads
            assert model.wakeups.quiet(TABLE, 11, seat)
            assert not model.wakeups.quiet(TABLE, 11, PUBLIC)
            # the view read for a wake-up's waiters stays theirs past a newer wake-up of other
            # views, not past one of its own
            signal = model.wakeups.waiter(TABLE, seat)
            await model.put(TABLE, {seat: _view(2)}, 13, changed=[seat])
            await asyncio.wait_for(signal.event.wait(), 5)
            for position, viewer in ((14, PUBLIC), (15, seat)):
                await model.put(TABLE, {viewer: _view(position)}, position, changed=[viewer])
                while model.wakeups.changed_at(TABLE, viewer) != position:
                    await asyncio.sleep(0.01)
                fresh = model.wakeups.fresh(TABLE, seat, signal)
                if position == 14:
                    assert fresh is not None and fresh.data == _view(2)
                else:
                    assert fresh is None  # its own view changed since: read again
            assert model.reads == reads
        finally:
            await model.close()

    asyncio.run(go())


def test_a_wait_that_is_over_leaves_nothing_behind_for_its_table(redis_url):
    """A wait answered at once, or run out, lets go of what it waited on (a finished table's
    next change never comes to take it away); one still waiting keeps it."""

    async def go() -> None:
        model = await _heard_at_10(redis_url)
        seat = seat_key(0)
        w = model.wakeups
        try:
            await model.put(TABLE, {seat: _view(1)}, 11, changed=[seat])
            assert (await model.wait(TABLE, seat, after=0, timeout=5)).position == 11
            assert (await model.wait(TABLE, seat, position=11, timeout=5)).position == 11
            assert await model.wait(TABLE, seat, after=1, timeout=0.05) is not None  # ran out
            assert w._signals == {} and w._moved == {}
            waiting = asyncio.create_task(model.wait(TABLE, seat, after=1, timeout=5))
            await asyncio.sleep(0.05)
            assert seat in w._signals[TABLE]  # a waiter still holds it
            await model.put(TABLE, {seat: _view(2)}, 12, changed=[seat])
            assert (await waiting).version == 2
            assert w._signals == {} and w._moved == {}
        finally:
            await model.close()

    asyncio.run(go())
