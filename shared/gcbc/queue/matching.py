"""Who is matched with whom (pure: the queue's waiting players and the time in, a table out).

- **The same table.** Players are matched with the same options (as the table would record them)
  and the same choice of a rated or an unrated game; the table's seat count is one every player
  at it accepts, the largest that can be made now (more players seated at once).
- **Ratings close.** For a rated game, the gap between the highest and the lowest rating (``mu``
  in the options' pool) at the table must be within every player's allowance, which widens with
  that player's wait (``allowed_gap``): no one is given a wider spread than its own wait allows.
- **The curve.** The allowance starts at a quarter of a new player's uncertainty (sigma 25/3:
  ratings that close cannot be told apart), widens linearly by one such sigma a minute, and stops
  at three sigmas (a new player's whole 99.7 % range: past it anyone matches), reached after
  about 2 min 45 s. Linear and capped, as Lichess widens a seek's range: a wait that is bounded
  and a rule a player can predict; the cap means a rated player is never kept waiting forever by
  a rating no one near it has.
- **House bots.** A player who asked for them (``bots_after``), once it waited that long, where
  the server offers house bots, is seated at a table of its smallest accepted count with the
  matching players who also accept bots, the house's bots in the seats left. A player who never
  asked for bots is never seated with them.
- **Order.** The longest waiting player is served first."""

from __future__ import annotations

from dataclasses import dataclass

SIGMA = 25.0 / 3  # a new player's uncertainty (OpenSkill's default)
GAP_START = SIGMA / 4
GAP_PER_SECOND = SIGMA / 60
GAP_MAX = 3 * SIGMA


def allowed_gap(waited: float) -> float:
    """The rating gap a player accepts after waiting ``waited`` seconds."""
    return min(GAP_START + GAP_PER_SECOND * max(0.0, waited), GAP_MAX)


@dataclass(frozen=True)
class Waiting:
    """A player in the queue as matching sees it. ``kind``: its options and rated choice, in a
    form where equal means the same table."""

    player_id: str
    seats: tuple[int, ...]
    kind: bytes
    rated: bool
    mu: float
    since: int  # ms
    bots_after: float | None = None


@dataclass(frozen=True)
class Table:
    """A table to open: its seat count, its players (in the order matched), how many house bots."""

    seats: int
    players: tuple[str, ...]
    bots: int = 0


def _spread_ok(group: list[Waiting], now: int) -> bool:
    mus = [w.mu for w in group]
    allowed = min(allowed_gap((now - w.since) / 1000) for w in group)
    return max(mus) - min(mus) <= allowed


def _gather(anchor: Waiting, others: list[Waiting], n: int, now: int) -> list[Waiting]:
    """The anchor and up to n-1 of ``others`` (accepting n), the closest ratings first for a
    rated game (else the longest waiting), each added only while the spread stays allowed."""
    fits = [w for w in others if n in w.seats]
    if anchor.rated:
        fits.sort(key=lambda w: (abs(w.mu - anchor.mu), w.since))
    group = [anchor]
    for w in fits:
        if len(group) == n:
            break
        if not anchor.rated or _spread_ok([*group, w], now):
            group.append(w)
    return group


def find_table(waiting: list[Waiting], now: int, house_bots: bool) -> Table | None:
    """The first table that can be made of the waiting players now (None: none yet)."""
    queue = sorted(waiting, key=lambda w: w.since)
    for anchor in queue:
        others = [w for w in queue if w.kind == anchor.kind and w.player_id != anchor.player_id]
        for n in sorted(set(anchor.seats), reverse=True):
            group = _gather(anchor, others, n, now)
            if len(group) == n:
                return Table(n, tuple(w.player_id for w in group))
        if house_bots and anchor.bots_after is not None:
            if (now - anchor.since) / 1000 >= anchor.bots_after:
                n = min(anchor.seats)
                willing = [w for w in others if w.bots_after is not None]
                group = _gather(anchor, willing, n, now)[: n - 1]
                return Table(n, tuple(w.player_id for w in group), n - len(group))
    return None
