"""The blocking client: ``Client`` for the lobby and spectators, ``Seat`` for a player."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx

import gcbc_client._core as _core
import gcbc_client._players as _players
from gcbc_client.problems import ApiProblem, Conflict, Forbidden, RateLimited, Unavailable
from gcbc_client.transport import STREAM_CONNECT, STREAM_READ
from gcbc_contract.http import History, LobbyEvent, LobbyListing, Position, SeatLater, TableCreated
from gcbc_contract.options import Deadlines, Deal, HouseBots, TableOptions
from gcbc_contract.players import MyProfile, MyTable, PlayedGame, PlayerProfile
from gcbc_contract.queue import QueueState, SeatRange
from gcbc_contract.views import View

STREAM_TIMEOUT = httpx.Timeout(STREAM_CONNECT, read=STREAM_READ)
UNKNOWN = (*_core.UNKNOWN, httpx.TransportError)  # (outcome unknown: sent again)


class Client:
    def __init__(self, api: str = "http://127.0.0.1:8000", timeout: float = 70.0) -> None:
        self.http = httpx.Client(base_url=api, timeout=timeout)

    def close(self) -> None:
        self.http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *_: Any) -> None:
        self.close()

    def _request(self, method: str, url: str, **kw: Any) -> httpx.Response:
        r = self.http.request(method, url, **kw)
        _core.check(r.status_code, r.content, r.headers)
        return r

    # --- the lobby --------------------------------------------------------------------------
    def create_table(
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
        r = self._request("POST", "/tables", content=body, headers=_core.JSON)
        return _core.created(r.status_code, r.content)

    def tables(self, limit: int = 50) -> Iterator[LobbyListing]:
        """Every table waiting for players, oldest first, page after page."""
        url: str | None = f"/tables?limit={limit}"
        while url:
            r = self._request("GET", url)
            yield from _core.listings_decoder.decode(r.content)
            url = _core.next_page(r.headers)

    def table(self, table_id: str) -> View:
        """The public (spectator) view."""
        return _core.view_decoder.decode(self._request("GET", f"/tables/{table_id}").content)

    def history(self, table_id: str) -> History:
        r = self._request("GET", f"/tables/{table_id}/history")
        return _core.history_decoder.decode(r.content)

    def join(
        self,
        table_id: str,
        name: str,
        bot: bool = False,
        player_token: str | None = None,
        invitation: str | None = None,
    ) -> Seat:
        """Take a seat: a ``Seat`` holding its token. ``bot``: a program plays it (every view
        shows it). ``player_token``: a registered player's (``Player.join``): the seat is its.
        ``invitation``: a code from the table's creator, for the seat kept for it."""
        body = _core.seat_body(name, bot, invitation)
        headers = _core.bearer(player_token) if player_token else {}
        r = self._request("POST", f"/tables/{table_id}/seats", json=body, headers=headers)
        got = _core.seat_taken(r.status_code, r.content)
        seat = Seat(self, table_id, -1, got.token)
        if isinstance(got, SeatLater):  # recorded, not answered yet: the view will say
            seat.seat = _seated(seat)
        else:
            seat.seat = got.seat
        return seat

    def attach(self, table_id: str, token: str) -> Seat:
        """A seat from its saved token (another process, another device): its seat number read
        from its view (``Forbidden`` for a token that holds no seat there)."""
        seat = Seat(self, table_id, -1, token)
        seat.seat = _core.seat_of(seat.view())
        return seat

    # --- players ----------------------------------------------------------------------------
    def register(self, name: str, bot: bool = False) -> Player:
        """A new player: a ``Player`` holding its token (shown once: keep it to come back with
        ``as_player``). ``bot``: a program plays as it (its seats show it). An answer lost (a
        dropped connection, a 503) is asked again with the same registration key: one player."""
        body = _players.register_body(name, bot)
        r = _repeated(lambda: self._request("POST", "/players", content=body, headers=_core.JSON))
        got = _players.registered_decoder.decode(r.content)
        return Player(self, got.player_id, got.name, got.bot, got.token)

    def player(self, player_id: str) -> PlayerProfile:
        """A player's public profile."""
        return _players.profile_decoder.decode(
            self._request("GET", f"/players/{player_id}").content
        )

    def games(self, player_id: str, page: int = 20) -> Iterator[PlayedGame]:
        """A player's finished games, newest first, page after page."""
        before: int | None = None
        while True:
            r = self._request("GET", _players.games_url(player_id, page, before))
            got = _players.games_decoder.decode(r.content)
            yield from got.games
            if got.next is None:
                return
            before = got.next

    def export_games(self, player_id: str, most: int | None = None) -> Iterator[PlayedGame]:
        """Every finished game of a player, newest first, as the server exports them (JSON
        lines, one PlayedGame a line, as Lichess exports a player's games), each decoded as it
        comes; ``most``: at most this many."""
        with _opened(self.http, _players.export_url(player_id, most)) as r:
            for line in r.iter_lines():
                if line:
                    yield _players.game_decoder.decode(line)

    def as_player(self, token: str) -> Player:
        """The player a saved token is (another process, another device)."""
        r = self._request("GET", "/players/me", headers=_core.bearer(token))
        got = _players.me_decoder.decode(r.content)
        return Player(self, got.player_id, got.name, got.bot, token)

    def lobby(self) -> Iterator[LobbyEvent]:
        """The lobby's changes as they happen (GET /lobby/stream): each table waiting for
        players first (``listed``), then ``listed``, ``seats``, ``filled``, ``started``,
        ``closed``; after a drop it reconnects and starts again with the lobby as it is."""
        failures = 0
        while True:
            error: BaseException | None = None
            try:
                with _opened(self.http, "/lobby/stream") as r:
                    for _, data in _core.sse_events(r.iter_lines()):
                        failures = 0
                        yield _core.lobby_event_decoder.decode(data)
            except (httpx.TransportError, *_core.DROPS) as e:
                error = e
            time.sleep(_core.backoff(failures, error))  # closed or dropped: again, in a while
            failures += 1

    def watch(self, table_id: str) -> Iterator[View]:
        """The public view at every change (Server-Sent Events, resumed after a drop)."""
        return _stream(self.http, f"/tables/{table_id}/stream", {})


