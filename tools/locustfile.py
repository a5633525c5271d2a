"""Load test of a Good Cop Bad Cop deployment with locust (``make load``; docs/load-testing.md).

Every locust user here is bots playing through the typed client (``clients/python``), exactly as
a third-party client would; a user of the two table classes is a whole table (4-8 seats):

- ``HumanTable``: people at a table. Each seat follows its view (Server-Sent Events or long-poll,
  ``--views``) and acts after a think time (``--think``); the report's ``PUSH`` rows time each
  command's POST to every changed seat view arriving at its seat.
- ``ClosedLoopTable``: bots that send the next command as soon as the previous answer came.
- ``Spectator``: watches a table in play (its public stream) for a while, then another.
- ``LobbyChurn``: lists the lobby, opens tables, joins and leaves seats (nothing starts).

Requests are named by route (``/tables/{id}/commands``), never by table id. Every answer that is
not 2xx is a failure named ``HTTP <status> <code>`` on its route (the CSV's ``*_failures.csv``),
so nothing is dropped: ``409``/``422`` (a seat acted on a view another seat had just made stale)
and ``429`` (the server's rate limits: the request is sent again after ``Retry-After``) are
expected in small numbers; a ``5xx``, a broken connection or an exception in this file are not, and make the
run exit 1. ``GAME`` rows count finished games (response time: the game's length).

    locust -f tools/locustfile.py --headless --host http://127.0.0.1:8000 -u 20 -r 5 -t 60s
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import logging
import random
import re
import time
from collections.abc import Callable, Iterator
from typing import Any

import gevent
import httpx
import msgspec
from gcbc_client import Client, Seat, _core
from gcbc_client.problems import ApiProblem, Conflict, Invalid
from gevent.event import Event
from locust import User, between, constant, events, task

from gcbc.bots import BOTS, Observation
from gcbc_contract.views import View

logging.getLogger("httpx").setLevel(logging.WARNING)  # a line per request otherwise

RATE_LIMIT_RETRIES = 10  # a 429 is sent again after its Retry-After, this many times at most
SSE_RETRY = 0.5  # seconds before a dropped stream is opened again (a 429 waits Retry-After)


@events.init_command_line_parser.add_listener
def _options(parser: Any) -> None:
    g = parser.add_argument_group("Good Cop Bad Cop")
    g.add_argument("--think", default="1-3", help="HumanTable: seconds a seat thinks (min-max)")
    g.add_argument("--seats", default="4-8", help="seats per table (min-max)")
    g.add_argument(
        "--views",
        choices=("sse", "longpoll", "mixed"),
        default="mixed",
        help="how HumanTable seats follow their views (mixed: every other table long-polls)",
    )
    g.add_argument("--bot", choices=sorted(BOTS), default="random", help="how the bots choose")
    g.add_argument("--watch", default="5-20", help="Spectator: seconds on one table (min-max)")


def _range(text: str) -> tuple[float, float]:
    low, _, high = text.partition("-")
    return float(low), float(high or low)


def option(user: User, name: str, default: str) -> str:
    parsed = user.environment.parsed_options
    return str(getattr(parsed, name, default)) if parsed is not None else default


# --- naming and counting -------------------------------------------------------------------


def route(url: str, params: Any = None) -> str:
    """``/tables/3f…/seats/2?x=1`` -> ``/tables/{id}/seats/{seat}``; long-polls apart (they last)."""
    path = url.split("?", 1)[0]
    path = re.sub(r"^/tables/[^/]+", "/tables/{id}", path)
    path = re.sub(r"/seats/\d+$", "/seats/{seat}", path)
    if params and "after" in params:
        path += "?after (long-poll)"
    return path


def status_error(status: int, body: bytes) -> str:
    """The failure's name: the status and the problem's stable code."""
    try:
        code = msgspec.json.decode(body).get("code", "")
    except (msgspec.DecodeError, AttributeError):
        code = ""
    return f"HTTP {status} {code}".rstrip()


def transport_error(e: Exception) -> str:
    return f"connection: {type(e).__name__}"


def fire(user: User, kind: str, name: str, started: float, length: int = 0, error: Any = None):
    user.environment.events.request.fire(
        request_type=kind,
        name=name,
        response_time=(time.perf_counter() - started) * 1000,
        response_length=length,
        exception=error,
        context={},
    )


def unexpected(error: str) -> bool:
    """5xx and broken connections: the server failed, not the bots' choices or the limits."""
    return error.startswith("connection:") or bool(re.match(r"HTTP 5\d\d", error))


