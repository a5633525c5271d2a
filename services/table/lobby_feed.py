"""The lobby as a stream of changes (GET /lobby/stream): a bot waits for a table instead of
polling. One poll of the read model's lobby per process, however many clients watch it, turned
into events: a table listed (opened), its seats taken or freed, filled, and gone from the lobby
(its game started, or it closed unstarted)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

import msgspec

from gcbc.readmodel.port import ModelUnavailable
from gcbc_contract.http import LobbyEvent, LobbyListing
from services.table.service import TableService

log = logging.getLogger("gcbc.lobby")
LOBBY = "/lobby"  # the open streams' key for the lobby's watchers (never a table id)
KEEP_ALIVE = 15.0  # seconds of quiet before a comment keeps the connection open
BACKLOG = 1000  # events a slow watcher may lag by before its stream is closed (it reconnects)

_listing = msgspec.json.Decoder(LobbyListing)
_encode = msgspec.json.Encoder().encode


class _Seat(msgspec.Struct):
    cards: list[object] = []


class _Outcome(msgspec.Struct):
    """What a table gone from the lobby became, from its public view: a game started (its
    cards dealt), or closed unstarted (finished with no card dealt)."""

    status: str
    seats: list[_Seat] = []


_outcome = msgspec.json.Decoder(_Outcome)


def frame(event: LobbyEvent) -> bytes:
    """The event as Server-Sent Events send it: its type as the event's name."""
    return b"event: " + event.type.encode() + b"\r\ndata: " + _encode(event) + b"\r\n\r\n"


class LobbyFeed:
    """Polls the lobby every ``every`` seconds while someone watches it (up to ``limit`` tables)
    and hands each watcher the lobby as it is, then every change."""

    def __init__(self, service: TableService, every: float = 0.5, limit: int = 1000) -> None:
        self.service, self.every, self.limit = service, every, limit
        self.listed: dict[str, LobbyListing] = {}
        self._listed_frames: bytes | None = None  # ``listed`` as frames, made once a change
        self.watchers: set[asyncio.Queue[bytes | None]] = set()
        self.poller: asyncio.Task[None] | None = None
        self._starting = asyncio.Lock()  # one first poll and one poller, however many arrive

    async def watch(self) -> AsyncIterator[bytes]:
        """One watcher's frames: each table listed now, then each change, a keep-alive comment
        after a quiet while."""
        queue: asyncio.Queue[bytes | None] = asyncio.Queue(BACKLOG)
        async with self._starting:  # (watchers who come during the first poll wait for it)
            if self.poller is None or self.poller.done():
                with contextlib.suppress(ModelUnavailable):
                    await self.poll()  # the first watcher sees the lobby as it is
                self.poller = asyncio.create_task(self._run())
        self.watchers.add(queue)
        try:
            if self.listed:
                yield self.listed_frames()
            while True:
                try:
                    got = await asyncio.wait_for(queue.get(), KEEP_ALIVE)
                except TimeoutError:
                    yield b": keep-alive\r\n\r\n"
                    continue
                if got is None:  # it lagged past its backlog: it reconnects and starts afresh
                    return
                yield got
        finally:
            self.watchers.discard(queue)

    def listed_frames(self) -> bytes:
        """A ``listed`` event for each table listed now, encoded once for every watcher that
        comes before the lobby changes (a reconnecting crowd costs their bytes, not a frame
        each)."""
        if self._listed_frames is None:
            self._listed_frames = b"".join(
                frame(LobbyEvent("listed", table_id, listing))
                for table_id, listing in self.listed.items()
            )
        return self._listed_frames

    async def _run(self) -> None:
        """Poll while anyone watches (a moment after the last one left, it stops)."""
        while True:
            await asyncio.sleep(self.every)
            if not self.watchers:
                self.poller = None
                return
            try:
                for event in await self.poll():
                    self._send(frame(event))
            except ModelUnavailable:
                continue  # the next poll catches up
            except Exception:  # noqa: BLE001  (one bad poll must not stop every stream)
                log.exception("lobby poll failed")

    def _send(self, data: bytes) -> None:
        for queue in list(self.watchers):
            if queue.full():  # too slow: what it lags by is dropped, and it is told to go
                self.watchers.discard(queue)
                while not queue.empty():
                    queue.get_nowait()
                queue.put_nowait(None)
            else:
                queue.put_nowait(data)

    async def poll(self) -> list[LobbyEvent]:
        """The lobby read again: the changes since the last poll, in the lobby's order."""
        now: dict[str, LobbyListing] = {}
        after = 0
        while len(now) < self.limit:
            page = await self.service.model.open_tables(min(200, self.limit), after)
            for data in page.listings:
                listing = _listing.decode(data)
                now[listing.table_id] = listing
            if page.next is None:
                break
            after = page.next
        events = [
            event
            for table_id, listing in now.items()
            if (event := _changed(self.listed.get(table_id), listing)) is not None
        ]
        for table_id in self.listed.keys() - now.keys():
            gone, was = await self._gone(table_id), self.listed[table_id]
            if gone == "started" and was.taken < was.seats:
                # a game starts only once every seat is taken: it filled between two reads
                full = msgspec.structs.replace(was, taken=was.seats, reserved=0)
                events.append(LobbyEvent("filled", table_id, full))
            events.append(LobbyEvent(gone, table_id))
        if now != self.listed:
            self._listed_frames = None
        self.listed = now
        return events

    async def _gone(self, table_id: str) -> Any:
        """started or closed: what a table that left the lobby became."""
        got = await self.service.view(table_id, None)
        if got is None:
            return "closed"
        outcome = _outcome.decode(got.data)
        dealt = any(seat.cards for seat in outcome.seats)
        return "started" if outcome.status != "waiting" and dealt else "closed"


def _changed(was: LobbyListing | None, now: LobbyListing) -> LobbyEvent | None:
    if was is None:
        return LobbyEvent("listed", now.table_id, now)
    if (was.taken, was.reserved) == (now.taken, now.reserved):
        return None  # (a seat kept for its invitee counts as taken: its taking moves reserved)
    return LobbyEvent("filled" if now.taken >= now.seats else "seats", now.table_id, now)
