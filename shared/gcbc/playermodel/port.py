"""The players' read model: what the projection folds from the players' log, for reads that need
no trip to the log (a player's public profile, the players an operator lists, a player's tables).
Each write is idempotent (a redelivered entry writes the same again), and ``position`` is the
players' log position everything up to which is projected. Every method raises
``gcbc.readmodel.port.ModelUnavailable`` when the store cannot be reached."""

from __future__ import annotations

from typing import Protocol

import msgspec


class PlayerRecord(msgspec.Struct, frozen=True):
    """A player as the read model keeps it (public: no token, not even its hash)."""

    player_id: str
    name: str
    bot: bool = False
    registered: int = 0  # its position in the players' log (the order players came in)


class PlayerModel(Protocol):
    async def put_player(self, record: PlayerRecord) -> None: ...

    async def joined(self, player_id: str, table_id: str, position: int) -> None:
        """A table the player took a seat at (``position``: the entry's, newest highest)."""
        ...

    async def advance(self, position: int) -> None:
        """Everything up to ``position`` is projected (never moves back)."""
        ...

    async def position(self) -> int: ...

    async def player(self, player_id: str) -> PlayerRecord | None: ...

    async def tables(
        self, player_id: str, limit: int = 50, before: int | None = None
    ) -> list[tuple[str, int]]:
        """The player's tables, the newest joined first, each with the position it was joined
        at (``before``: only those joined before that position: the next page)."""
        ...

    async def players(self, limit: int = 100, after: int = 0) -> list[PlayerRecord]:
        """Players in the order they registered, from after position ``after``."""
        ...

    async def count(self) -> int: ...

    async def clear(self) -> None:
        """Forget every player (a rebuild from the log follows)."""
        ...
