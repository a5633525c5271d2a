"""The read model's ports: every view of a table (one per seat, plus the public one), stamped
with the log position it reflects, written in one atomic step, with the answers to recent
commands. Three ports, one per kind of caller: ``ViewWriter`` (the projection, and rebuilds),
``ViewReader`` (the table service and the house bots), ``ModelAdmin`` (operators and health
checks); ``ReadModel`` is all of them, what each adapter (memory, redis, rediscluster) is.

``put(table, views, position, changed, listing, answers)`` stores all ``views`` (viewer key ->
encoded view) and ``answers`` (viewer key -> encoded recent answers) unless the stored position is
already >= ``position`` (a redelivery is harmless): True if written; it wakes whoever waits on
the table. ``get(table, viewer)`` returns (position, view) or None. ``wait(table, viewer, ...)``
returns the viewer's view once it reflects ``position`` and its version is over ``after``, or the
current one when ``timeout`` runs out. Viewer keys: "public", "seat:<n>".

``claim_epoch(seconds)``: True once for a read model that has lost its contents (new, or a Redis
that restarted empty): its writer then projects every table again, renewing its claim as it goes
(``keep_epoch(seconds)``) and making it for good once done (``keep_epoch(None)``); a claim for a
time that lapses (its writer stopped half-way) is claimed again, and the work done again.

For operators: ``replace(items)`` writes tables' views in one atomic step each, whatever the
stored position (unless it is newer: a rebuild never undoes the live projection; ``force``: even
then), so a rebuild never leaves a moment without a view; ``snapshots(tables)`` reads everything
held for tables; ``tables()`` lists them; ``status()`` tells the epoch, the newest position
written and the tables per status (``put(..., status=)`` keeps that index).

A finished table's views leave the read model ``finished_ttl`` seconds after its first write as
finished (an adapter's setting; None: never; a later put neither keeps them longer nor, once
they went, writes them again: its position alone), what it keeps of it for good being its
``seated`` record (about a hundred bytes: who held which seat at the end); its readers then make
its views from the log when they are asked for, so the read model holds the tables in play and
the recent games, not every game ever played. ``wait`` has nothing to wait for at such a table:
it answers None at once.

Every method raises ModelUnavailable when the store cannot be reached.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from typing import NamedTuple, Protocol

import msgspec

PUBLIC = "public"


def seat_key(seat: int) -> str:
    return f"seat:{seat}"


def viewer_key(seat: int | None) -> str:
    """A viewer's key: ``seat_key`` of its seat, or the public one's (None)."""
    return PUBLIC if seat is None else seat_key(seat)


class _Version(msgspec.Struct):
    version: int


_version = msgspec.json.Decoder(_Version)  # a view's version, the rest of it left undecoded


class Answer(msgspec.Struct, array_like=True, frozen=True):
    """How the rules answered a command, as the read model keeps it for the one who sent it:
    ``code``/``message`` for a refusal (None: accepted), ``seat`` for a seat taken."""

    command: int  # the command's position in the log
    answer: int  # the answer's position
    code: str | None = None
    message: str | None = None
    seat: int | None = None


ANSWERS_KEPT = 8  # the most recent answers kept per viewer
_answers_encoder = msgspec.json.Encoder()
_answers = msgspec.json.Decoder(list[Answer])


# beside its views, a table's roster: its status and who holds which seat, what a reader
# that needs only that (a player's list of tables) reads instead of a view that grows with the chat
ROSTER = "roster"


def answers_field(viewer: str) -> str:
    """The field a viewer's recent answers are stored under, beside the views."""
    return "answers:" + viewer


def encode_answers(answers: Iterable[Answer]) -> bytes:
    """A viewer's recent answers as the read model stores them (``StoredView.answer`` reads
    them)."""
    return _answers_encoder.encode(list(answers))


class StoredView:
    """A view as read once (position, bytes, the viewer's recent answers) and shared by every
    waiter it was read for, with its version and Server-Sent Events frame found once, on first
    use (a crowd of streams woken by one change shares them)."""

    __slots__ = ("position", "data", "answers", "_frame", "_version")

    def __init__(self, position: int, data: bytes, answers: bytes | None = None) -> None:
        self.position, self.data, self.answers = position, data, answers
        self._frame: bytes | None = None
        self._version: int | None = None

    @property
    def version(self) -> int:
        """The view's version, decoded once."""
        if self._version is None:
            self._version = _version.decode(self.data).version
        return self._version

    def frame(self) -> bytes:
        """``id: <version>`` (a reconnecting EventSource sends it back as Last-Event-ID) and
        ``data: <view>``: a view is one line of JSON, written as is, no re-encoding."""
        if self._frame is None:
            version = str(self.version).encode()
            self._frame = b"id: " + version + b"\r\ndata: " + self.data + b"\r\n\r\n"
        return self._frame

    def answer(self, command: int) -> Answer | None:
        if not self.answers:
            return None
        return next((a for a in _answers.decode(self.answers) if a.command == command), None)


class LobbyPage(NamedTuple):
    """Tables waiting for players, oldest first, and the cursor of the next page (None: last)."""

    listings: list[bytes]
    next: int | None


