"""An in-memory twin of the Redis read model: the same skip-if-not-newer rule, lobby pages, the
answers kept per viewer, waiting for a position or a newer version, the epoch claim, and a
finished table's views expiring (its ``seated`` record kept)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable

from gcbc.readmodel.port import (
    PUBLIC,
    ROSTER,
    LobbyPage,
    ModelStatus,
    Put,
    Replacement,
    StoredView,
    TableSnapshot,
    ViewWriter,
    answers_field,
)
from gcbc_contract.ids import checked


class MemoryReadModel(ViewWriter):
    def __init__(
        self, finished_ttl: float | None = None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.finished_ttl, self._clock = finished_ttl, clock
        self._views: dict[str, tuple[int, dict[str, bytes], dict[str, bytes]]] = {}
        self._expires: dict[str, float] = {}  # finished table -> when its views go (clock)
        self._seated: dict[str, bytes] = {}
        self._lobby: dict[str, tuple[int, bytes]] = {}  # table -> (first listed at, listing)
        self._epoch: float | None = None
        self._epoch_until: float | None = None  # (monotonic) a claim for a time lapses then
        self._changed: dict[str, asyncio.Event] = {}  # table -> set by its next put
        self._status: dict[str, str] = {}  # table -> lobby | playing | finished
        self._position = 0  # the newest position written

    @property
    def _tables(self) -> dict[str, tuple[int, dict[str, bytes], dict[str, bytes]]]:
        """The tables' views, those expired dropped first."""
        now = self._clock()
        for table in [t for t, at in self._expires.items() if at <= now]:
            del self._expires[table]
            self._views.pop(table, None)
        return self._views

    async def put_many(self, puts: list[Put]) -> list[bool]:
        out = []
        for item, _, base in puts:
            current = self._tables.get(checked(item.table))
            if base is not None:
                if current is None or current[0] != base or base >= item.position:
                    out.append(False)  # not as the writer left it: it sends every view
                    continue
                views, answers = (
                    {**current[1], **item.views},
                    {**current[2], **(item.answers or {})},
                )
                item = item._replace(views=views, answers=answers)
            elif current is not None and current[0] >= item.position:
                out.append(False)
                continue
            elif self._viewless(item, current):
                # no views (expired, or left to be made from the log): they stay so, its
                # position kept for good
                self._write(item._replace(views={}, answers={}), kept=True)
                out.append(True)
                continue
            self._write(item, partial=base is not None)
            out.append(True)
        return out

    def _write(self, item: Replacement, partial: bool = False, kept: bool = False) -> None:
        """``partial``: over the views held (as Redis's put over its base, which keeps the hash's
        time to live unless armed again); else in their place (a new hash: kept for good unless
        armed); ``kept``: for good."""
        table, position, listing = item.table, item.position, item.listing
        self._tables[table] = (position, dict(item.views), dict(item.answers or {}))
        self._position = max(self._position, position)
        if item.status is not None:
            self._status[table] = item.status
        if item.seated is not None:
            self._seated[table] = item.seated
        if kept:
            self._expires.pop(table, None)
        elif self._armed(item):  # counted from the first write that asks it
            self._expires.setdefault(table, self._clock() + self.finished_ttl)  # type: ignore[operator]
        elif not partial:
            self._expires.pop(table, None)
        if listing is None:
            self._lobby.pop(table, None)
        else:
            first = self._lobby.get(table, (position, b""))[0]
            self._lobby[table] = (first, listing)
        event = self._changed.pop(table, None)
        if event is not None:
            event.set()

    def _viewless(
        self, item: Replacement, current: tuple[int, dict[str, bytes], dict[str, bytes]] | None
    ) -> bool:
        """Whether a put is of a finished table that holds no views (as Redis's script tells)."""
        held = current[1] if current is not None else {}
        return self._armed(item) and item.table in self._seated and PUBLIC not in held

    def _armed(self, item: Replacement) -> bool:
        """Whether the write sets the table's views to expire (a finished one, with its record)."""
        return bool(self.finished_ttl) and item.status == "finished" and item.seated is not None

    async def replace(self, items: list[Replacement], force: bool = False) -> list[bool]:
        done = []
        for item in items:
            current = self._tables.get(checked(item.table))
            ok = force or current is None or current[0] <= item.position
            if ok:
                self._write(item)
            done.append(ok)
        return done

    async def snapshots(self, tables: list[str]) -> list[TableSnapshot | None]:
        out: list[TableSnapshot | None] = []
        for table in tables:
            current = self._tables.get(checked(table))
            if current is None:
                out.append(None)
                continue
            position, views, answers = current
            fields = {**views, **{answers_field(k): v for k, v in answers.items()}}
            listed = self._lobby.get(table)
            out.append(
                TableSnapshot(
                    position, fields, listed[1] if listed else None, self._status.get(table)
                )
            )
        return out

    async def tables(self) -> AsyncIterator[str]:
        for table in list(self._tables):
            yield table

    async def status(self) -> ModelStatus:
        return ModelStatus(self._epoch, self._position, dict(Counter(self._status.values())))

    async def ping(self) -> None:
        pass

    async def get(self, table: str, viewer: str) -> tuple[int, bytes] | None:
        current = self._tables.get(checked(table))
        if current is None or viewer not in current[1]:
            return None
        return current[0], current[1][viewer]

    async def wait(
        self,
        table: str,
        viewer: str,
        position: int = 0,
        after: int | None = None,
        timeout: float = 0.0,
        last: StoredView | None = None,  # reading memory costs nothing: always read
    ) -> StoredView | None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        had_view = last is not None
        while True:
            changed = self._changed.get(checked(table))
            if changed is None:
                changed = self._changed[table] = asyncio.Event()
            current = self._tables.get(table)
            got = None
            if (current is None or viewer not in current[1]) and table in self._seated:
                return None  # finished, its views expired: nothing will change them
            if current is not None and viewer in current[1]:
                got = StoredView(current[0], current[1][viewer], current[2].get(viewer))
                if got.position >= position and (after is None or got.version > after):
                    return got
            elif current is not None and had_view:
                return None  # the table is there without the view: its seat was left
            had_view = had_view or got is not None
            left = deadline - loop.time()
            if left <= 0:
                return got
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), left)

    async def position(self, table: str) -> int:
        current = self._tables.get(checked(table))
        return current[0] if current else 0

    async def delete(self, table: str) -> None:
        self._tables.pop(checked(table), None)
        self._lobby.pop(table, None)
        self._status.pop(table, None)
        self._seated.pop(table, None)
        self._expires.pop(table, None)

    async def seated(self, tables: list[str]) -> list[bytes | None]:
        return [self._seated.get(checked(table)) for table in tables]

    async def rosters(self, tables: list[str]) -> list[bytes | None]:
        held = [self._tables.get(checked(table)) for table in tables]
        return [h[1].get(ROSTER) if h is not None else None for h in held]

    async def open_tables(self, limit: int = 50, after: int = 0) -> LobbyPage:
        found = sorted((at, table, x) for table, (at, x) in self._lobby.items() if at > after)
        page = found[:limit]
        more = page[-1][0] if len(found) > limit else None
        return LobbyPage([x for _, _, x in page], more)

    def _epoch_held(self) -> bool:
        if self._epoch is not None and self._epoch_until is not None:
            if self._epoch_until <= time.monotonic():
                self._epoch = self._epoch_until = None  # a claim for a time, lapsed
        return self._epoch is not None

    async def claim_epoch(self, seconds: float | None = None) -> bool:
        if self._epoch_held():
            return False
        self._epoch = time.time()
        self._epoch_until = None if seconds is None else time.monotonic() + seconds
        return True

    async def keep_epoch(self, seconds: float | None) -> None:
        if self._epoch_held():
            self._epoch_until = None if seconds is None else time.monotonic() + seconds

    def wipe(self) -> None:
        """Lose everything, as a Redis restarted without persistence does (tests)."""
        self._tables.clear()
        self._lobby.clear()
        self._status.clear()
        self._seated.clear()
        self._expires.clear()
        self._position = 0
        self._epoch = self._epoch_until = None

    async def close(self) -> None:
        pass