class Player:
    """A registered player, acting with its token: it takes seats (each a ``Seat`` with the
    seat's own token), lists its tables and picks up the seat it holds at one (``seat``)."""

    def __init__(self, client: Client, player_id: str, name: str, bot: bool, token: str) -> None:
        self.client, self.player_id, self.name, self.bot = client, player_id, name, bot
        self.token = token

    def _request(self, method: str, path: str, **kw: Any) -> httpx.Response:
        headers = {**_core.bearer(self.token), **kw.pop("headers", {})}
        return self.client._request(method, path, headers=headers, **kw)  # noqa: SLF001

    def join(
        self,
        table_id: str,
        name: str | None = None,
        bot: bool = False,
        invitation: str | None = None,
    ) -> Seat:
        """Take a seat as this player (under its name unless ``name``)."""
        return self.client.join(
            table_id, name or self.name, bot, player_token=self.token, invitation=invitation
        )

    def me(self) -> MyProfile:
        """The player as the server has it, with its place in the queue (``queue``: None if
        it is not in it)."""
        return _players.me_decoder.decode(self._request("GET", "/players/me").content)

    def tables(self, limit: int = 50) -> list[MyTable]:
        """The player's tables (waiting, playing, finished), newest first, each with its seat."""
        r = self._request("GET", f"/players/me/tables?limit={limit}")
        return _players.tables_decoder.decode(r.content).tables

    def seat(self, table_id: str) -> Seat:
        """The seat the player holds at a table, acting with the player's token (from any
        device; ``Forbidden`` if it holds none there)."""
        return self.client.attach(table_id, self.token)

    def new_token(self) -> str:
        """Replace the player's token (the old one stops working): the new one, kept here. An
        unknown outcome is settled by asking with the new token: kept if it holds."""
        try:
            r = self._request("POST", "/players/me/token")
        except Unavailable as e:
            if e.token is None or not _holds(self.client, e.token):
                raise
            self.token = e.token
            return e.token
        got = _players.token_decoder.decode(r.content)
        self.token = got.token
        return got.token

    def queue(
        self,
        seats: list[int] | range | SeatRange,
        options: TableOptions | dict | None = None,
        rated: bool = False,
        bots_after: float | None = None,
    ) -> QueueState:
        """Join the queue (quick play): ``seats`` the counts accepted (a list, or a range such
        as ``range(4, 7)``); ``bots_after``: seconds after which the house's bots fill the
        table. ``Conflict`` if the player waits already or plays at a table."""
        body = _players.join_queue(seats, options, rated, bots_after)
        r = self._request("POST", "/queue", content=body, headers=_core.JSON)
        return _players.queue_decoder.decode(r.content)

    def queue_state(self, after: int | None = None, timeout: float = 0) -> QueueState:
        """The player's place in the queue; with ``after`` (a ``version``), once it changes (or
        after ``timeout`` seconds)."""
        r = self._request("GET", "/queue" + _core.long_poll(after, timeout))
        return _players.queue_decoder.decode(r.content)

    def wait_seated(self, timeout: float = 600) -> QueueState:
        """Long-poll the queue until the player is seated (or no longer waits, or ``timeout``
        seconds pass): the last place read."""
        deadline = time.monotonic() + timeout
        state = self.queue_state()
        while state.status == "waiting" and time.monotonic() < deadline:
            wait = min(30.0, max(0.0, deadline - time.monotonic()))
            state = self.queue_state(after=state.version, timeout=wait)
        return state

    def leave_queue(self) -> None:
        """Leave the queue (``Conflict`` if the player is not waiting in it)."""
        self._request("DELETE", "/queue")