class Replacement(NamedTuple):
    """What the read model holds for one table at ``position`` (``replace``)."""

    table: str
    views: dict[str, bytes]
    position: int
    listing: bytes | None = None
    answers: dict[str, bytes] | None = None
    status: str | None = None
    # a finished table's players and their seats (JSON: player id -> seat), kept for good
    seated: bytes | None = None


class Put(NamedTuple):
    """One table's ``put`` among several (``put_many``). ``base``: the position this writer last
    wrote for the table; ``item.views`` then holds only the views that changed since (and the
    ``ROSTER``), the others left as they are, and nothing is written unless the stored position
    is still ``base`` (a read model wiped, or written by someone else meanwhile: the writer sends
    every view). None: ``item.views`` is every view."""

    item: Replacement
    changed: list[str] | None = None  # the viewers whose view differs (None: any)
    base: int | None = None


class TableSnapshot(NamedTuple):
    """Everything held for one table: its position, every field (views by viewer key, answers
    by ``answers:<viewer>``), its lobby listing and its status in the index."""

    position: int
    fields: dict[str, bytes]
    listing: bytes | None
    status: str | None


class ModelStatus(NamedTuple):
    epoch: float | None  # when the epoch was claimed (seconds since the epoch; None: not yet)
    position: int  # the newest position written
    tables: dict[str, int]  # status -> tables


class ModelUnavailable(Exception):
    """The read model could not be reached (after the adapter's own retries)."""


class ViewWriter(Protocol):
    """What the projection writes (and a rebuild replaces); ``position`` and ``status``: how far
    it got."""

    async def put(
        self,
        table: str,
        views: dict[str, bytes],
        position: int,
        changed: list[str] | None = None,
        listing: bytes | None = None,
        answers: dict[str, bytes] | None = None,
        status: str | None = None,
        seated: bytes | None = None,
    ) -> bool:
        """``changed``: the viewers whose view differs from the last put (None: any), so a
        wake-up reaches only the watchers that have something new to read. ``listing``: the
        table's lobby summary (None: not listed), written in the same step, and ``status`` its
        place in the index (lobby, playing, finished; None: left as it is); ``seated``: a
        finished table's record (its views expire only when it is written with them). Every
        adapter's: ``put_many`` of the one table."""
        item = Replacement(table, views, position, listing, answers, status, seated)
        return (await self.put_many([Put(item, changed)]))[0]

    async def put_many(self, puts: list[Put]) -> list[bool]:
        """Several tables' ``put`` at once (one round trip): each table's step stays atomic and
        guarded by its own position (a ``Put.base``'s: by that position); written or not, per
        table."""
        ...

    async def replace(self, items: list[Replacement], force: bool = False) -> list[bool]:
        """Each table's views in one atomic step (a wake-up for all its viewers), unless its
        stored position is newer (``force``: even then): written or not, per item."""
        ...

    async def delete(self, table: str) -> None: ...

    async def claim_epoch(self, seconds: float | None = None) -> bool:
        """Set the epoch mark if there is none, for ``seconds`` (None: for good): whether set."""
        ...

    async def keep_epoch(self, seconds: float | None) -> None:
        """Renew the epoch mark for ``seconds`` (None: for good), if it is there."""
        ...

    async def position(self, table: str) -> int: ...

    async def status(self) -> ModelStatus: ...


class ViewReader(Protocol):
    """What the table service and the house bots read: a viewer's view, waited for, and the
    lobby."""

    async def get(self, table: str, viewer: str) -> tuple[int, bytes] | None: ...

    async def wait(
        self,
        table: str,
        viewer: str,
        position: int = 0,
        after: int | None = None,
        timeout: float = 0.0,
        last: StoredView | None = None,
    ) -> StoredView | None:
        """The view once its position is >= ``position`` and its version > ``after`` (None:
        any), or the current one after ``timeout`` seconds (None: no view, or the view went
        while waited on, its table still there: its seat was left). ``last``: the view this
        caller got last (a stream going on): an adapter that knows nothing changed since may
        take it as the current one instead of reading it again."""
        ...

    async def position(self, table: str) -> int: ...

    async def seated(self, tables: list[str]) -> list[bytes | None]:
        """Each finished table's ``seated`` record, read at once (None: not finished, or not
        projected), there whether or not its views have expired."""
        ...

    async def rosters(self, tables: list[str]) -> list[bytes | None]:
        """Each table's ``ROSTER``, read at once (None: not projected, or projected by a writer
        that kept none, which ``gcbc-ops rebuild`` mends; or finished and its views expired: its
        ``seated`` record then)."""
        ...

    async def open_tables(self, limit: int = 50, after: int = 0) -> LobbyPage:
        """The lobby listings first listed after cursor ``after`` (0: from the start)."""
        ...


class ModelAdmin(Protocol):
    """What operators and health checks look at."""

    def tables(self) -> AsyncIterator[str]:
        """Every table the read model holds views of."""
        ...

    async def snapshots(self, tables: list[str]) -> list[TableSnapshot | None]: ...

    async def status(self) -> ModelStatus: ...

    async def ping(self) -> None:
        """Returns once the store answers (ModelUnavailable otherwise)."""
        ...


class ReadModel(ViewWriter, ViewReader, ModelAdmin, Protocol):
    """Every port: what each adapter is (and closes)."""

    async def close(self) -> None: ...
