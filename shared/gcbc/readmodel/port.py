"""The read model port: every view of a table (one per seat, plus the public one), stamped with
the log position it reflects, written in one atomic step.

``put(table, views, position)`` stores all ``views`` (viewer key -> encoded view) unless the
stored position is already >= ``position`` (a redelivery is harmless): True if written.
``get(table, viewer)`` returns (position, view) or None. Viewer keys: "public", "seat:<n>".
Every method raises ModelUnavailable when the store cannot be reached.
Writers announce each change on ``changes(table)``: a wake-up signal only, never the data.
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

PUBLIC = "public"


def seat_key(seat: int) -> str:
    return f"seat:{seat}"


class LobbyPage(NamedTuple):
    """Tables waiting for players, oldest first, and the cursor of the next page (None: last)."""

    listings: list[bytes]
    next: int | None


class ModelUnavailable(Exception):
    """The read model could not be reached (after the adapter's own retries)."""


class ReadModel(Protocol):
    async def put(
        self,
        table: str,
        views: dict[str, bytes],
        position: int,
        changed: list[str] | None = None,
        listing: bytes | None = None,
    ) -> bool:
        """``changed``: the viewers whose view differs from the last put (None: any), so a
        wake-up reaches only the watchers that have something new to read. ``listing``: the
        table's lobby summary (None: not listed), written in the same step."""
        ...

    async def get(self, table: str, viewer: str) -> tuple[int, bytes] | None: ...

    async def position(self, table: str) -> int: ...

    async def delete(self, table: str) -> None: ...

    async def open_tables(self, limit: int = 50, after: int = 0) -> LobbyPage:
        """The lobby listings first listed after cursor ``after`` (0: from the start)."""
        ...