@events.quitting.add_listener
def _exit_code(environment: Any, **_: Any) -> None:
    """Exit 1 on unexpected failures only: 409s, 422s and 429s are part of a game under load."""
    stats = environment.runner.stats if environment.runner else None
    if stats is None:
        return
    bad = sum(e.occurrences for e in stats.errors.values() if unexpected(str(e.error)))
    crashed = len(environment.runner.exceptions)
    if bad or crashed:
        print(f"load: {bad} unexpected failures (5xx, connections), {crashed} harness exceptions")
    environment.process_exit_code = 1 if bad or crashed else 0


class LoadClient(Client):
    """The typed client, reporting every request to locust (time, size, status) and sending a
    refused-for-rate request again once its Retry-After has passed."""

    def __init__(self, user: User) -> None:
        super().__init__(user.host, timeout=70)
        self.user = user

    def _request(self, method: str, url: str, **kw: Any) -> httpx.Response:
        name = route(url, kw.get("params"))
        for attempt in range(RATE_LIMIT_RETRIES + 1):
            started = time.perf_counter()
            try:
                r = self.http.request(method, url, **kw)
            except httpx.HTTPError as e:
                fire(self.user, method, name, started, 0, transport_error(e))
                raise
            ok = 200 <= r.status_code < 300
            error = None if ok else status_error(r.status_code, r.content)
            fire(self.user, method, name, started, len(r.content), error)
            if r.status_code == 429 and attempt < RATE_LIMIT_RETRIES:
                gevent.sleep(_core.retry_after(r.headers))
                continue
            _core.check(r.status_code, r.content, r.headers)
            return r
        raise AssertionError("unreachable")

    def stream(self, url: str, headers: dict[str, str]) -> Iterator[tuple[View, bool]]:
        """Views as Server-Sent Events, resumed after a drop with Last-Event-ID, each with
        whether it was pushed (False: the first of a connection, the view as it already was).
        The opening is reported (time to the answer's headers); a refusal waits its Retry-After."""
        name, last = route(url), None
        while True:
            sent = {**headers, **({"Last-Event-ID": last} if last else {})}
            started = time.perf_counter()
            try:
                with self.http.stream(
                    "GET", url, headers=sent, timeout=httpx.Timeout(30, read=90)
                ) as r:
                    if r.status_code >= 300:
                        r.read()
                        error = status_error(r.status_code, r.content)
                        fire(self.user, "GET", name, started, 0, error)
                        if r.status_code != 429:
                            _core.check(r.status_code, r.content, r.headers)
                        gevent.sleep(_core.retry_after(r.headers))
                        continue
                    fire(self.user, "GET", name, started)
                    for n, got in enumerate(_core.sse_events(r.iter_lines())):
                        if got is _core.END:  # the game is over
                            return
                        event_id, data = got
                        last = event_id or last
                        view = _core.view_decoder.decode(data)
                        yield view, n > 0
                        if view.status == "finished":
                            return
            except httpx.HTTPError as e:
                fire(self.user, "GET", name + " (open stream)", started, 0, transport_error(e))
                gevent.sleep(SSE_RETRY)


def guarded(fn: Callable) -> Callable:
    """A refusal or a broken connection is already counted (its request failed): the user drops
    what it was doing and goes on. Anything else is a bug here, and locust reports it."""

    @functools.wraps(fn)
    def run(self: Any) -> None:
        try:
            fn(self)
        except (ApiProblem, httpx.HTTPError):
            if getattr(self, "table", None) is not None:
                self.table.close()
            self.table = None
            gevent.sleep(1)

    return run


# --- a table of bots -----------------------------------------------------------------------

