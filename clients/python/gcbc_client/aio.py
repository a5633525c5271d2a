"""The asyncio client: ``AsyncClient`` for the lobby and spectators, ``AsyncSeat`` for a player
(the same methods as the blocking client, awaited)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import httpx

from gcbc.contract.http import History, LobbyListing, Position, SeatLater, TableCreated
from gcbc.contract.options import Deadlines, Deal, HouseBots, TableOptions
from gcbc.contract.views import View
from gcbc_client import _core
from gcbc_client.problems import Unavailable

Recorder = Any  # (seat, what, status, body) -> None: sees every answer (tests audit them)


class AsyncClient:
    def __init__(
        self,
        api: str = "http://127.0.0.1:8000",
        timeout: float = 70.0,
        record: Recorder | None = None,
    ) -> None:
        self.http = httpx.AsyncClient(base_url=api, timeout=timeout)
        self.record = record

    async def close(self) -> None:
        await self.http.aclose()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *_: Any) -> None:
        await self.close()

    async def _request(
        self, method: str, url: str, seat: int | None = None, what: str = "", **kw: Any
    ) -> httpx.Response:
        r = await self.http.request(method, url, **kw)
        if self.record is not None and what:
            self.record(seat, what, r.status_code, r.content)
        _core.check(r.status_code, r.content, r.headers)
        return r

    # --- the lobby --------------------------------------------------------------------------
    async def create_table(
        self,
        seats: int,
        options: TableOptions | dict | None = None,
        deadlines: Deadlines | dict | None = None,
        seed: int | None = None,
        deal: Deal | dict | None = None,
        first_seat: int | None = None,
        bots: HouseBots | dict | None = None,
    ) -> TableCreated:
        """``bots``: seats the house plays (``{"seats": [1, 2], "kind": "random"}``)."""
        body = _core.create_body(seats, options, deadlines, seed, deal, first_seat, bots)
        r = await self._request(
            "POST", "/tables", content=body, headers={"content-type": "application/json"}
        )
        return _core.created(r.status_code, r.content)

    async def tables(self, limit: int = 50) -> AsyncIterator[LobbyListing]:
        url: str | None = f"/tables?limit={limit}"
        while url:
            r = await self._request("GET", url)
            for listing in _core.listings_decoder.decode(r.content):
                yield listing
            url = _core.next_page(r.headers)

    async def table(self, table_id: str) -> View:
        r = await self._request("GET", f"/tables/{table_id}", what="public")
        return _core.view_decoder.decode(r.content)

    async def history(self, table_id: str) -> History:
        r = await self._request("GET", f"/tables/{table_id}/history")
        return _core.history_decoder.decode(r.content)

    async def join(self, table_id: str, name: str) -> AsyncSeat:
        r = await self._request(
            "POST", f"/tables/{table_id}/seats", what="seat", json={"name": name}
        )
        got = _core.seat_taken(r.status_code, r.content)
        seat = AsyncSeat(self, table_id, -1, got.token)
        if isinstance(got, SeatLater):  # recorded, not answered yet: the view will say
            v = await seat.view(after=0, timeout=10)
            seat.seat = v.you.seat if v.you else -1
        else:
            seat.seat = got.seat
        return seat

    def watch(self, table_id: str) -> AsyncIterator[View]:
        return _stream(self.http, f"/tables/{table_id}/stream", {})


class AsyncSeat:
    def __init__(self, client: AsyncClient, table_id: str, seat: int, token: str) -> None:
        self.client, self.table_id, self.seat, self.token = client, table_id, seat, token
        self.headers = _core.bearer(token)

    async def _request(self, method: str, path: str, what: str = "", **kw: Any) -> httpx.Response:
        headers = {**self.headers, **kw.pop("headers", {})}
        return await self.client._request(  # noqa: SLF001
            method, f"/tables/{self.table_id}{path}", self.seat, what, headers=headers, **kw
        )

    async def view(self, after: int | None = None, timeout: float = 0) -> View:
        params = {} if after is None else {"after": after, "timeout": timeout}
        for attempt in range(_core.RETRIES):  # a read is safe to repeat
            try:
                r = await self._request("GET", "/view", what="view", params=params)
                return _core.view_decoder.decode(r.content)
            except httpx.TransportError:  # e.g. a kept-alive connection the server just closed
                if attempt == _core.RETRIES - 1:
                    raise
                await asyncio.sleep(_core.RETRY_WAIT)
        raise AssertionError("unreachable")

    def stream(self) -> AsyncIterator[View]:
        return _stream(self.client.http, f"/tables/{self.table_id}/stream", self.headers)

    async def start(self) -> View | Position:
        return _view_or_position(await self._request("POST", "/start", what="start"))

    async def leave(self) -> None:
        """Before the start the seat is free again; after it, the seat is away (its autopilot
        plays) until ``resume`` or any command brings it back."""
        await self._request("DELETE", f"/seats/{self.seat}")

    async def rematch(self) -> AsyncSeat:
        """After a finished game: your seat at the rematch (a new table, the same seats)."""
        r = await self._request("POST", "/rematch")
        got = _core.rematch_decoder.decode(r.content)
        return AsyncSeat(self.client, got.table_id, got.seat, got.token)

    async def chat(self, text: str) -> Position:
        r = await self._request("POST", "/chat", json={"text": text})
        return _core.position_decoder.decode(r.content)

    async def send(self, command: Any, command_id: str | None = None) -> View | Position:
        """As ``Seat.send``: retried with the same command_id while the outcome is unknown."""
        body, command_id = _core.command_body(command, command_id)
        for attempt in range(_core.RETRIES):
            try:
                r = await self._request(
                    "POST",
                    "/commands",
                    what="command",
                    content=body,
                    headers={"content-type": "application/json"},
                )
                return _view_or_position(r)
            except Unavailable as e:
                if attempt == _core.RETRIES - 1:
                    raise
                await asyncio.sleep(e.retry_after or _core.RETRY_WAIT)
            except httpx.TransportError:
                if attempt == _core.RETRIES - 1:
                    raise
                await asyncio.sleep(_core.RETRY_WAIT)
        raise AssertionError("unreachable")


def _view_or_position(r: httpx.Response) -> View | Position:
    if r.status_code == 202:
        return _core.position_decoder.decode(r.content)
    return _core.view_decoder.decode(r.content)


async def _stream(
    http: httpx.AsyncClient, url: str, headers: dict[str, str]
) -> AsyncIterator[View]:
    """Views as Server-Sent Events; after a drop, a reconnect goes on after the last event's id
    (Last-Event-ID), so no change is missed and none comes twice. Ends with the game."""
    last: str | None = None
    while True:
        sent = {**headers, **({"Last-Event-ID": last} if last else {})}
        try:
            async with http.stream(
                "GET", url, headers=sent, timeout=httpx.Timeout(30, read=60)
            ) as r:
                if r.status_code >= 400:
                    await r.aread()
                    _core.check(r.status_code, r.content, r.headers)
                event_id, data = None, []
                async for line in r.aiter_lines():
                    if line.startswith("id:"):
                        event_id = line[3:].strip()
                    elif line.startswith("data:"):
                        data.append(line[5:].lstrip())
                    elif line == "" and data:
                        last = event_id or last
                        view = _core.view_decoder.decode("\n".join(data))
                        event_id, data = None, []
                        yield view
                        if view.status == "finished":
                            return
        except (httpx.TransportError, httpx.RemoteProtocolError):
            await asyncio.sleep(_core.RETRY_WAIT)  # dropped: resume after the last event