class Seat:
    """One seat of one table, acting with its bearer token."""

    def __init__(self, client: Client, table_id: str, seat: int, token: str) -> None:
        self.client, self.table_id, self.seat, self.token = client, table_id, seat, token
        self.headers = _core.bearer(token)

    def _request(self, method: str, path: str, **kw: Any) -> httpx.Response:
        headers = {**self.headers, **kw.pop("headers", {})}
        return self.client._request(  # noqa: SLF001
            method, f"/tables/{self.table_id}{path}", headers=headers, **kw
        )

    def view(self, after: int | None = None, timeout: float = 0) -> View:
        """The seat's view; with ``after``, once its version is greater (or after ``timeout``)."""
        url = "/view" + _core.long_poll(after, timeout)
        # a read is safe to repeat after a dropped connection (a kept-alive one the server closed)
        r = _repeated(lambda: self._request("GET", url), httpx.TransportError)
        return _core.view_decoder.decode(r.content)

    def stream(self) -> Iterator[View]:
        """The seat's view at every change (Server-Sent Events, resumed after a drop)."""
        return _stream(self.client.http, f"/tables/{self.table_id}/stream", self.headers)

    def start(self) -> View | Position:
        r = self._request("POST", "/start")
        return _core.view_or_position(r.status_code, r.content)

    def leave(self) -> None:
        """Before the start the seat is free again; after it, the seat is away (its autopilot
        plays) until ``resume`` or any command brings it back."""
        self._request("DELETE", f"/seats/{self.seat}")

    def rematch(self) -> Seat:
        """After a finished game: your seat at the rematch (a new table, the same seats)."""
        # asked again after an unknown outcome: the server answers the same seat and token
        r = _repeated(lambda: self._request("POST", "/rematch"))
        got = _core.rematch_decoder.decode(r.content)
        return Seat(self.client, got.table_id, got.seat, got.token)

    def chat(self, text: str) -> Position:
        return _core.position_decoder.decode(
            self._request("POST", "/chat", json={"text": text}).content
        )

    def send(self, command: Any, command_id: str | None = None) -> View | Position:
        """Send a command: the view once it shows the outcome, or the position if that takes
        longer. An unknown outcome (503, a dropped connection) is retried with the same
        command_id, so it is recorded once; a refusal raises its problem."""
        body, command_id = _core.command_body(command, command_id)
        try:
            r = _repeated(
                lambda: self._request("POST", "/commands", content=body, headers=_core.JSON)
            )
        except ApiProblem as e:
            e.command_id = command_id  # given up on: sent again with it, it is recorded once
            raise
        return _core.view_or_position(r.status_code, r.content)

    def play(self, decide: Callable[[View], Any], stream: bool = False, wait: float = 30) -> View:
        """Play the seat to the end of the game; the final view. At each view where the table
        waits for the seat (``must_act``), what ``decide(view)`` returns is sent (a template
        filled at random; None: nothing). It acts only on the latest view: a 409 means the view
        was stale (another seat moved first), so it looks again; a 429 waits as told. Views come
        by long polls of ``wait`` seconds, or from the seat's stream."""
        views = self.stream() if stream else None
        v = self.view()
        newest, acted = v.version, -1
        while v.status != "finished":
            newest = max(newest, v.version)
            command = decide(v) if _core.acting(v, newest, acted) else None
            if command is not None:
                acted = v.version  # a 409 (a stale view) waits for a newer one
                answer: View | Position | None = None
                try:
                    answer = self.send(_core.filled(command))
                except Conflict:
                    pass
                except RateLimited as e:
                    time.sleep(e.retry_after or 1.0)
                    acted = -1  # not recorded: acted on again
                    continue
                if isinstance(answer, View):
                    v = answer
                    continue
            v = self._next_view(v, views, wait)
        return v

    def _next_view(self, v: View, views: Iterator[View] | None, wait: float) -> View:
        """The view after ``v``: the stream's next, or a long poll's (a 429 waits as told)."""
        while True:
            try:
                if views is not None:
                    return next(views, None) or self.view()
                return self.view(after=v.version, timeout=wait)
            except RateLimited as e:
                time.sleep(e.retry_after or 1.0)