# a follower greenlet ends on a refusal or broken connection (counted as a failure)
_quiet = functools.partial(contextlib.suppress, ApiProblem, httpx.HTTPError)
IN_PLAY: dict[str, Table] = {}  # tables started by this process's users (spectators pick here)
CHURN_LOBBY: list[str] = []  # tables opened by LobbyChurn users (the only ones they join)
TABLE_NUMBER = itertools.count()  # HumanTable's --views mixed: every other table long-polls
CHURN_NUMBER = itertools.count()  # names are unique at a table: each churn seat its own


def actionable(v: View, seat: int) -> bool:
    return v.must_act and any(w.seat == seat for w in v.waiting_for)


class Table:
    """A table this user created and filled with bots: every seat, its latest view, its bot."""

    def __init__(self, user: User, client: LoadClient, seats: int, bot: str) -> None:
        self.user, self.client = user, client
        self.id = client.create_table(seats).table_id
        self.seats: dict[int, Seat] = {}
        for i in range(seats):
            s = client.join(self.id, f"load-{i}")
            self.seats[s.seat] = s
        self.bots = {n: BOTS[bot](random.randrange(1 << 30)) for n in self.seats}
        self.views: dict[int, View] = {}
        self.waiting = list(self.seats)
        self.finished = False
        self.started = time.perf_counter()
        self.commands = 0
        self.changed = Event()
        self.post: tuple[float, int] | None = None  # the last command: (sent at, view version)
        self.pushed: set[Any] = set()  # who received a view since that command
        self.watchers: list[gevent.Greenlet] = []
        answer = next(iter(self.seats.values())).start()
        if isinstance(answer, View):
            self.seen(answer.you.seat if answer.you else -1, answer)
        IN_PLAY[self.id] = self

    def close(self) -> None:
        """Stop following the table (before its client closes: a request cut by the client's
        own closing would be counted as a broken connection)."""
        IN_PLAY.pop(self.id, None)
        gevent.killall(self.watchers, block=True, timeout=5)

    def seen(self, seat: int, v: View, who: Any = None) -> None:
        """A view arrived (a stream, a long-poll, an answer): keep it, time its push."""
        if who is not None and self.post and v.version > self.post[1] and who not in self.pushed:
            self.pushed.add(who)
            kind = "seat view" if isinstance(who, int) else "public view"
            fire(self.user, "PUSH", f"POST command -> {kind} received", self.post[0])
        old = self.views.get(seat)
        if seat >= 0 and (old is None or v.version >= old.version):
            self.views[seat] = v
        if v.status == "finished" and not self.finished:
            self.finished = True
            fire(self.user, "GAME", "table finished", self.started, self.commands)
            IN_PLAY.pop(self.id, None)  # its followers end with the game's last view
        self.changed.set()

    def send(self, seat: int, v: View) -> None:
        """The seat's bot answers its view ``v``."""
        command = self.bots[seat].act(Observation(seat, lambda: v))
        self.post, self.pushed = (time.perf_counter(), v.version), set()
        self.commands += 1
        try:
            answer = self.seats[seat].send(command)
        except (Conflict, Invalid):  # a stale view (counted): look again
            self.waiting = list(self.seats)
            return
        if isinstance(answer, View):
            self.waiting = sorted({w.seat for w in answer.waiting_for}) or list(self.seats)
            self.seen(seat, answer)

    # --- closed loop: no streams, each seat's view read when it is its turn ------------------
    def step(self) -> None:
        seat = random.choice(self.waiting)
        v = self.seats[seat].view()
        self.seen(seat, v)
        if self.finished:
            return
        if actionable(v, seat):
            self.send(seat, v)
            return
        self.waiting = sorted({w.seat for w in v.waiting_for})
        if not self.waiting:  # nobody to act right now (a pause in the game): wait for a change
            self.seen(seat, self.seats[seat].view(after=v.version, timeout=2))
            self.waiting = list(self.seats)

    # --- people: every seat follows its own view -------------------------------------------
    def follow(self, mode: str) -> None:
        for n, seat in self.seats.items():
            follow = self._stream if mode == "sse" else self._long_poll
            self.watchers.append(gevent.spawn(follow, n, seat))

    def _stream(self, n: int, seat: Seat) -> None:
        with _quiet():
            for v, pushed in self.client.stream(f"/tables/{self.id}/stream", seat.headers):
                self.seen(n, v, who=n if pushed else None)

    def _long_poll(self, n: int, seat: Seat) -> None:
        with _quiet():
            v = seat.view()
            self.seen(n, v)
            while v.status != "finished":
                v = seat.view(after=v.version, timeout=20)
                self.seen(n, v, who=n)

    def ready(self) -> int | None:
        """A seat whose latest view asks it to act."""
        ready = [n for n, v in self.views.items() if actionable(v, n)]
        return random.choice(ready) if ready else None


