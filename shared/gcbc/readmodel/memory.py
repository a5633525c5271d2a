"""An in-memory twin of the Redis read model: the same skip-if-not-newer rule, lobby pages, the
answers kept per viewer, waiting for a position or a newer version, and the epoch claim."""

from __future__ import annotations

import asyncio
import contextlib

from gcbc.contract.ids import checked
from gcbc.readmodel.port import LobbyPage, StoredView, view_version


class MemoryReadModel:
    def __init__(self) -> None:
        self._tables: dict[str, tuple[int, dict[str, bytes], dict[str, bytes]]] = {}
        self._lobby: dict[str, tuple[int, bytes]] = {}  # table -> (first listed at, listing)
        self._epoch = False
        self._changed: dict[str, asyncio.Event] = {}  # table -> set by its next put

    async def put(
        self,
        table: str,
        views: dict[str, bytes],
        position: int,
        changed: list[str] | None = None,
        listing: bytes | None = None,
        answers: dict[str, bytes] | None = None,
    ) -> bool:
        current = self._tables.get(checked(table))
        if current is not None and current[0] >= position:
            return False
        self._tables[table] = (position, dict(views), dict(answers or {}))
        if listing is None:
            self._lobby.pop(table, None)
        else:
            first = self._lobby.get(table, (position, b""))[0]
            self._lobby[table] = (first, listing)
        event = self._changed.pop(table, None)
        if event is not None:
            event.set()
        return True

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
    ) -> StoredView | None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            changed = self._changed.get(checked(table))
            if changed is None:
                changed = self._changed[table] = asyncio.Event()
            current = self._tables.get(table)
            got = None
            if current is not None and viewer in current[1]:
                got = StoredView(current[0], current[1][viewer], current[2].get(viewer))
                if got.position >= position and (after is None or view_version(got.data) > after):
                    return got
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

    async def open_tables(self, limit: int = 50, after: int = 0) -> LobbyPage:
        found = sorted((at, table, x) for table, (at, x) in self._lobby.items() if at > after)
        page = found[:limit]
        more = page[-1][0] if len(found) > limit else None
        return LobbyPage([x for _, _, x in page], more)

    async def claim_epoch(self) -> bool:
        claimed, self._epoch = not self._epoch, True
        return claimed

    def wipe(self) -> None:
        """Lose everything, as a Redis restarted without persistence does (tests)."""
        self._tables.clear()
        self._lobby.clear()
        self._epoch = False

    async def close(self) -> None:
        pass
