"""The asyncio client: ``AsyncClient`` for the lobby and spectators, ``AsyncSeat`` for a player
(the same methods as the blocking client, awaited), over a transport (``gcbc_client.transport``:
httpx by default, aiohttp with the ``gcbc-client[aiohttp]`` extra)."""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import Any

import msgspec

import gcbc_client._core as _core
import gcbc_client._players as _players
from gcbc_client.httpx_transport import HttpxTransport
from gcbc_client.problems import ApiProblem, Conflict, Forbidden, RateLimited, Unavailable
from gcbc_client.transport import Answer, AsyncTransport
from gcbc_contract.http import History, LobbyEvent, LobbyListing, Position, SeatLater, TableCreated
from gcbc_contract.options import Deadlines, Deal, HouseBots, TableOptions
from gcbc_contract.players import MyProfile, MyTable, PlayedGame, PlayerProfile
from gcbc_contract.queue import QueueState, SeatRange
from gcbc_contract.views import View

Recorder = Any  # (seat, what, status, body) -> None: sees a seat's answers (tests audit them)
# (method, url, body sent, answer) -> None: sees every answer, streams' openings too
Answered = Callable[[str, str, bytes | None, Answer], None]


def open_transport(kind: str, api: str, timeout: float, connections: int) -> AsyncTransport:
    """A transport by name: ``httpx`` or ``aiohttp`` (the ``gcbc-client[aiohttp]`` extra)."""
    if kind == "httpx":
        return HttpxTransport(api, timeout, connections)
    if kind == "aiohttp":
        from gcbc_client.aiohttp_transport import AiohttpTransport

        return AiohttpTransport(api, timeout, connections)
    raise ValueError(f"not a transport: {kind!r} (httpx or aiohttp)")


