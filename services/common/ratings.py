"""Players' ratings, a projection of the log: each rated table, once it ends, rated from the facts
its log holds at the end (each seat's final team, whether it won, whether its player had left),
with OpenSkill's Plackett-Luce model (Weng-Lin), made for any number of teams of uneven size.

- **Pools.** One rating per player and per pool: ``base``, ``zombies``, ``bombers_traitors`` and
  ``zombies_bombers_traitors``. The expansions change who is on which team and how a team wins
  (zombies, Bombers and Traitors), so a rating earned without them says little with them; the
  edition, the extra equipment and where wounds live change cards, not teams: one pool.
- **Rated tables.** Opened rated (by their creator, or by quick play for a rated game), so every
  seat is a registered player's or the house's; no chosen seed or deal (a scenario's cards may
  be known). The house's bots
  are rated as one rater per kind (``house:random``, ``house:heuristic``): a baseline.
- **The result.** The winning seats rank first, every other team second; a seat that left (away
  at the end) ranks last, alone, whatever its team did: leaving a rated game is a loss.
- **The order.** Tables are rated in the order they ended in the tables' log (the position of
  their last answer): the live projection and a rebuild from scratch come out the same."""

from __future__ import annotations

import asyncio
import contextlib
import secrets

import msgspec
from openskill.models import PlackettLuce

from gcbc.eventlog.port import LogAdmin, Stored
from gcbc.eventlog.records import entry_of
from gcbc.playermodel.memory import MemoryPlayerModel
from gcbc.playermodel.port import Rating, RatingBoard, RatingsHeld
from gcbc.readmodel.port import ModelUnavailable
from gcbc.rules.teams import true_team
from gcbc_contract import commands as C
from gcbc_contract.entries import CommandEntry
from gcbc_contract.options import TableOptions
from services.common.folded import FoldedTable

MODEL = PlackettLuce()
HOUSE = "house:"
ENDED = b'"game_won"'  # an answer that ends a game holds this event
HOLD = 30.0  # seconds a rebuild's hold on the ratings lasts unless renewed (a rebuild that stops)


class RatedSeat(msgspec.Struct, frozen=True):
    rater: str  # a player's id, or the house's bots of one kind (HOUSE + kind)
    team: str
    won: bool
    left: bool


def pool_of(options: TableOptions) -> str:
    if options.zombies and options.bombers_traitors:
        return "zombies_bombers_traitors"
    if options.zombies:
        return "zombies"
    return "bombers_traitors" if options.bombers_traitors else "base"


def rated_seats(t: FoldedTable) -> tuple[str, list[RatedSeat]] | None:
    """A finished table's pool and seats as it is rated (None: not a rated table)."""
    s = t.state
    if s.step != "finished" or (s.win_reason or "").startswith("closed") or s.winners is None:
        return None
    if not s.rated or s.setup.requested_seed is not None or s.setup.deal is not None:
        return None
    bots = s.house_bots
    winners = set(s.winners)
    seats = []
    for i, st in enumerate(s.seats):
        if st is None:
            return None
        rater = t.players.get(i)
        if rater is None and bots is not None and i in bots.seats:
            rater = HOUSE + bots.kind
        if rater is None:
            return None
        seats.append(RatedSeat(rater, true_team(s, i), i in winners, st.absent))
    if all(seat.rater.startswith(HOUSE) for seat in seats):
        return None  # the house against itself rates no one
    return pool_of(s.options), seats


def rate(current: dict[str, Rating], seats: list[RatedSeat]) -> dict[str, Rating]:
    """Each rater's rating after the table (``current``: before it; a rater missing: new). A
    rater holding several seats (the house's bots) moves by its seats' mean."""
    teams: dict[tuple[str, int], list[int]] = {}
    for i, seat in enumerate(seats):
        # a seat that left is alone, last; the others by their team and result
        key = ("left", i) if seat.left else (seat.team, int(seat.won))
        teams.setdefault(key, []).append(i)
    groups = list(teams.values())
    if len(groups) < 2:
        return {}  # nobody to be ranked against
    ranks = []
    for key, members in teams.items():
        if key[0] == "left":
            ranks.append(3)
        else:
            ranks.append(1 if seats[members[0]].won else 2)
    before = [
        [
            MODEL.rating(
                current.get(seats[i].rater, Rating()).mu,
                current.get(seats[i].rater, Rating()).sigma,
            )
            for i in members
        ]
        for members in groups
    ]
    after = MODEL.rate(before, ranks=ranks)
    moved: dict[str, list[tuple[float, float]]] = {}
    for members, rated in zip(groups, after, strict=True):
        for i, r in zip(members, rated, strict=True):
            moved.setdefault(seats[i].rater, []).append((r.mu, r.sigma))
    out = {}
    for rater, values in moved.items():
        old = current.get(rater, Rating())
        out[rater] = Rating(
            mu=sum(mu for mu, _ in values) / len(values),
            sigma=sum(sigma for _, sigma in values) / len(values),
            games=old.games + 1,
        )
    return out


