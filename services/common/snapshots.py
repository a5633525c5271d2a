"""Snapshots of folded tables: a table's FoldedTable as of a position, kept by table in a keyed
store, so loading a table reads its snapshot and only the entries after it.

A snapshot holds the position it was folded to, the entry schema version (``entries.SCHEMA``)
and the fold's own version (``FOLD``): one made by code that read entries or folded them
otherwise is ignored, and the table is folded from its log instead. The log stays the truth: a
lost or ignored snapshot costs a longer read, never a wrong state.

A snapshot holds what the rules decide with (``for_deciding``), and the rules worker alone reads
it: not the state's event log (the views are made from the log, by the projection), nor a chat
message's text (each chat line is held with its seat: a seat's count of messages is what the rules
decide with), nor the command ids seen (the table service's follower checks retries). A long game's
events and a table's talk (up to 200 messages of 500 characters a seat) would otherwise make its
snapshot grow with every entry, be written whole every ``every`` entries, and pass the size kept, so
that a late message at a finished table, or a restart, would have the rules worker read its whole
log again.

Written in the background (``Snapshots.flush``), never on the way to a command's answer: every
``every`` entries of a table, when the table finishes, and for every table with entries since its
last snapshot when the worker stops. A finished table's last snapshot is kept a day
(``FINISHED_TTL``): its late entries (a chat after the end) come soon, and the store would
otherwise grow by a snapshot for every game ever played.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any

import msgspec

from gcbc.keyvalue.port import KeyValue
from gcbc.readmodel.port import ANSWERS_KEPT, Answer
from gcbc.rules.state import State, Trail
from gcbc_contract.entries import SCHEMA, CommandEntry
from services.common.folded import FoldedTable

log = logging.getLogger("gcbc.snapshots")
# the fold's version: bump it when FoldedTable or the engine folds the same entries into another
# state (a snapshot of another version is ignored)
FOLD = 8
BUCKET = "GCBC_SNAPSHOTS"
TOO_BIG = 900_000  # bytes: past this a snapshot is not kept (NATS' default payload limit is 1 MB)
FINISHED_TTL = 24 * 3600.0  # seconds a finished table's last snapshot is kept


class Snapshot(msgspec.Struct, frozen=True):
    schema: int
    fold: int
    table: str
    seq: int
    state: State
    pending: int | None = None
    pending_command: CommandEntry | None = None
    tokens: dict[int, str] = {}
    invitations: dict[int, str] = {}
    players: dict[int, str] = {}
    recent: dict[str, list[Answer]] = {}
    wait_id: int | None = None
    wait_started: float = 0.0
    opened_at: float = 0.0
    imported: bool = False
    appended_at: float = 0.0


class _Versions(msgspec.Struct):
    schema: int = 0
    fold: int = 0


# A snapshot holds the state as this twin of State: no event log, and its chat as the seat of each
# line, in order; decoded, it is made a State again
_STATE_FIELDS = msgspec.structs.fields(State)
_TRAILS = ("chat", "log")
_StateHeld = msgspec.defstruct(
    "State",
    [
        (
            f.name,
            list[int] if f.name == "chat" else f.type,
            msgspec.field(default_factory=f.default_factory)
            if f.default is msgspec.NODEFAULT
            else f.default,
        )
        for f in _STATE_FIELDS
        if f.name != "log"
    ],
    frozen=True,
    gc=False,
)
_SnapshotHeld = msgspec.defstruct(
    "Snapshot",
    [
        (f.name, _StateHeld if f.name == "state" else f.type, f.default)
        if f.default_factory is msgspec.NODEFAULT
        else (f.name, f.type, msgspec.field(default_factory=f.default_factory))
        for f in msgspec.structs.fields(Snapshot)
    ],
    frozen=True,
)
_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(_SnapshotHeld)
_versions = msgspec.msgpack.Decoder(_Versions)
# the FoldedTable's attributes a snapshot holds as they are
_AS_THEY_ARE = (
    "pending",
    "pending_command",
    "tokens",
    "invitations",
    "players",
    "wait_id",
    "wait_started",
    "opened_at",
    "imported",
    "appended_at",
)


def for_deciding(state: State) -> State:
    """The state as a snapshot holds it: its event log left out, its chat lines' texts too."""
    chat = [(seat, "") for seat, _ in state.chat]
    return msgspec.structs.replace(state, chat=Trail(chat, len(chat)), log=Trail())


def _held(state: State) -> Any:
    return _StateHeld(
        **{f.name: getattr(state, f.name) for f in _STATE_FIELDS if f.name not in _TRAILS},
        chat=[seat for seat, _ in state.chat],
    )