class AsyncClient:
    """``transport``: ``"httpx"`` (the default), ``"aiohttp"`` (the ``gcbc-client[aiohttp]``
    extra: far less CPU per request) or an ``AsyncTransport``; ``connections``: at most this
    many at once (each open stream holds one). ``record``: the audit hook of the seats'
    answers; ``answered``: a hook that sees every answer (e.g. counting them by status).
    ``view_type``: what a seat's views are decoded into (``view``, ``send``, ``stream``): a
    msgspec Struct of your own with only the fields you read (``status``, ``legal_commands``,
    ``waiting_for``...) decodes a view for a fraction of the CPU (the others are skipped, not
    built: a load generator's views); ``View`` by default."""

    def __init__(
        self,
        api: str = "http://127.0.0.1:8000",
        timeout: float = 70.0,
        record: Recorder | None = None,
        transport: AsyncTransport | str = "httpx",
        connections: int = 100,
        answered: Answered | None = None,
        view_type: type = View,
    ) -> None:
        if isinstance(transport, str):
            transport = open_transport(transport, api, timeout, connections)
        self.transport = transport
        self.record = record
        self.answered = answered
        self.views = _core.view_decoder if view_type is View else msgspec.json.Decoder(view_type)

    @property
    def http(self) -> Any:
        """The transport's own client (``httpx.AsyncClient`` by default), for what this one
        does not do."""
        return self.transport.http  # type: ignore[attr-defined]

    async def close(self) -> None:
        await self.transport.close()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *_: Any) -> None:
        await self.close()

    async def _request(
        self,
        method: str,
        url: str,
        seat: int | None = None,
        what: str = "",
        headers: Mapping[str, str] | None = None,
        body: bytes | None = None,
    ) -> Answer:
        r = await self.transport.request(method, url, headers or {}, body)
        if self.answered is not None:
            self.answered(method, url, body, r)
        if self.record is not None and what:
            self.record(seat, what, r.status, r.body)
        _core.check(r.status, r.body, r.headers)
        return r

    # --- the lobby --------------------------------------------------------------------------
    async def create_table(
        self,
        seats: int,
        options: TableOptions | dict | None = None,
        deadlines: Deadlines | dict | None = None,
        seed: int | str | None = None,
        deal: Deal | dict | None = None,
        first_seat: int | None = None,
        bots: HouseBots | dict | None = None,
        invitations: int = 0,
        rated: bool = False,
    ) -> TableCreated:
        """``bots``: seats the house plays (``{"seats": [1, 2], "kind": "random"}``);
        ``invitations``: seats kept for players you invite (their codes are in the answer);
        ``rated``: only registered players take its seats, and its result moves ratings."""
        body = _core.create_body(
            seats, options, deadlines, seed, deal, first_seat, bots, invitations, rated
        )
        r = await self._request("POST", "/tables", headers=_core.JSON, body=body)
        return _core.created(r.status, r.body)

    async def tables(self, limit: int = 50) -> AsyncIterator[LobbyListing]:
        url: str | None = f"/tables?limit={limit}"
        while url:
            r = await self._request("GET", url)
            for listing in _core.listings_decoder.decode(r.body):
                yield listing
            url = _core.next_page(r.headers)

    async def table(self, table_id: str) -> View:
        r = await self._request("GET", f"/tables/{table_id}", what="public")
        return _core.view_decoder.decode(r.body)

    async def history(self, table_id: str) -> History:
        r = await self._request("GET", f"/tables/{table_id}/history")
        return _core.history_decoder.decode(r.body)

    async def join(
        self,
        table_id: str,
        name: str,
        bot: bool = False,
        player_token: str | None = None,
        invitation: str | None = None,
    ) -> AsyncSeat:
        """As ``Client.join``."""
        body = _core.encode(_core.seat_body(name, bot, invitation))
        headers = {**_core.JSON, **_core.bearer(player_token)} if player_token else _core.JSON
        r = await self._request(
            "POST", f"/tables/{table_id}/seats", what="seat", headers=headers, body=body
        )
        got = _core.seat_taken(r.status, r.body)
        seat = AsyncSeat(self, table_id, -1, got.token)
        if isinstance(got, SeatLater):  # recorded, not answered yet: the view will say
            seat.seat = await _seated(seat)
        else:
            seat.seat = got.seat
        return seat

    async def attach(self, table_id: str, token: str) -> AsyncSeat:
        """As ``Client.attach``: a seat from its saved token."""
        seat = AsyncSeat(self, table_id, -1, token)
        seat.seat = _core.seat_of(await seat._view(_core.view_decoder))  # noqa: SLF001
        return seat

    # --- players ----------------------------------------------------------------------------
    async def register(self, name: str, bot: bool = False) -> AsyncPlayer:
        """As ``Client.register``: a lost answer asked again with the same registration key."""
        body = _players.register_body(name, bot)
        r = await _repeated(
            lambda: self._request("POST", "/players", headers=_core.JSON, body=body),
            (*_core.UNKNOWN, *self.transport.failures),
        )
        got = _players.registered_decoder.decode(r.body)
        return AsyncPlayer(self, got.player_id, got.name, got.bot, got.token)

    async def player(self, player_id: str) -> PlayerProfile:
        r = await self._request("GET", f"/players/{player_id}")
        return _players.profile_decoder.decode(r.body)

    async def games(self, player_id: str, page: int = 20) -> AsyncIterator[PlayedGame]:
        """As ``Client.games``."""
        before: int | None = None
        while True:
            r = await self._request("GET", _players.games_url(player_id, page, before))
            got = _players.games_decoder.decode(r.body)
            for game in got.games:
                yield game
            if got.next is None:
                return
            before = got.next

    async def export_games(
        self, player_id: str, most: int | None = None
    ) -> AsyncIterator[PlayedGame]:
        """As ``Client.export_games``: each game as its line comes."""
        async with self.transport.stream(_players.export_url(player_id, most), {}) as r:
            body = await r.read() if r.status >= 400 else b""
            _core.check(r.status, body, r.headers)
            async for line in r.lines():
                if line:
                    yield _players.game_decoder.decode(line)

    async def as_player(self, token: str) -> AsyncPlayer:
        """As ``Client.as_player``."""
        r = await self._request("GET", "/players/me", headers=_core.bearer(token))
        got = _players.me_decoder.decode(r.body)
        return AsyncPlayer(self, got.player_id, got.name, got.bot, token)

    def watch(self, table_id: str) -> AsyncIterator[View]:
        return _stream(self, f"/tables/{table_id}/stream", {})

    async def lobby(self) -> AsyncIterator[LobbyEvent]:
        """As ``Client.lobby``: the lobby's changes as they happen."""
        failures = 0
        while True:
            error: BaseException | None = None
            try:
                async with self.transport.stream("/lobby/stream", {}) as r:
                    body = await r.read() if r.status >= 400 else b""
                    _core.check(r.status, body, r.headers)
                    async for _, data in _core.sse_events_from(r.lines()):
                        failures = 0
                        yield _core.lobby_event_decoder.decode(data)
            except (*self.transport.failures, *_core.DROPS) as e:
                error = e
            await asyncio.sleep(_core.backoff(failures, error))  # closed or dropped: again
            failures += 1


