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
- **Order.** The longest waiting player is served first.

The waiting are indexed once per look (``Lineup``): by kind and seat count, in the order they
came (an unrated table is the first who accept its count) and by rating (a rated table is
gathered from the anchor's neighbours outwards, stopping at the anchor's allowance, which no
one further can be within), so a look costs about the waiting players' number, not its
square."""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Iterator
from dataclasses import dataclass, field

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


@dataclass
class _Line:
    """The players of one kind accepting one seat count: in the order they came, and by rating
    (ties in the order they came), each with its place in the queue."""

    queue: list[tuple[int, Waiting]] = field(default_factory=list)
    by_mu: list[tuple[float, int, int, Waiting]] = field(default_factory=list)


class Lineup:
    """The waiting players indexed for matching; ``next_table`` is ``find_table`` on those not
    ``remove``d yet, so one look makes every table of the queue with one index."""

    def __init__(
        self, waiting: list[Waiting], house_bots: bool, house_seats: int | None = None
    ) -> None:
        self.queue = sorted(waiting, key=lambda w: w.since)
        self.house_bots = house_bots
        self.house_seats = house_seats  # the house's seats free (None: as many as asked)
        self.gone: set[str] = set()
        self.lines: dict[tuple[bytes, int, bool], _Line] = {}
        for i, w in enumerate(self.queue):
            for n in set(w.seats):
                self._add(i, w, (w.kind, n, False))
                if w.bots_after is not None:
                    self._add(i, w, (w.kind, n, True))
        for line in self.lines.values():
            line.by_mu.sort(key=lambda e: e[:3])

    def _add(self, i: int, w: Waiting, key: tuple[bytes, int, bool]) -> None:
        line = self.lines.get(key)
        if line is None:
            line = self.lines[key] = _Line()
        line.queue.append((i, w))
        line.by_mu.append((w.mu, w.since, i, w))

    def remove(self, players: tuple[str, ...]) -> None:
        self.gone.update(players)

    def next_table(self, now: int) -> Table | None:
        """The first table that can be made of the players left now (None: none yet)."""
        for i, anchor in enumerate(self.queue):
            if anchor.player_id in self.gone:
                continue
            for n in sorted(set(anchor.seats), reverse=True):
                group = self._gather(i, anchor, n, False, now)
                if len(group) == n:
                    return Table(n, tuple(w.player_id for w in group))
            if self.house_bots and anchor.bots_after is not None:
                if (now - anchor.since) / 1000 >= anchor.bots_after:
                    n = min(anchor.seats)
                    group = self._gather(i, anchor, n, True, now)[: n - 1]
                    if self.house_seats is None or n - len(group) <= self.house_seats:
                        return Table(n, tuple(w.player_id for w in group), n - len(group))
        return None

    def _gather(self, i: int, anchor: Waiting, n: int, willing: bool, now: int) -> list[Waiting]:
        """The anchor and up to n-1 others of its kind accepting n (``willing``: only those who
        accept bots), the closest ratings first for a rated game (else the longest waiting),
        each added only while the spread stays allowed."""
        line = self.lines.get((anchor.kind, n, willing))
        group = [anchor]
        if line is None:
            return group
        if not anchor.rated:
            for _, w in line.queue:
                if len(group) == n:
                    break
                if w.player_id != anchor.player_id and w.player_id not in self.gone:
                    group.append(w)
            return group
        lo = hi = anchor.mu
        allowed = allowed_gap((now - anchor.since) / 1000)
        for w in _outwards(line.by_mu, (anchor.mu, anchor.since, i)):
            if len(group) == n:
                break
            if w.player_id in self.gone or w.player_id == anchor.player_id:
                continue
            if abs(w.mu - anchor.mu) > allowed:
                break  # the spread is at least this far: no one further fits either
            its = min(allowed, allowed_gap((now - w.since) / 1000))
            if max(hi, w.mu) - min(lo, w.mu) <= its:
                group.append(w)
                lo, hi, allowed = min(lo, w.mu), max(hi, w.mu), its
        return group


def _outwards(
    by_mu: list[tuple[float, int, int, Waiting]], at: tuple[float, int, int]
) -> Iterator[Waiting]:
    """The line's players from the one at ``at`` outwards: by their distance in rating, ties by
    who came first (as sorting every player by distance would give them). Distances are
    compared exactly: two ratings apart by less than a rounding step can be the same distance
    from the anchor in floating point, and each side's order is the ratings' own."""
    mu = at[0]
    right = bisect_left(by_mu, at, key=lambda e: e[:3])
    start = end = k = right  # the left side's run of equal ratings by_mu[start:end], at k
    while True:
        if k == end and start > 0:
            end = start
            start = end - 1
            while start > 0 and by_mu[start - 1][0] == by_mu[end - 1][0]:
                start -= 1
            k = start
        left = by_mu[k] if k < end else None
        r = by_mu[right] if right < len(by_mu) else None
        if left is None and r is None:
            return
        if left is not None and (r is None or _nearer(left, r, mu)):
            yield left[3]
            k += 1
        else:
            assert r is not None
            yield r[3]
            right += 1


def _nearer(
    left: tuple[float, int, int, Waiting], right: tuple[float, int, int, Waiting], mu: float
) -> bool:
    """Whether ``left`` (rated at most ``mu``) comes before ``right`` (at least ``mu``): nearer
    (``mu - left < right - mu``, its sign exact with ``fsum``), or as near and came first."""
    gap = math.fsum((mu, mu, -left[0], -right[0]))
    return gap < 0 or (gap == 0 and left[1:3] < right[1:3])


def find_table(waiting: list[Waiting], now: int, house_bots: bool) -> Table | None:
    """The first table that can be made of the waiting players now (None: none yet)."""
    return Lineup(waiting, house_bots).next_table(now)


def find_tables(
    waiting: list[Waiting],
    now: int,
    house_bots: bool,
    limit: int = 100,
    house_seats: int | None = None,
) -> list[Table]:
    """Every table that can be made now, one after the other (each as ``find_table`` on the
    players the ones before left), at most ``limit``; their house bots in at most
    ``house_seats`` seats in all (None: as many as they need; a table whose bots would pass it
    is not made, its players wait on)."""
    lineup = Lineup(waiting, house_bots, house_seats)
    tables: list[Table] = []
    while len(tables) < limit:
        table = lineup.next_table(now)
        if table is None:
            break
        tables.append(table)
        lineup.remove(table.players)
        if lineup.house_seats is not None:
            lineup.house_seats -= table.bots
    return tables