async def rate_table(model: RatingBoard, t: FoldedTable, position: int) -> bool:
    """Rate a table that ended at ``position`` (the answer that ended it), if it is a rated one:
    whether ratings were written (never twice: the read model keeps the last position rated)."""
    rated = rated_seats(t)
    if rated is None:
        return False
    pool, seats = rated
    current = await model.ratings(pool, sorted({seat.rater for seat in seats}))
    new = rate(current, seats)
    changes = {r: new[r].ordinal - current.get(r, Rating()).ordinal for r in new}
    return await model.rate_table(position, pool, t.table_id, new, changes)


def imported(first: Stored) -> bool:
    """Whether a table's first entry is an imported one (``gcbc-ops import``): a copy of a game
    played and rated elsewhere, which must not move the ratings here a second time."""
    opening = _opening(first)
    return opening is not None and opening.imported


def opens_rated(first: Stored) -> bool:
    """Whether a table's first entry opens it rated here (a rated table's result moves ratings;
    an imported copy of a game moves none)."""
    opening = _opening(first)
    return opening is not None and opening.command.rated and not opening.imported


def _opening(first: Stored) -> CommandEntry | None:
    try:
        entry = entry_of(first)
    except msgspec.DecodeError:
        return None
    if isinstance(entry, CommandEntry) and isinstance(entry.command, C.OpenTable):
        return entry
    return None


async def rate_log(log: LogAdmin, model: RatingBoard) -> int:
    """Every rated table of the whole log rated, in the order the tables ended, into ``model``
    (one with no rating yet: a rebuild's or a check's, apart from the ratings in use): how many
    tables were rated."""
    tables: dict[str, FoldedTable] = {}
    ended: set[str] = set()  # nothing follows a table's end but what is refused
    rated = 0
    async for batch in log.scan():
        for stored in batch:
            if stored.table in ended:
                continue
            t = tables.get(stored.table)
            if t is None:
                if imported(stored):
                    ended.add(stored.table)  # a copy of a game played elsewhere: not rated
                    continue
                t = tables[stored.table] = FoldedTable(stored.table)
            t.apply(stored)
            if t.settled and t.state.step == "finished":
                del tables[stored.table]
                ended.add(stored.table)
                if ENDED in stored.data:
                    rated += await rate_table(model, t, stored.seq)
    return rated


async def rebuild_ratings(log: LogAdmin, model: RatingBoard) -> int:
    """Every rating made again from the whole tables' log while the projection runs: rated
    apart, under a hold that the projection's ratings wait for, then put in place of every
    rating in one step (one that stops leaves them as they were). How many tables were rated;
    RatingsHeld: another rebuild holds them, or this one lost its hold."""
    holder = f"rebuild:{secrets.token_hex(8)}"
    if not await model.hold_ratings(holder, HOLD):
        raise RatingsHeld("another rebuild holds the ratings: try again once it is done")
    kept = asyncio.create_task(_keep_hold(model, holder))
    try:
        made = MemoryPlayerModel()
        rated = await rate_log(log, made)
        await model.replace_ratings(made.made(), holder)
        return rated
    finally:
        kept.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await kept
        await model.release_ratings(holder)


async def _keep_hold(model: RatingBoard, holder: str) -> None:
    """Renew the rebuild's hold on the ratings till it is done (if it stops, the hold expires)."""
    while True:
        await asyncio.sleep(HOLD / 3)
        with contextlib.suppress(ModelUnavailable):
            await model.hold_ratings(holder, HOLD)
