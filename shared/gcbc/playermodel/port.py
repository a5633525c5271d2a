"""The players' read model: what the projection folds from the players' log, for reads that need
no trip to the log (a player's public profile, the players an operator lists, a player's tables).
Each write is idempotent (a redelivered entry writes the same again), and ``position`` is the
players' log position everything up to which is projected. Every method raises
``gcbc.readmodel.port.ModelUnavailable`` when the store cannot be reached.

The ratings may be held (``hold_ratings``) by a rebuild that rates the whole log again while the
projection runs: meanwhile any other rating is refused (``RatingsHeld``) and the projection
retries it in place once the hold is released (or expires, if the rebuild stopped), on the
ratings the rebuild made. The rebuild rates the log apart and puts what it made in place of
every rating in one step (``replace_ratings``), so one that stops leaves the ratings as they
were."""

from __future__ import annotations

from typing import Protocol

import msgspec

from gcbc.readmodel.port import ModelUnavailable


class RatingsHeld(ModelUnavailable):
    """A rebuild holds the ratings (or the hold the writer named is not held any more): the
    rating is not written; try again later."""


class PlayerRecord(msgspec.Struct, frozen=True):
    """A player as the read model keeps it (public: no token, not even its hash)."""

    player_id: str
    name: str
    bot: bool = False
    registered: int = 0  # its position in the players' log (the order players came in)


# the rating pools (services.common.ratings says why these)
POOLS = ("base", "zombies", "bombers_traitors", "zombies_bombers_traitors")


class Rating(msgspec.Struct, frozen=True):
    """A rater's rating in one pool (OpenSkill's Plackett-Luce: 25 and 25/3 to begin with)."""

    mu: float = 25.0
    sigma: float = 25.0 / 3
    games: int = 0

    @property
    def ordinal(self) -> float:
        """What a leaderboard ranks by: a rating the rater is 99.7 % sure to be above."""
        return self.mu - 3 * self.sigma


class RatingsMade(msgspec.Struct, frozen=True):
    """Every rating as a rebuild made it from the whole tables' log: each pool's raters, each
    rated table's changes, and the position of the last rated table's end."""

    position: int = 0
    pools: dict[str, dict[str, Rating]] = msgspec.field(default_factory=dict)
    changes: dict[str, dict[str, float]] = msgspec.field(default_factory=dict)


class PlayerDirectory(Protocol):
    """The players, as the projection folds them from the players' log."""

    async def put_player(self, record: PlayerRecord) -> None: ...

    async def remove_player(self, player_id: str) -> None:
        """A registration withdrawn after its name's claim was stored: never a player."""
        ...

    async def joined(self, player_id: str, table_id: str, position: int) -> None:
        """A table the player took a seat at (``position``: the entry's, newest highest)."""
        ...

    async def advance(self, position: int) -> None:
        """Everything up to ``position`` is projected (never moves back)."""
        ...

    async def position(self) -> int: ...

    async def player(self, player_id: str) -> PlayerRecord | None: ...

    async def records(self, player_ids: list[str]) -> dict[str, PlayerRecord]:
        """The players' records, read at once (those the read model lacks are missing)."""
        ...

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


class RatingBoard(Protocol):
    """The ratings (``services.common.ratings``), as the projection folds them from the tables'
    log: each pool's raters, the rated tables' changes, the leaderboards."""

    async def ratings(self, pool: str, raters: list[str]) -> dict[str, Rating]:
        """The raters' ratings in the pool (those never rated there are missing)."""
        ...

    async def rate_table(
        self,
        position: int,
        pool: str,
        table_id: str,
        ratings: dict[str, Rating],
        changes: dict[str, float],
    ) -> bool:
        """A rated table's new ratings and each rater's change, with the position of the answer
        that ended it, in one atomic step; nothing (False) unless ``position`` is past the last
        rated one. RatingsHeld, nothing written: a rebuild holds the ratings."""
        ...

    async def replace_ratings(self, made: RatingsMade, holder: str) -> None:
        """Every rating, board, change and the rated position replaced by ``made`` in one atomic
        step. RatingsHeld, nothing replaced: ``holder`` does not hold the ratings."""
        ...

    async def hold_ratings(self, holder: str, seconds: float) -> bool:
        """Take the ratings' hold for ``holder`` (or renew it) for ``seconds``: False if another
        holds it."""
        ...

    async def release_ratings(self, holder: str) -> None:
        """Give the hold back (nothing if ``holder`` does not hold it)."""
        ...

    async def rated_position(self) -> int: ...

    async def leaderboard(
        self, pool: str, limit: int = 50, offset: int = 0
    ) -> list[tuple[str, Rating]]:
        """The pool's raters by ordinal, the highest first."""
        ...

    async def changes(self, table_id: str) -> dict[str, float]:
        """Each rater's rating change (its ordinal's) at a rated table (empty: not rated)."""
        ...


class PlayerModel(PlayerDirectory, RatingBoard, Protocol):
    """Both, as one store keeps them."""