class AsyncPlayer:
    """As ``gcbc_client.sync.Player``, awaited."""

    def __init__(
        self, client: AsyncClient, player_id: str, name: str, bot: bool, token: str
    ) -> None:
        self.client, self.player_id, self.name, self.bot = client, player_id, name, bot
        self.token = token

    async def _request(self, method: str, path: str, body: bytes | None = None) -> Answer:
        headers = _core.bearer(self.token)
        if body is not None:
            headers = {**headers, **_core.JSON}
        return await self.client._request(method, path, headers=headers, body=body)  # noqa: SLF001

    async def join(
        self,
        table_id: str,
        name: str | None = None,
        bot: bool = False,
        invitation: str | None = None,
    ) -> AsyncSeat:
        return await self.client.join(
            table_id, name or self.name, bot, player_token=self.token, invitation=invitation
        )

    async def me(self) -> MyProfile:
        """As ``Player.me``."""
        return _players.me_decoder.decode((await self._request("GET", "/players/me")).body)

    async def tables(self, limit: int = 50) -> list[MyTable]:
        r = await self._request("GET", f"/players/me/tables?limit={limit}")
        return _players.tables_decoder.decode(r.body).tables

    async def seat(self, table_id: str) -> AsyncSeat:
        return await self.client.attach(table_id, self.token)

    async def new_token(self) -> str:
        """As ``Player.new_token``: an unknown outcome settled by asking with the new token."""
        try:
            r = await self._request("POST", "/players/me/token")
        except Unavailable as e:
            if e.token is None or not await _holds(self.client, e.token):
                raise
            self.token = e.token
            return e.token
        got = _players.token_decoder.decode(r.body)
        self.token = got.token
        return got.token

    async def queue(
        self,
        seats: list[int] | range | SeatRange,
        options: TableOptions | dict | None = None,
        rated: bool = False,
        bots_after: float | None = None,
    ) -> QueueState:
        """As ``Player.queue``."""
        body = _players.join_queue(seats, options, rated, bots_after)
        return _players.queue_decoder.decode((await self._request("POST", "/queue", body)).body)

    async def queue_state(self, after: int | None = None, timeout: float = 0) -> QueueState:
        r = await self._request("GET", "/queue" + _core.long_poll(after, timeout))
        return _players.queue_decoder.decode(r.body)

    async def wait_seated(self, timeout: float = 600) -> QueueState:
        """As ``Player.wait_seated``."""
        deadline = time.monotonic() + timeout
        state = await self.queue_state()
        while state.status == "waiting" and time.monotonic() < deadline:
            wait = min(30.0, max(0.0, deadline - time.monotonic()))
            state = await self.queue_state(after=state.version, timeout=wait)
        return state

    async def leave_queue(self) -> None:
        await self._request("DELETE", "/queue")


class AsyncSeat:
    def __init__(self, client: AsyncClient, table_id: str, seat: int, token: str) -> None:
        self.client, self.table_id, self.seat, self.token = client, table_id, seat, token
        self.headers = _core.bearer(token)

    async def _request(
        self, method: str, path: str, what: str = "", body: bytes | None = None
    ) -> Answer:
        return await self.client._request(  # noqa: SLF001
            method,
            f"/tables/{self.table_id}{path}",
            self.seat,
            what,
            self.headers if body is None else {**self.headers, **_core.JSON},
            body,
        )

    async def view(self, after: int | None = None, timeout: float = 0) -> View:
        return await self._view(self.client.views, after, timeout)  # type: ignore[no-any-return]

    async def _view(self, decoder: Any, after: int | None = None, timeout: float = 0) -> Any:
        url = "/view" + _core.long_poll(after, timeout)
        # a read is safe to repeat after a dropped connection (a kept-alive one the server closed)
        r = await _repeated(
            lambda: self._request("GET", url, what="view"), self.client.transport.failures
        )
        return decoder.decode(r.body)

    def stream(self) -> AsyncIterator[View]:
        return _stream(self.client, f"/tables/{self.table_id}/stream", self.headers)

    async def start(self) -> View | Position:
        r = await self._request("POST", "/start", what="start")
        return _core.view_or_position(r.status, r.body, self.client.views)

    async def leave(self) -> None:
        """Before the start the seat is free again; after it, the seat is away (its autopilot
        plays) until ``resume`` or any command brings it back."""
        await self._request("DELETE", f"/seats/{self.seat}")

    async def rematch(self) -> AsyncSeat:
        """After a finished game: your seat at the rematch (a new table, the same seats)."""
        # asked again after an unknown outcome: the server answers the same seat and token
        r = await _repeated(
            lambda: self._request("POST", "/rematch"),
            (*_core.UNKNOWN, *self.client.transport.failures),
        )
        got = _core.rematch_decoder.decode(r.body)
        return AsyncSeat(self.client, got.table_id, got.seat, got.token)

    async def chat(self, text: str) -> Position:
        r = await self._request("POST", "/chat", body=_core.encode({"text": text}))
        return _core.position_decoder.decode(r.body)

    async def send(self, command: Any, command_id: str | None = None) -> View | Position:
        """As ``Seat.send``: retried with the same command_id while the outcome is unknown."""
        body, command_id = _core.command_body(command, command_id)
        try:
            r = await _repeated(
                lambda: self._request("POST", "/commands", what="command", body=body),
                (*_core.UNKNOWN, *self.client.transport.failures),
            )
        except ApiProblem as e:
            e.command_id = command_id  # given up on: sent again with it, it is recorded once
            raise
        return _core.view_or_position(r.status, r.body, self.client.views)

    async def play(
        self, decide: Callable[[View], Any], stream: bool = False, wait: float = 30
    ) -> View:
        """As ``Seat.play``; ``decide`` may be a coroutine function. It reads whole views (the
        client's ``views`` decoder is for the caller's own reads)."""
        url = f"/tables/{self.table_id}/stream"
        views = _stream(self.client, url, self.headers, _core.view_decoder) if stream else None
        v: View = await self._view(_core.view_decoder)
        newest, acted = v.version, -1
        while v.status != "finished":
            newest = max(newest, v.version)
            command = decide(v) if _core.acting(v, newest, acted) else None
            if inspect.isawaitable(command):
                command = await command
            if command is not None:
                acted = v.version  # a 409 (a stale view) waits for a newer one
                answer: Any = None
                try:
                    answer = await self.send(_core.filled(command))
                except Conflict:
                    pass
                except RateLimited as e:
                    await asyncio.sleep(e.retry_after or 1.0)
                    acted = -1  # not recorded: acted on again
                    continue
                if isinstance(answer, View):
                    v = answer
                    continue
            v = await self._next_view(v, views, wait)
        return v

    async def _next_view(self, v: View, views: AsyncIterator[View] | None, wait: float) -> View:
        """As ``Seat._next_view``: the stream's next view, or a long poll's."""
        while True:
            try:
                if views is not None:
                    return await anext(views, None) or await self._view(_core.view_decoder)
                return await self._view(_core.view_decoder, after=v.version, timeout=wait)  # type: ignore[no-any-return]
            except RateLimited as e:
                await asyncio.sleep(e.retry_after or 1.0)