def _stream(http: httpx.Client, url: str, headers: dict[str, str]) -> Iterator[View]:
    """Views as Server-Sent Events; a stream closed before its end (the server lets go when NATS
    or Redis is away), dropped, or refused for a while (503, 429) is opened again after a
    pause, going on after the last event's id (Last-Event-ID). Ends with the game."""
    last: str | None = None
    failures = 0
    while True:
        sent = {**headers, **({"Last-Event-ID": last} if last else {})}
        error: BaseException | None = None
        try:
            with _opened(http, url, sent) as r:
                for got in _core.sse_events(r.iter_lines()):
                    if got is _core.END:  # the game is over (a reconnect after its last view)
                        return
                    event_id, data = got
                    last, failures = event_id or last, 0
                    view = _core.view_decoder.decode(data)
                    yield view
                    if view.status == "finished":
                        return
        except (httpx.TransportError, *_core.DROPS) as e:
            error = e
        time.sleep(_core.backoff(failures, error))
        failures += 1


def _seated(seat: Seat) -> int:
    """The seat number of a seat recorded but not answered yet: its view, once the table knows
    its token (403 till then; 503 while Redis is away), asked for a while; what is raised at the
    end carries the seat's ``token``, which may hold it still."""
    deadline = time.monotonic() + _core.SEAT_WAIT
    failures = 0
    while True:
        try:
            return _core.seat_of(seat.view(after=0, timeout=10))
        except (Forbidden, *UNKNOWN) as e:
            if time.monotonic() >= deadline:
                if isinstance(e, ApiProblem):
                    e.token = seat.token
                raise
            time.sleep(_core.backoff(failures, e))
            failures += 1


def _holds(client: Client, token: str) -> bool:
    """Whether ``token`` is a player's current token (an unknown outcome settled)."""
    try:
        client._request("GET", "/players/me", headers=_core.bearer(token))  # noqa: SLF001
    except Forbidden:
        return False
    return True


@contextmanager
def _opened(
    http: httpx.Client, url: str, headers: dict[str, str] | None = None
) -> Iterator[httpx.Response]:
    """A stream's answer as it opens (its problem raised if it is a refusal)."""
    with http.stream("GET", url, headers=headers, timeout=STREAM_TIMEOUT) as r:
        if r.status_code >= 400:
            r.read()
            _core.check(r.status_code, r.content, r.headers)
        yield r


def _repeated(
    send: Callable[[], httpx.Response],
    failures: type[BaseException] | tuple[type[BaseException], ...] = UNKNOWN,
) -> httpx.Response:
    """``send``'s answer, sent again after an unknown outcome (a 503, a dropped connection):
    for requests whose repeat records nothing new (a command_id, a registration key)."""
    for attempt in range(_core.RETRIES - 1):
        try:
            return send()
        except failures as e:
            time.sleep(_core.backoff(attempt, e))
    return send()
