"""The matchmaker: players join and leave the queue, and tables of matching players are made
(``gcbc.queue.matching``), opened with their seats kept for the matched players, each player
seated on its seat as itself, and started.

Each change to the queue is appended to its log expecting the last entry read
(``gcbc.queue.log``), so any number of table-service processes may run a matchmaker: of two
that match the same players, one records its table, the other reads again. A table is recorded
(``Matched``) before it opens: a matchmaker stopped halfway leaves it to the next one, which
finishes it (every step is one the log tells done or not), then records it seated."""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time

import msgspec

from gcbc.clock import now_ms
from gcbc.eventlog.port import LogUnavailable, OutcomeUnknown, WrongExpectedSequence
from gcbc.players.folded import FoldedPlayer
from gcbc.queue.log import FoldedQueue, QueueLog
from gcbc.queue.matching import Table, Waiting, find_tables
from gcbc.readmodel.port import ModelUnavailable
from gcbc.rules import RuleViolation
from gcbc.rules.state import State
from gcbc_contract import commands as C
from gcbc_contract.options import Deadlines, HouseBots
from gcbc_contract.queue import (
    AnyQueueEntry,
    JoinQueue,
    Matched,
    Queued,
    QueueLeft,
    QueueState,
    TableSeated,
)
from services.common.house_tables import InPlay
from services.common.ratings import pool_of
from services.common.settings import Settings
from services.table.identities import Identities, log_away
from services.table.lobby import check_offered
from services.table.problems import ApiError, retry_later
from services.table.service import TableService, token_hash

log = logging.getLogger("gcbc.table")

TICK = 1.0  # seconds between looks at the queue (the gaps widen, other processes append)
STALE = 5.0  # seconds after which a table matched and not seated is finished by anyone
RETRIES = 8
MAX_TABLES = 100  # tables one look makes at most (the next look makes the rest)
RECENT_TABLES = 200  # the player's latest tables looked at for one it plays at


def accepted_seats(ask: JoinQueue) -> tuple[int, ...]:
    """The seat counts asked for, smallest first: 422 naming ``seats`` for none, or a range
    upside down."""
    if isinstance(ask.seats, list):
        counts = tuple(sorted(set(ask.seats)))
    else:
        counts = tuple(range(ask.seats.min, ask.seats.max + 1))
    if not counts:
        raise ApiError(422, "invalid_body", "seats names at least one seat count", "seats")
    return counts


def kind_of(q: Queued) -> bytes:
    """What players must share to sit at one table: the options (as a table records them) and
    the rated choice."""
    return msgspec.json.encode((q.options.with_defaults(), q.rated))


def _waiting(q: FoldedQueue) -> list[Waiting]:
    return [
        Waiting(w.player_id, w.seats, kind_of(w), w.rated, w.mu, w.at, w.bots_after)
        for w in q.waiting.values()
    ]