async def _stream(
    client: AsyncClient, url: str, headers: dict[str, str], views: Any = None
) -> AsyncIterator[View]:
    """As the blocking client's: views as Server-Sent Events, opened again after a pause when
    closed before the end, dropped, or refused for a while (503, 429), going on after the last
    event's id (Last-Event-ID), so no change is missed and none comes twice. Ends with the
    game."""
    last: str | None = None
    failures = 0
    while True:
        sent = {**headers, **({"Last-Event-ID": last} if last else {})}
        error: BaseException | None = None
        try:
            async with client.transport.stream(url, sent) as r:
                body = await r.read() if r.status >= 400 else b""
                if client.answered is not None:
                    client.answered("GET", url, None, Answer(r.status, body, r.headers))
                _core.check(r.status, body, r.headers)
                async for got in _core.sse_events_from(r.lines()):
                    if got is _core.END:  # the game is over (a reconnect after its last view)
                        return
                    event_id, data = got
                    last, failures = event_id or last, 0
                    view = (views or client.views).decode(data)
                    yield view
                    if getattr(view, "status", None) == "finished":
                        return
        except (*client.transport.failures, *_core.DROPS) as e:
            error = e
        await asyncio.sleep(_core.backoff(failures, error))
        failures += 1


async def _seated(seat: AsyncSeat) -> int:
    """As the blocking client's ``_seated``: the seat number of a seat not answered yet."""
    deadline = time.monotonic() + _core.SEAT_WAIT
    failures = 0
    while True:
        try:
            return _core.seat_of(await seat._view(_core.view_decoder, after=0, timeout=10))  # noqa: SLF001
        except (Forbidden, *_core.UNKNOWN) as e:
            if time.monotonic() >= deadline:
                if isinstance(e, ApiProblem):
                    e.token = seat.token
                raise
            await asyncio.sleep(_core.backoff(failures, e))
            failures += 1


async def _holds(client: AsyncClient, token: str) -> bool:
    """Whether ``token`` is a player's current token (an unknown outcome settled)."""
    try:
        await client._request("GET", "/players/me", headers=_core.bearer(token))  # noqa: SLF001
    except Forbidden:
        return False
    return True


async def _repeated(
    send: Callable[[], Awaitable[Any]],
    failures: type[BaseException] | tuple[type[BaseException], ...],
) -> Any:
    """``send``'s answer, sent again after an unknown outcome (a 503, a dropped connection):
    for requests whose repeat records nothing new (a command_id, a registration key)."""
    for attempt in range(_core.RETRIES - 1):
        try:
            return await send()
        except failures as e:
            await asyncio.sleep(_core.backoff(attempt, e))
    return await send()