def _typed(held: Any) -> State:
    """The state of a snapshot: ``for_deciding`` of the state it was made of."""
    chat = [(seat, "") for seat in held.chat]
    fields = {f.name: getattr(held, f.name) for f in _STATE_FIELDS if f.name not in _TRAILS}
    return State(**fields, chat=Trail(chat, len(chat)))


def encode(t: FoldedTable) -> bytes:
    return _encoder.encode(
        Snapshot(
            schema=SCHEMA,
            fold=FOLD,
            table=t.table_id,
            seq=t.seq,
            state=_held(t.state),
            recent={viewer: list(kept) for viewer, kept in t.recent.items()},
            **{name: getattr(t, name) for name in _AS_THEY_ARE},
        )
    )


def decode(data: bytes, table_id: str) -> FoldedTable | None:
    """The table folded as the snapshot says, or None: made by another version, another table's,
    or not a snapshot at all."""
    try:
        versions = _versions.decode(data)
        if versions.schema != SCHEMA or versions.fold != FOLD:
            return None
        s = _decoder.decode(data)
    except (msgspec.DecodeError, msgspec.ValidationError) as e:
        log.error("table %s: snapshot not readable, folded from the log: %s", table_id, e)
        return None
    if s.table != table_id:
        return None
    t = FoldedTable(table_id)
    t.seq = s.seq
    t.state = _typed(s.state)
    t.recent = {v: deque(kept, maxlen=ANSWERS_KEPT) for v, kept in s.recent.items()}
    for name in _AS_THEY_ARE:
        setattr(t, name, getattr(s, name))  # (decoded afresh: nothing else holds them)
    return t


class Snapshots:
    """The snapshots of one service's tables: ``load`` for its cache, and the writes it owes,
    made by ``flush`` in the background."""

    EVERY = 64  # entries of a table between two snapshots
    AT_ONCE = 64  # writes in flight at once

    def __init__(
        self, store: KeyValue, every: int = EVERY, finished_ttl: float = FINISHED_TTL
    ) -> None:
        self.store = store
        self.every = every
        self.finished_ttl = finished_ttl
        self._since: dict[str, int] = {}  # table -> entries folded since its last snapshot
        self._owed: dict[str, FoldedTable] = {}  # snapshots to write at the next flush
        self.written = 0
        self.loaded = 0

    async def load(self, table_id: str) -> FoldedTable | None:
        data = await self.store.get(table_id)
        t = None if data is None else decode(data, table_id)
        if t is not None:
            self.loaded += 1
        return t

    def folded(self, t: FoldedTable, entries: int = 1) -> None:
        """``entries`` more entries of the table were folded."""
        since = self._since.get(t.table_id, 0) + entries
        if since >= self.every:
            self.owe(t)
        else:
            self._since[t.table_id] = since

    def owe(self, t: FoldedTable) -> None:
        """Snapshot the table at the next flush (a finished table: its last one)."""
        self._owed[t.table_id] = t
        self._since.pop(t.table_id, None)

    def forget(self, table_id: str) -> None:
        self._since.pop(table_id, None)

    def let_go(self, belongs: Callable[[str], bool]) -> None:
        """Owe nothing for the tables ``belongs`` names (another instance's now)."""
        for held in (self._since, self._owed):
            for table_id in [t for t in held if belongs(t)]:
                del held[table_id]

    def owe_all(self, tables: Iterable[FoldedTable]) -> None:
        """Every table with entries folded since its last snapshot (a partition handed over)."""
        for t in tables:
            if self._since.get(t.table_id):
                self.owe(t)

    @property
    def owed(self) -> int:
        return len(self._owed)

    async def flush(self) -> int:
        """Write the snapshots owed (each as its table is now); how many were written."""
        owed, self._owed = self._owed, {}
        items = list(owed.items())
        written = 0
        for start in range(0, len(items), self.AT_ONCE):
            puts = []
            for table_id, t in items[start : start + self.AT_ONCE]:
                data = encode(t)  # the table as it is now: no await between here and the put
                if len(data) > TOO_BIG:
                    log.warning("table %s: snapshot of %d bytes not kept", table_id, len(data))
                    continue
                finished = t.state.step == "finished"
                ttl = self.finished_ttl if finished else None
                puts.append(self.store.put(table_id, data, ttl))
            for result in await asyncio.gather(*puts, return_exceptions=True):
                if isinstance(result, Exception):  # a snapshot saves reading: none is needed
                    log.warning("a snapshot was not written: %s", result)
                else:
                    written += 1
        self.written += written
        return written
