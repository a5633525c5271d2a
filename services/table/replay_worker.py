"""What the replay worker process does (``services.table.replays`` runs it): read a finished
table's log, fold it once, keep the recent tables' states, and answer a replay step's view or a
history as bytes. Reading and folding a log is CPU work that grows with the log, whose length
players choose: here it never holds the table service's event loop (nor its GIL).

The worker reads the log through its own connection, on an event loop of its own in a thread
(the connection stays answered while a fold runs). It keeps folded tables while their logs add
up to at most ``keep_entries`` entries' worth (``weight``: a log of long chat messages weighs more
than its count; the least recently asked for leaves first), and only finished ones: a finished
log never changes."""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Coroutine
from typing import Any

import msgspec

from gcbc.eventlog.port import EventLog, LogUnavailable, Stored
from gcbc.rules import view
from gcbc.rules.state import State
from gcbc_contract.entries import OutcomeEntry
from gcbc_contract.http import History, ReplayStep, shown_event
from services.common.folded import FoldedTable
from services.common.runner import die_with_parent
from services.common.settings import DEFAULT_NATS
from services.table.played import game_of

# what the worker may answer instead of the bytes asked for
UNKEPT = "unkept"  # the table is not kept here, and its log may not be read for it
NO_TABLE = "no_table"
NOT_FINISHED = "not_finished_yet"
NO_SUCH_SEAT = "no_such_seat"
TOO_LONG = "log_too_long"
GAME_FACTOR = 5  # a game's summary (no state kept per step) folds a log this many times longer
# what keeping a folded entry costs, about; an entry whose record is larger weighs as that many
# (a long chat message's text is held once, and a state made for it)
ENTRY_BYTES = 500
LOG_UNAVAILABLE = "log_unavailable"

CONNECT_SECONDS = 10.0  # the log's connection, at most, before a request is answered 503
READ_SECONDS = 60.0  # a log's read, at most (the adapter gives up sooner)


class Answer(msgspec.Struct, frozen=True):
    """The worker's answer: ``body`` (the JSON asked for), or a ``problem`` (one of the names
    above); ``kept``: the table is kept folded now; ``dropped``: the tables let go meanwhile (so
    its parent knows which are kept); ``entries``: the log's, when it was read."""

    body: bytes = b""
    problem: str | None = None
    kept: bool = False
    dropped: tuple[str, ...] = ()
    entries: int = 0


class Setup(msgspec.Struct, frozen=True):
    nats_url: str = DEFAULT_NATS
    stream_replicas: int = 1
    max_entries: int = 20_000
    keep_entries: int = 200_000
    log_limit: int = 50
    chat_limit: int = 50


class _Kept:
    __slots__ = ("entries", "players", "states", "weight")

    def __init__(self, states: list[State], players: list[dict[int, str]], stored: list[Stored]):
        self.states = states  # the state after each answered command that changed it
        self.players = players  # the registered players holding the seats at each state
        self.entries = len(stored)  # its log's entries
        self.weight = weight(stored)  # what keeping it costs, in entries


_setup = Setup()
_kept: dict[str, _Kept] = {}  # the most recently asked for last
_read: Callable[[str, int], list[Stored]] | None = None


def main(setup: Setup) -> None:
    """The worker's composition root (the pool's initializer): the log read through a
    connection of its own, on an event loop in a thread."""
    from gcbc.eventlog.jetstream import JetStreamEventLog

    global _setup, _read
    _setup = setup
    # Ctrl-C reaches the whole process group: the table service stops its worker itself
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = multiprocessing.parent_process()
    service = parent.pid if parent is not None and parent.pid else os.getppid()
    die_with_parent(signal.SIGKILL)  # no worker left behind, even before _orphaned looks
    if os.getppid() != service:
        os._exit(0)  # the service died while this worker was starting: no signal will come
    threading.Thread(target=_orphaned, args=(service,), daemon=True).start()
    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, name="log", daemon=True).start()
    _read = _reader(
        lambda: JetStreamEventLog.connect(setup.nats_url, setup.stream_replicas, create=False),
        loop,
    )


def _orphaned(parent: int) -> None:
    """End the worker once its table service is gone (killed, it cannot say so)."""
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(0)


def _reader(
    connect: Callable[[], Coroutine[Any, Any, EventLog]], loop: asyncio.AbstractEventLoop
) -> Callable[[str, int], list[Stored]]:
    """Reads on ``loop``, connected from now on (again after a connection that failed): a
    table's first entries, at most the number asked for."""
    connected = asyncio.run_coroutine_threadsafe(connect(), loop)

    def read(table_id: str, most: int) -> list[Stored]:
        nonlocal connected
        if connected.done() and connected.exception() is not None:
            connected = asyncio.run_coroutine_threadsafe(connect(), loop)
        try:
            events = connected.result(timeout=CONNECT_SECONDS)
        except concurrent.futures.TimeoutError:
            raise LogUnavailable("not connected yet") from None
        reading = events.read(table_id, most=most)
        return asyncio.run_coroutine_threadsafe(reading, loop).result(READ_SECONDS)

    return read


def use(setup: Setup, read: Callable[[str, int], list[Stored]]) -> None:
    """Tests: this process is the worker, its logs read by ``read`` (a table, the most entries)."""
    global _setup, _read
    _setup, _read = setup, read
    _kept.clear()