class ClientUser(User):
    """A user with a client of its own, closed when it stops."""

    abstract = True

    def on_start(self) -> None:
        self.client = LoadClient(self)

    def on_stop(self) -> None:
        self.client.close()

    def seats(self) -> int:
        """A table's seat count, in the range the ``seats`` option gives."""
        low, high = _range(option(self, "seats", "4-8"))
        return random.randint(int(low), int(high))


class TableUser(ClientUser):
    abstract = True
    table: Table | None = None

    def on_stop(self) -> None:
        if self.table is not None:
            self.table.close()
        super().on_stop()

    def open_table(self) -> Table:
        if self.table is not None:
            self.table.close()
        self.table = Table(self, self.client, self.seats(), option(self, "bot", "random"))
        return self.table


class HumanTable(TableUser):
    """People at a table: each seat follows its view (SSE or long-poll) and thinks before acting."""

    weight = 3

    def wait_time(self) -> float:
        return random.uniform(*_range(option(self, "think", "1-3")))

    @task
    @guarded
    def play(self) -> None:
        t = self.table
        if t is None or t.finished or all(w.dead for w in t.watchers):  # over, or lost
            t = self.open_table()
            mode = option(self, "views", "mixed")
            if mode == "mixed":
                mode = "sse" if next(TABLE_NUMBER) % 2 == 0 else "longpoll"
            t.follow(mode)
            return
        seat = t.ready()
        if seat is None:
            t.changed.clear()
            t.changed.wait(5)
            return
        t.send(seat, t.views[seat])


class ClosedLoopTable(TableUser):
    """Bots that send each command as soon as the answer to the previous one came."""

    weight = 1
    wait_time = constant(0)

    @task
    @guarded
    def play(self) -> None:
        if self.table is None or self.table.finished:
            self.open_table()
        assert self.table is not None
        self.table.step()


class Spectator(ClientUser):
    """Watches a table in play (its public stream) for a while, then another; the lobby when no
    table is in play."""

    weight = 2
    wait_time = between(1, 3)
    table = None

    @task
    @guarded
    def watch(self) -> None:
        tables = [t for t in IN_PLAY.values() if not t.finished]
        if not tables:
            next(self.client.tables(), None)  # one lobby page
            return
        t = random.choice(tables)
        t.seen(-1, self.client.table(t.id))
        views = self.client.stream(f"/tables/{t.id}/stream", {})
        try:
            with gevent.Timeout(random.uniform(*_range(option(self, "watch", "5-20"))), False):
                for v, pushed in views:
                    t.seen(-1, v, who=self if pushed else None)
        finally:
            views.close()


class LobbyChurn(ClientUser):
    """Lists the lobby, opens tables, takes seats and leaves them again: nothing starts."""

    weight = 1
    wait_time = between(1, 3)
    table = None

    @task(3)
    @guarded
    def browse(self) -> None:
        next(self.client.tables(), None)  # the first page, as a lobby screen shows it

    @task(2)
    @guarded
    def open_and_leave(self) -> None:
        table_id = self.client.create_table(self.seats()).table_id
        CHURN_LOBBY.append(table_id)
        del CHURN_LOBBY[:-200]
        seat = self.client.join(table_id, f"churn-{next(CHURN_NUMBER)}")
        gevent.sleep(random.uniform(0.5, 2))
        seat.leave()

    @task(2)
    @guarded
    def join_and_leave(self) -> None:
        if not CHURN_LOBBY:
            return
        seat = self.client.join(random.choice(CHURN_LOBBY), f"churn-{next(CHURN_NUMBER)}")
        gevent.sleep(random.uniform(0.5, 2))
        seat.leave()
