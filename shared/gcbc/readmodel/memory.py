"""An in-memory twin of the Redis read model (same skip-if-not-newer rule)."""

from __future__ import annotations


class MemoryReadModel:
    def __init__(self) -> None:
        self._tables: dict[str, tuple[int, dict[str, bytes]]] = {}
        self._lobby: dict[str, bytes] = {}
        self._epoch = False

    async def put(
        self,
        table: str,
        views: dict[str, bytes],
        position: int,
        changed: list[str] | None = None,
        listing: bytes | None = None,
    ) -> bool:
        current = self._tables.get(table)
        if current is not None and current[0] >= position:
            return False
        self._tables[table] = (position, dict(views))
        if listing is None:
            self._lobby.pop(table, None)
        else:
            self._lobby[table] = listing
        return True

    async def get(self, table: str, viewer: str) -> tuple[int, bytes] | None:
        current = self._tables.get(table)
        if current is None or viewer not in current[1]:
            return None
        return current[0], current[1][viewer]

    async def position(self, table: str) -> int:
        current = self._tables.get(table)
        return current[0] if current else 0

    async def delete(self, table: str) -> None:
        self._tables.pop(table, None)

    async def open_tables(self) -> list[bytes]:
        return list(self._lobby.values())

    async def claim_epoch(self) -> bool:
        claimed, self._epoch = not self._epoch, True
        return claimed