def ready() -> bool:
    """Nothing: the first call starts the process before a client waits for it."""
    return True


def replay_step(table_id: str, step: int, seat: int | None, read: bool) -> Answer:
    """The view ``seat`` (None: a spectator) had at ``step`` of the finished table, as
    ``GET /tables/{table_id}/replay`` answers it; ``read``: the table's log may be read (it is
    not kept here)."""
    kept = _kept.pop(table_id, None)
    entries = 0
    if kept is None:
        if not read:
            return Answer(problem=UNKEPT)
        folded = _fold(table_id)
        if isinstance(folded, Answer):
            return folded
        kept = folded[0]
        entries = kept.entries
    dropped = _keep(table_id, kept)
    states = kept.states
    final = states[-1]
    if seat is not None and seat >= len(final.seats):
        return Answer(problem=NO_SUCH_SEAT, kept=table_id in _kept, dropped=dropped)
    step = min(step, len(states))
    s = states[step - 1]
    viewer = seat if seat is not None and s.seats and s.seats[seat] is not None else None
    v = view(
        s,
        viewer,
        log_limit=_setup.log_limit,
        chat_limit=_setup.chat_limit,
        players=kept.players[step - 1],
    )
    body = msgspec.json.encode(ReplayStep(step=step, steps=len(states), view=v))
    return Answer(body=body, kept=table_id in _kept, dropped=dropped, entries=entries)


def history(table_id: str) -> Answer:
    """Every event of the finished table, as ``GET /tables/{table_id}/history`` answers them (its
    states are kept too: a replay often follows)."""
    folded = _fold(table_id)
    if isinstance(folded, Answer):
        return folded
    kept, events = folded
    dropped = _keep(table_id, _kept.pop(table_id, kept))
    body = msgspec.json.encode(History(table_id=table_id, events=[shown_event(e) for e in events]))
    return Answer(body=body, kept=table_id in _kept, dropped=dropped, entries=kept.entries)


def game(table_id: str) -> Answer:
    """The finished table as its players' histories list it (``PlayedGame``, ``null`` for a
    table closed before its game began); not kept: each is asked for once. It keeps no state per
    step, as a replay does: a log ``GAME_FACTOR`` times as long is folded for it."""
    stored = _log(table_id, _setup.max_entries * GAME_FACTOR)
    if isinstance(stored, Answer):
        return stored
    t = FoldedTable(table_id)
    finished_at = 0.0
    for s in stored:
        t.apply(s)
        finished_at = s.at or finished_at
    if t.state.step != "finished":
        return Answer(problem=NOT_FINISHED, entries=len(stored))
    return Answer(body=msgspec.json.encode(game_of(t, finished_at)), entries=len(stored))


def _log(table_id: str, most: int | None = None) -> list[Stored] | Answer:
    """The table's log, or why it is not folded here (not read, no table, longer than ``most``
    entries: the setup's most by default). One entry past the most is read, never the rest."""
    assert _read is not None, "main() first"
    most = most or _setup.max_entries
    try:
        stored = _read(table_id, most + 1)
    except (LogUnavailable, TimeoutError, concurrent.futures.TimeoutError):
        return Answer(problem=LOG_UNAVAILABLE)
    if not stored:
        return Answer(problem=NO_TABLE)
    if len(stored) > most:
        return Answer(problem=TOO_LONG, entries=len(stored))
    return stored


def _fold(table_id: str) -> tuple[_Kept, list[Any]] | Answer:
    """The table's states after each answered command that changed it, and its every event;
    or why there is nothing to show (no table, not finished, a log too long)."""
    stored = _log(table_id)
    if isinstance(stored, Answer):
        return stored
    t = FoldedTable(table_id)
    states: list[State] = []
    players: list[dict[int, str]] = []
    events: list[Any] = []
    for s in stored:
        entry = t.apply(s)
        if isinstance(entry, OutcomeEntry):
            events += entry.events
        # each answer that changed the state is a step (a refusal changes nothing)
        if t.settled and t.state.table_id and (not states or t.state is not states[-1]):
            states.append(t.state)
            # seats change hands only in the lobby: a copy only when they did
            players.append(
                t.players.copy() if not players or players[-1] != t.players else players[-1]
            )
    if t.seq == 0 or not t.state.table_id:
        return Answer(problem=NO_TABLE, entries=len(stored))
    if t.state.step != "finished":
        return Answer(problem=NOT_FINISHED, entries=len(stored))
    return _Kept(states, players, stored), events


def weight(stored: list[Stored]) -> int:
    """What keeping a log folded costs, in entries of ``ENTRY_BYTES``: its entries, or its
    records' bytes over that when they are larger (a chat-heavy log)."""
    return max(len(stored), sum(len(s.data) for s in stored) // ENTRY_BYTES)


def _keep(table_id: str, kept: _Kept) -> tuple[str, ...]:
    """Keep the table (the most recent), letting the least recent go past the entries kept;
    the ones let go."""
    _kept[table_id] = kept
    total = sum(k.weight for k in _kept.values())
    dropped = []
    for old in list(_kept):
        if total <= _setup.keep_entries or old == table_id:
            break
        total -= _kept.pop(old).weight
        dropped.append(old)
    if total > _setup.keep_entries:  # more than the whole budget alone: not kept
        del _kept[table_id]
        dropped.append(table_id)
    return tuple(dropped)
