"""An in-memory twin of the Redis read model (same skip-if-not-newer rule)."""

from __future__ import annotations

from gcbc.contract.ids import checked
from gcbc.readmodel.port import LobbyPage


class MemoryReadModel:
    def __init__(self) -> None:
        self._tables: dict[str, tuple[int, dict[str, bytes]]] = {}
        self._lobby: dict[str, tuple[int, bytes]] = {}  # table -> (first listed at, listing)
        self._epoch = False

    async def put(
        self,
        table: str,
        views: dict[str, bytes],
        position: int,
        changed: list[str] | None = None,
        listing: bytes | None = None,
    ) -> bool:
        current = self._tables.get(checked(table))
        if current is not None and current[0] >= position:
            return False
        self._tables[table] = (position, dict(views))
        if listing is None:
            self._lobby.pop(table, None)
        else:
            first = self._lobby.get(table, (position, b""))[0]
            self._lobby[table] = (first, listing)
        return True

    async def get(self, table: str, viewer: str) -> tuple[int, bytes] | None:
        current = self._tables.get(checked(table))
        if current is None or viewer not in current[1]:
            return None
        return current[0], current[1][viewer]

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
