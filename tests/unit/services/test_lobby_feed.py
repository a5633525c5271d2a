"""The lobby's feed: one poll for every watcher, each change of the lobby as an event."""

from __future__ import annotations

import asyncio

import msgspec

from gcbc.readmodel.port import LobbyPage, StoredView
from gcbc_contract.http import LobbyEvent, LobbyListing
from services.table import lobby_feed
from services.table.lobby_feed import LobbyFeed


def listing(table_id: str, taken: int, seats: int = 4) -> bytes:
    return msgspec.json.encode(
        LobbyListing(table_id=table_id, seats=seats, taken=taken, options={}, deadlines={})
    )


class FakeModel:
    def __init__(self) -> None:
        self.lobby: list[bytes] = []
        self.polls = 0

    async def open_tables(self, limit: int = 50, after: int = 0) -> LobbyPage:
        self.polls += 1
        return LobbyPage(self.lobby[after : after + limit], None)


class FakeService:
    def __init__(self) -> None:
        self.model = FakeModel()
        self.views: dict[str, bytes] = {}

    async def view(self, table_id: str, seat: int | None) -> StoredView | None:
        data = self.views.get(table_id)
        return None if data is None else StoredView(0, data)


def events(chunks: list[bytes]) -> list[tuple[str, str]]:
    out = []
    for f in b"".join(chunks).split(b"\r\n\r\n"):
        if f.startswith(b"event: "):
            data = f.split(b"data: ", 1)[1].strip()
            e = msgspec.json.decode(data, type=LobbyEvent)
            out.append((e.type, e.table_id))
    return out


def test_each_change_of_the_lobby_is_an_event_and_one_poll_serves_every_watcher(monkeypatch):
    async def go() -> None:
        service = FakeService()
        service.model.lobby = [listing("a" * 16, 1)]
        feed = LobbyFeed(service, every=0.01)  # type: ignore[arg-type]
        got: list[list[bytes]] = [[], []]

        async def watch(i: int) -> None:
            async for f in feed.watch():
                got[i].append(f)

        watchers = [asyncio.create_task(watch(i)) for i in range(2)]
        await asyncio.sleep(0.05)
        service.model.lobby = [listing("a" * 16, 2), listing("b" * 16, 0)]
        await asyncio.sleep(0.05)
        service.model.lobby = [listing("a" * 16, 4), listing("c" * 16, 0)]
        # closed unstarted, as its public view shows it: finished, nobody won, no card dealt
        service.views["b" * 16] = (
            b'{"status":"finished","winners":[],"win_reason":"closed_not_started",'
            b'"seats":[{"cards":[]},{"cards":[]}]}'
        )
        await asyncio.sleep(0.05)
        service.model.lobby = [listing("c" * 16, 0)]
        service.views["a" * 16] = b'{"status":"playing","seats":[{"cards":[{"position":1}]}]}'
        await asyncio.sleep(0.05)
        for w in watchers:
            w.cancel()
        await asyncio.gather(*watchers, return_exceptions=True)
        polls = service.model.polls
        assert polls < 30  # one poll per period for both watchers, not one each
        expected = [
            ("listed", "a" * 16),
            ("seats", "a" * 16),
            ("listed", "b" * 16),
            ("filled", "a" * 16),
            ("listed", "c" * 16),
            ("closed", "b" * 16),
            ("started", "a" * 16),
        ]
        assert events(got[0]) == expected
        assert events(got[1]) == expected
        await asyncio.sleep(0.05)
        assert feed.poller is None  # nobody watches: no more polls

    asyncio.run(go())


def test_a_table_filled_and_started_between_two_reads_shows_both(monkeypatch):
    async def go() -> list[tuple[str, str]]:
        service = FakeService()
        service.model.lobby = [listing("a" * 16, 1)]
        feed = LobbyFeed(service, every=0.01)  # type: ignore[arg-type]
        got: list[bytes] = []

        async def watch() -> None:
            async for f in feed.watch():
                got.append(f)

        watcher = asyncio.create_task(watch())
        await asyncio.sleep(0.05)
        service.model.lobby = []
        service.views["a" * 16] = b'{"status":"playing","seats":[{"cards":[{"position":1}]}]}'
        await asyncio.sleep(0.05)
        watcher.cancel()
        await asyncio.gather(watcher, return_exceptions=True)
        return events(got)

    assert asyncio.run(go()) == [("listed", "a" * 16), ("filled", "a" * 16), ("started", "a" * 16)]


def test_a_watcher_lagging_past_its_backlog_is_let_go(monkeypatch):
    async def go() -> None:
        monkeypatch.setattr(lobby_feed, "BACKLOG", 2)
        service = FakeService()
        feed = LobbyFeed(service, every=1000)  # type: ignore[arg-type]
        frames = feed.watch()
        first = asyncio.create_task(anext(frames, None))
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        for i in range(5):
            feed._send(f"event {i}".encode())
        assert await first is None  # told to go: it reconnects and starts afresh
        assert not feed.watchers
        if feed.poller is not None:
            feed.poller.cancel()

    asyncio.run(go())


def test_the_lobby_as_it_is_is_encoded_once_for_every_watcher_until_it_changes():
    """Before: each watcher that connected had every listed table encoded for it (a crowd
    reconnecting in a loop took 2.4 ms of the event loop each)."""

    async def go() -> None:
        service = FakeService()
        service.model.lobby = [listing(c * 16, 1) for c in "abc"]
        feed = LobbyFeed(service, every=60)  # type: ignore[arg-type]
        firsts = []
        for _ in range(3):
            stream = feed.watch()
            firsts.append(await anext(stream))
            await stream.aclose()
        assert firsts[0] is firsts[1] is firsts[2]  # the same bytes, made once
        assert events(firsts[:1]) == [("listed", c * 16) for c in "abc"]
        service.model.lobby = [listing("a" * 16, 2)]
        await feed.poll()  # the lobby changed: the next watcher is told it as it is now
        stream = feed.watch()
        assert events([await anext(stream)]) == [("listed", "a" * 16)]
        await stream.aclose()
        feed.poller.cancel()

    asyncio.run(go())


def test_watchers_who_come_during_the_first_poll_share_it_and_one_poller():
    """Before: each watcher that came while the first poll was under way saw no poller yet and
    started its own, each polling the lobby (up to 1,000 listings) every half second for as long
    as anyone watched: 80 of them filled the shared Redis pool."""

    class SlowModel(FakeModel):
        async def open_tables(self, limit: int = 50, after: int = 0) -> LobbyPage:
            await asyncio.sleep(0.02)
            return await super().open_tables(limit, after)

    async def go() -> None:
        service = FakeService()
        service.model = SlowModel()
        service.model.lobby = [listing("a" * 16, 1)]
        feed = LobbyFeed(service, every=60)  # type: ignore[arg-type]
        streams = [feed.watch() for _ in range(20)]
        firsts = await asyncio.gather(*(anext(s) for s in streams))
        assert service.model.polls == 1
        assert all(events([f]) == [("listed", "a" * 16)] for f in firsts)
        pollers = [t for t in asyncio.all_tasks() if t.get_coro().__name__ == "_run"]
        assert len(pollers) == 1
        for s in streams:
            await s.aclose()
        feed.poller.cancel()

    asyncio.run(go())