class Matchmaker:
    def __init__(
        self,
        queue: QueueLog,
        service: TableService,
        identities: Identities,
        settings: Settings,
        in_play: InPlay | None = None,
    ) -> None:
        self.queue = queue
        self.service = service
        self.identities = identities
        self.settings = settings
        self.in_play = in_play  # the house's seats in play (None: not counted here)
        self._changed = asyncio.Event()
        self._seen = 0
        self._busy = asyncio.Lock()

    # --- a player's requests -------------------------------------------------------------------
    async def join(self, p: FoldedPlayer, ask: JoinQueue) -> QueueState:
        """Put the player in the queue: 409 already_queued if it waits already, already_playing
        if it holds a seat at a table waiting or in play."""
        seats = accepted_seats(ask)
        self._check(ask, seats)
        if _queued(await self._current(), p.player_id):  # (said before any table is looked at)
            raise ApiError(409, "already_queued", "this player waits in the queue already")
        await self._not_playing(p)
        mu = await self._rating(p, ask) if ask.rated else 25.0
        for _ in range(RETRIES):
            q = await self._current()
            if _queued(q, p.player_id):
                raise ApiError(409, "already_queued", "this player waits in the queue already")
            entry = Queued(
                player_id=p.player_id,
                name=p.name,
                bot=p.bot,
                seats=seats,
                options=ask.options,
                rated=ask.rated,
                bots_after=ask.bots_after,
                at=now_ms(),
                mu=mu,
            )
            if await self._append(entry, q.seq):
                break
        else:
            raise ApiError(409, "queue_busy", "the queue is busy: try again")
        if not self._busy.locked():  # else the look under way (or the next) matches it
            try:
                await self.match()
            except Exception:  # noqa: BLE001  (the player waits: the next look matches it)
                log.warning("matching after a join failed", exc_info=True)
        return self.state_of(await self._current(), p.player_id)

    async def not_queued(self, player_id: str) -> None:
        """409 already_queued if the player waits in the queue (or its table there is being
        opened): a seat taken elsewhere meanwhile would give it two tables at once."""
        if _queued(await self._current(), player_id):
            raise ApiError(
                409,
                "already_queued",
                "this player waits in the queue: leave it (DELETE /queue) before taking a seat",
            )

    async def starting(self, table_id: str) -> bool:
        """Whether the table is one the queue matched and is opening, seating and starting: its
        players may not leave it in the lobby (a seat left there would never be started)."""
        return table_id in (await self._current()).pending

    async def holds_place(self, player_id: str) -> bool:
        """Whether the player waits in the queue, or was placed at a table not over yet: what a
        place holds of its client's seats (and, asked with house bots, of its house seats)."""
        q = await self._current()
        if _queued(q, player_id):
            return True
        placed = q.placed.get(player_id)
        if placed is None:
            return False
        try:
            t = await self.service.table(placed.table_id, held=True)
        except ApiError:
            return False
        return t.state.step != "finished"

    async def leave(self, p: FoldedPlayer) -> None:
        """Take the player out of the queue: 409 not_queued if it is not waiting (the queue may
        have seated it: GET /queue says where)."""
        for _ in range(RETRIES):
            q = await self._current()
            if p.player_id not in q.waiting:
                matched = _queued(q, p.player_id)
                raise ApiError(
                    409,
                    "not_queued",
                    "this player's table is being opened: its seat comes in a moment (GET /queue)"
                    if matched
                    else "this player is not waiting in the queue (GET /queue)",
                )
            if await self._append(QueueLeft(player_id=p.player_id, at=now_ms()), q.seq):
                return
        raise ApiError(409, "queue_busy", "the queue is busy: try again")

    async def state(self, player_id: str, after: int | None, timeout: float) -> QueueState:
        """The player's place; with ``after``, once its version is greater (or after
        ``timeout``)."""
        deadline = time.monotonic() + timeout
        q = await self._current()
        while True:
            got = self.state_of(q, player_id)
            left = deadline - time.monotonic()
            if after is None or got.version > after or left <= 0:
                return got
            changed = self._changed
            try:
                await asyncio.wait_for(changed.wait(), left)
                # the read that found the change folded it: a waiter reads nothing itself (every
                # process's matchmaker reads the queue each TICK, and a crowd of long-polls
                # would otherwise read it once each at every change)
                q = self.queue.folded
            except TimeoutError:
                q = await self._current()  # the last answer as the log tells now

    async def place(self, player_id: str) -> QueueState | None:
        """The player's place now (None: not in the queue)."""
        got = self.state_of(await self._current(), player_id)
        return None if got.status == "none" else got

    @staticmethod
    def state_of(q: FoldedQueue, player_id: str) -> QueueState:
        version = q.version.get(player_id, 0)
        w = q.waiting.get(player_id)
        placed = q.placed.get(player_id)
        if w is None and placed is not None and placed.table_id in q.pending:
            # matched, its table opening: waiting until the player is seated there
            asked = q.pending[placed.table_id][1]
            w = next((a for a in asked if a.player_id == player_id), None)
        if w is not None:
            return QueueState(
                status="waiting",
                version=version,
                since=w.at,
                seats=list(w.seats),
                options=w.options,
                rated=w.rated,
                bots_after=w.bots_after,
            )
        if placed is not None:
            return QueueState(
                status="seated",
                version=version,
                table_id=placed.table_id,
                seat=placed.seat,
                view_url=f"/tables/{placed.table_id}/view",
            )
        return QueueState(status="none", version=version)

    def _check(self, ask: JoinQueue, seats: tuple[int, ...]) -> None:
        check_offered(ask.options, self.settings)
        if ask.bots_after is not None and not self.settings.bot_secret:
            raise ApiError(
                422,
                "option_not_offered",
                "this server runs no house bots (its bot worker needs GCBC_BOT_SECRET)",
                "bots_after",
            )
        for n in seats:  # a table the rules would refuse to open would never be made
            try:
                self.service.rules.check(
                    State(), C.OpenTable(table_id="0" * 16, seats=n, options=ask.options)
                )
            except RuleViolation as v:
                raise ApiError(422, "invalid_body", f"{n} seats: {v}", "seats") from None

    async def _not_playing(self, p: FoldedPlayer) -> None:
        """409 already_playing if the player holds a seat at one of its latest tables not over,
        as their rosters show it (read together: no log is folded for it, but a table's not
        projected yet)."""
        tables = list(p.tables)[-RECENT_TABLES:]
        for table_id, at in zip(
            tables, await self.service.players_at(tables, p.player_id), strict=True
        ):
            if at is None:
                at = await self.service.player_at_folded(table_id, p.player_id)
            if at is not None and at.status != "finished" and at.seat is not None:
                raise ApiError(
                    409,
                    "already_playing",
                    f"this player holds a seat at table {table_id}, waiting or in play: play it"
                    " (or leave it before the start) first",
                )

    async def _rating(self, p: FoldedPlayer, ask: JoinQueue) -> float:
        model = self.identities.model
        if model is None:
            return 25.0
        try:
            got = await model.ratings(pool_of(ask.options), [p.player_id])
        except ModelUnavailable:
            raise retry_later("views_unavailable", "the ratings are away: try again") from None
        r = got.get(p.player_id)
        return r.mu if r is not None else 25.0

    # --- the log --------------------------------------------------------------------------------
    async def _current(self) -> FoldedQueue:
        try:
            q = await self.queue.current()
        except LogUnavailable as e:
            raise log_away(e) from None
        if q.seq != self._seen:
            self._seen = q.seq
            self._changed.set()
            self._changed = asyncio.Event()
        return q

    async def _append(self, entry: AnyQueueEntry, expected: int) -> bool:
        """Append the entry after ``expected``: False if the queue moved on meanwhile."""
        try:
            await self.queue.append(entry, expected)
        except WrongExpectedSequence:
            return False
        except (LogUnavailable, OutcomeUnknown) as e:
            raise log_away(e) from None
        return True

    # --- matching -------------------------------------------------------------------------------
    async def run(self) -> None:
        """Look at the queue every ``TICK``: the gaps widen and the bots' waits run out with
        time; tables another process matched and left unseated are finished; a snapshot of the
        queue is written when one is due."""
        while True:
            await asyncio.sleep(TICK)
            try:
                await self.lapse()
                await self.match(finish_stale=True)
                await self.queue.snapshot_if_due()
            except Exception:  # noqa: BLE001  (the next look tries again)
                log.warning("the matchmaker's look failed", exc_info=True)

    async def lapse(self) -> None:
        """Take out the players waiting longer than ``GCBC_QUEUE_WAIT`` unmatched, the longest
        waiting first (the queue holds them in the order they came), ``MAX_TABLES`` a look."""
        if not self.settings.queue_wait:
            return
        for _ in range(MAX_TABLES):
            q = await self._current()
            first = next(iter(q.waiting.values()), None)
            now = now_ms()
            if first is None or now - first.at < self.settings.queue_wait * 1000:
                return
            await self._append(QueueLeft(player_id=first.player_id, at=now), q.seq)

    async def match(self, finish_stale: bool = False) -> None:
        """Make every table that can be made now, each recorded, opened and seated."""
        async with self._busy:
            q = await self._current()
            if finish_stale:
                now = now_ms()
                for matched, asked, at in list(q.pending.values()):
                    if now - at >= STALE * 1000:
                        try:
                            await self._seat(matched, asked)
                        except Exception:  # noqa: BLE001  (the others go on: tried next look)
                            log.warning("table %s not seated yet", matched.table_id, exc_info=True)
            made = 0
            for _ in range(MAX_TABLES):  # looks again at most this often (others appending)
                q = await self._current()
                plan = find_tables(
                    _waiting(q),
                    now_ms(),
                    bool(self.settings.bot_secret),
                    MAX_TABLES - made,
                    # the house's seats free (``GCBC_HOUSE_SEATS``): a table needing more waits
                    self.in_play.room(self.settings.house_seats) if self.in_play else None,
                )
                if not plan:
                    return
                for table in plan:
                    if not await self._make(table):
                        break  # the queue moved on otherwise than by this look: look again
                    made += 1

    async def _make(self, table: Table) -> bool:
        """Record the table matched (if its players still wait, the queue unchanged since),
        then open and seat it: False if the queue moved on meanwhile."""
        q = await self._current()
        if any(p not in q.waiting for p in table.players):
            return False
        seats = list(range(table.seats))
        random.shuffle(seats)  # no one is always first to play
        mine = tuple(sorted(seats[: len(table.players)]))
        matched = Matched(
            table_id=secrets.token_hex(8),
            seats=table.seats,
            players=table.players,
            seats_of=mine,
            bots=tuple(sorted(seats[len(table.players) :])),
            at=now_ms(),
        )
        if not await self._append(matched, q.seq):
            return False  # another process changed the queue
        q = await self._current()
        pending = q.pending.get(matched.table_id)
        if pending is not None:
            await self._seat(*pending[:2])
        return True

    async def _seat(self, m: Matched, asked: tuple[Queued, ...]) -> None:
        """Open the matched table, seat each player on its seat as itself, start the game, and
        record it seated; each step skipped once the table's log tells it done."""
        if not asked:
            return
        await self._open(m, asked[0])
        by_player = {q.player_id: q for q in asked}
        gone = False  # a player no more: its seat stays empty, the table never starts
        for player_id, seat in zip(m.players, m.seats_of, strict=True):
            t = await self.service.table(m.table_id)
            if t.state.step != "lobby":
                break  # started, or closed (its lobby's time over): nothing more to seat
            if t.players.get(seat) == player_id or t.state.seats[seat] is not None:
                continue
            p = await self.identities.log.player(player_id)
            q = by_player.get(player_id)
            if p is None or q is None:
                gone = True
                continue
            await self.identities.joined(p, m.table_id)
            # the seat's own token is drawn and never shown: the player's token acts for it
            claim = C.TakeSeat(name=q.name, bot=q.bot, seat_wanted=seat)
            digest = token_hash(secrets.token_urlsafe(24))
            try:
                await self.service.append_command(
                    m.table_id, claim, token_hash_=digest, player=player_id
                )
            except ApiError as e:
                if e.code != "seat_taken":
                    raise
        if not await self._start(m) and not gone:
            return  # a seat not answered yet: the next look finds the table stale, and starts it
        for _ in range(RETRIES):
            q = await self._current()
            if m.table_id not in q.pending:
                return
            if await self._append(TableSeated(table_id=m.table_id, at=now_ms()), q.seq):
                return

    async def _open(self, m: Matched, first: Queued) -> None:
        """Open the matched table as its first player asked (unless it is open already)."""
        bots = None
        if m.bots:
            bots = HouseBots(seats=m.bots, kind="heuristic", think=self.settings.bot_think)
        opening = C.OpenTable(
            table_id=m.table_id,
            seats=m.seats,
            options=first.options,
            deadlines=Deadlines(),
            chat_per_seat=self.settings.chat_per_seat,
            bots=bots,
            held=m.seats_of,
            rated=first.rated,
        )
        try:
            await self.service.append_command(
                m.table_id, opening, new_table=True, owner=f"player {first.player_id}"
            )
        except ApiError as e:
            if e.code != "table_exists":
                raise
        await self._opened(m.table_id)
        if m.bots:  # it starts by itself: its house seats count from now (``_start`` is later)
            await self.service.mark_started(await self.service.table(m.table_id))

    async def _opened(self, table_id: str) -> None:
        """Wait for the rules worker to answer the table's opening (the next look goes on if
        it takes longer)."""
        for _ in range(200):
            t = await self.service.cache.get(table_id)
            if t.seq and t.state.table_id:
                return
            await asyncio.sleep(0.05)
        raise TimeoutError(f"table {table_id} not opened yet")

    async def _start(self, m: Matched) -> bool:
        """Start the game once every seat is taken (the rules worker answers the seats first):
        whether it started (False: a seat still empty after a while)."""
        for _ in range(50):
            t = await self.service.table(m.table_id)
            if t.state.step != "lobby":
                return True
            if all(st is not None for st in t.state.seats):
                break
            await asyncio.sleep(0.1)
        else:
            return False
        start = C.StartGame(seat=m.seats_of[0], random_seed=secrets.randbits(62))
        try:
            await self.service.append_command(m.table_id, start)
        except ApiError as e:
            if e.status != 409:
                raise
        return True


def _queued(q: FoldedQueue, player_id: str) -> bool:
    """Whether the player waits in the queue, or was matched and its table is being opened (the
    queue's GET says waiting until it is seated there)."""
    if player_id in q.waiting:
        return True
    placed = q.placed.get(player_id)
    return placed is not None and placed.table_id in q.pending
