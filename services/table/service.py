"""The table service's core, without HTTP: check a command against the table's current state,
append it with optimistic concurrency and idempotence, and read its answer back from the read
model — one road back to the client: the projection writes, at the answer's position, the views
and the answer (outcome or refusal) for whoever sent the command; the service waits once, on the
read model reaching that position.

The service keeps the tables its clients touch folded (``FoldedCache``), for the checks and the
seats' tokens; a follower keeps them warm. A stale table costs a retry, never a wrong answer: the
append expects the sequence the check used."""

from __future__ import annotations

import asyncio
import functools
import hashlib
import hmac
import logging
import time
import uuid
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from gcbc.clock import now_ms
from gcbc.eventlog.port import EventLog, Stored, Subscription, WrongExpectedSequence
from gcbc.eventlog.records import append_entry, entry_or_none
from gcbc.keyvalue.port import KeyValue
from gcbc.readmodel.port import Answer, StoredView, ViewReader, viewer_key
from gcbc.rules import RuleViolation
from gcbc_contract import commands as C
from gcbc_contract.entries import CommandEntry
from gcbc_contract.options import HouseBots
from services.common import house_tables, metrics, view_writer
from services.common.cache import IDLE_SECONDS, FoldedCache
from services.common.folded import FoldedTable
from services.common.house_bots import bot_seat
from services.common.rules import ENGINE, Rules
from services.common.settings import CHAT_LIMIT, LOG_LIMIT
from services.table.ended import EndedViews
from services.table.problems import ApiError, refusal, retry_later
from services.table.replay_worker import Setup as ReplaySetup
from services.table.replays import Replays
from services.table.shown import PlayerAt, player_at, player_at_end, status_of

log = logging.getLogger("gcbc.table")

RETRIES = 8
SETTLE_WAIT = 5.0  # seconds a command waits for the table's earlier commands to be answered
REFUSALS_KEPT = 10_000  # refusals of commands sent with a command_id, kept for their retries


def already_seated() -> ApiError:
    return ApiError(409, "already_seated", "this player holds a seat at this table already")


@functools.lru_cache(maxsize=16_384)
def token_hash(token: str) -> str:
    """What a table records of a seat's token (every request of a seat names it: remembered)."""
    return hashlib.sha256(token.encode()).hexdigest()


class TableService:
    KEEP_HISTORIES = 256  # finished tables' histories kept encoded …
    KEEP_HISTORY_BYTES = 64 << 20  # … in this many bytes at most

    def __init__(
        self,
        events: EventLog,
        model: ViewReader,
        rules: Rules = ENGINE,
        bot_secret: str = "",
        house: KeyValue | None = None,
        replays: Replays | None = None,
        view_limits: tuple[int | None, int | None] = (LOG_LIMIT, CHAT_LIMIT),
    ) -> None:
        """``view_limits``: the log entries and chat messages in a view (the projection's), for
        the views made here of a finished table whose views expired."""
        self.bot_secret = bot_secret  # house bots' tokens are derived from it
        self.house = house  # the house's tables (services.common.house_tables; None: none noted)
        self.rules = rules  # what a command is checked with before it is appended
        self.events = events
        self.model = model
        self.ended = EndedViews(view_limits)
        self.cache = FoldedCache(events)
        self._histories: dict[str, bytes] = {}
        self._history_bytes = 0
        # replays and histories are folded by a worker process of their own
        self.replays = replays or Replays(ReplaySetup())
        # a registered player's token -> its player, as this process last checked it (None: no
        # players here): a player's token acts for the seat its player holds at a table
        self.player_of: Callable[[str], str | None] | None = None
        # (table, seat, command_id) -> the command refused under it and its refusal, the most
        # recent last (a refusal records nothing in the log: kept here for its retries)
        self._refusals: OrderedDict[tuple[str, int, str], tuple[Any, ApiError]] = OrderedDict()

    # --- reading ------------------------------------------------------------------------------
    async def table(self, table_id: str, held: bool = False) -> FoldedTable:
        """The table, caught up with the log; 404 if there is none. ``held``: one this process
        holds folded is taken as it is, without a trip to the log (an anonymous look, a
        spectator's view or stream, is answered by the read model alone)."""
        t = self.cache.tables.get(table_id) if held else None
        if t is None or t.seq == 0 or not t.state.table_id:
            t = await self.cache.get(table_id)
        if t.seq == 0 or not t.state.table_id:
            raise ApiError(404, "no_table", f"there is no table {table_id}")
        return t

    async def exists(self, table_id: str) -> None:
        """404 unless the table is held here or its log has an entry: one read of its last
        entry, never a fold (an anonymous look is answered by the read model alone; a fold of a
        long log for it would let anyone keep the event loop busy)."""
        t = self.cache.tables.get(table_id)
        if t is not None and t.seq:
            return
        metrics.LOG_READS.inc()  # (its last entry: a round trip all the same)
        if await self.events.last(table_id) is None:
            raise ApiError(404, "no_table", f"there is no table {table_id}")

    def seat_of(self, t: FoldedTable, token: str | None) -> int | None:
        if not token:
            return None
        digest = token_hash(token)
        for seat, known in t.tokens.items():
            if hmac.compare_digest(known, digest):
                return seat
        bots = t.state.house_bots
        if bots is not None and self.bot_secret:
            seat = bot_seat(self.bot_secret, t.table_id, bots.seats, token)
            if seat is not None:
                return seat
        if self.player_of is not None and t.players:
            return self.player_seat(t, self.player_of(token))
        return None

    def house_bots(self, table_id: str) -> HouseBots | None:
        """The seats the house plays at the table (as this process holds it: a seat's token was
        just checked on it)."""
        t = self.cache.tables.get(table_id)
        return t.state.house_bots if t is not None else None

    def house_seat(self, table_id: str, seat: int) -> bool:
        """Whether the seat is one the house plays at the table (``house_bots``)."""
        bots = self.house_bots(table_id)
        return bots is not None and seat in bots.seats

    @staticmethod
    def player_seat(t: FoldedTable, player: str | None) -> int | None:
        """The seat the player holds at the table (None: none)."""
        if player is None:
            return None
        return next((seat for seat, held in t.players.items() if held == player), None)

    async def players_at(self, tables: list[str], player_id: str) -> list[PlayerAt | None]:
        """Each table as the read model shows it to the player, read together, no log folded: a
        finished one as its seated record does, the others as their rosters (a hundred
        bytes each, where a view grows with its table's chat; None: not projected yet)."""
        ends = await self.model.seated(tables)
        open_ = [t for t, seated in zip(tables, ends, strict=True) if seated is None]
        held = dict(zip(open_, await self.model.rosters(open_), strict=True))
        out: list[PlayerAt | None] = []
        for t, seated in zip(tables, ends, strict=True):
            record = held.get(t)
            if seated is not None:
                out.append(player_at_end(seated, player_id))
            else:
                out.append(player_at(record, player_id) if record is not None else None)
        return out

    async def player_at_folded(self, table_id: str, player_id: str) -> PlayerAt | None:
        """The table as ``players_at`` shows it to the player, from its log (a table whose view
        is not projected yet); None: no such table."""
        try:
            t = await self.table(table_id, held=True)
        except ApiError:
            return None  # not opened after all
        return PlayerAt(view_writer.shown_status(t), self.player_seat(t, player_id))

    async def view(
        self,
        table_id: str,
        seat: int | None,
        after: int | None = None,
        timeout: float = 0.0,
        position: int = 0,
        last: StoredView | None = None,
    ) -> StoredView | None:
        """The view once its version is > ``after`` and its position >= ``position``, or the
        current one when ``timeout`` runs out (long-poll); ``last``: the view the caller got
        last (a stream)."""
        return await self.model.wait(table_id, viewer_key(seat), position, after, timeout, last)

    async def finished_view(
        self, table_id: str, seat: int | None, reading: Callable[[], Awaitable[None]]
    ) -> StoredView | None:
        """A finished table's view once its views have expired from the read model, made from
        its log (``EndedViews``). None: not a table the read model knows as finished (one not
        projected yet is the projection's to write). ``reading`` is awaited first if its log must
        be read (a client's rate of such reads)."""
        # its record, and the position a later entry (a chat after the end) left, read together
        (seated,), stored = await asyncio.gather(
            self.model.seated([table_id]), self.model.position(table_id)
        )
        if seated is None:
            return None
        kept = self.ended.kept(table_id, seat, stored)
        if kept is not None:
            return kept
        t = self.cache.tables.get(table_id)
        # one being folded, or behind, is waited for
        if t is None or view_writer.table_status(t) != "finished" or t.seq < stored:
            await reading()
            t = await self.table(table_id)
            if view_writer.table_status(t) != "finished":
                return None
        return self.ended.made(t, seat)

    async def answered(
        self, table_id: str, viewer: str, command: int, timeout: float
    ) -> tuple[StoredView, Answer] | None:
        """The viewer's view once it reflects the command's answer, with the answer; None if
        that takes longer than ``timeout``."""
        got = await self.model.wait(table_id, viewer, position=command + 1, timeout=timeout)
        if got is None or got.position <= command:
            return None
        answer = got.answer(command)
        if answer is None:  # answered long ago (a retry of an old command): the folded log has it
            answer = (await self.cache.get(table_id)).answer(command)
        if answer is None:
            return None
        return got, answer

    async def history(self, table_id: str, reading: Callable[[], Awaitable[None]]) -> bytes:
        """A finished table's every event, encoded once: it never changes (and a reader must not
        make the server re-read the whole log each time). ``reading`` is awaited before the log
        is read (a client's rate of such reads)."""
        cached = self._histories.get(table_id)
        if cached is None:
            await self._over(table_id, "the history is public once the game is over")
            cached = await self.replays.history(table_id, reading)
            if table_id in self._histories:  # another request made it meanwhile
                return self._histories[table_id]
            self._histories[table_id] = cached
            self._history_bytes += len(cached)
            while len(self._histories) > self.KEEP_HISTORIES or (
                self._history_bytes > self.KEEP_HISTORY_BYTES and len(self._histories) > 1
            ):
                oldest = next(iter(self._histories))
                self._history_bytes -= len(self._histories.pop(oldest))
        return cached

    async def replay(
        self, table_id: str, step: int, seat: int | None, reading: Callable[[], Awaitable[None]]
    ) -> bytes:
        """The view ``seat`` (None: a spectator) had after the ``step``-th answered command of a
        finished table (``ReplayStep``'s JSON). ``reading``: as for ``history``."""
        await self._over(table_id, "a replay is public once the game is over")
        return await self.replays.step(table_id, step, seat, reading)

    async def _over(self, table_id: str, why: str) -> None:
        """409 for a table still in play: as this process holds it (its tail read, never its
        whole log), else as its roster says (a hundred bytes, never its views, which grow with
        its chat). Not left to the replays, which read the whole log first: a refusal for its
        length would tell something of a game in play."""
        t = self.cache.tables.get(table_id)
        if t is None:
            (roster,) = await self.model.rosters([table_id])
            if roster is None and (await self.model.seated([table_id]))[0] is not None:
                return  # finished, its views expired
            if roster is None:
                await self.exists(table_id)
                # a table whose views are not written (yet, or again after a wipe): nothing
                # says it is over, and its log is not read to find out
                raise retry_later(
                    "views_unavailable", "this table's views are not ready: try again"
                )
            if status_of(roster) != "finished":
                raise ApiError(409, "not_finished_yet", why)
        elif t.state.step != "finished":
            t = await self.table(table_id)
            if t.state.step != "finished":
                raise ApiError(409, "not_finished_yet", why)

    # --- writing ------------------------------------------------------------------------------
    async def append_command(
        self,
        table_id: str,
        command: Any,
        token_hash_: str | None = None,
        new_table: bool = False,
        player: str | None = None,
        owner: str = "",
    ) -> int:
        """Append ``command`` once the rules accept it on the table's current state: its
        sequence. Refused commands raise (and record nothing)."""
        stale = checked = noted = False
        # waiting for earlier commands to be answered is bounded by time; a lost race or a
        # stale check counts as a try (many commands at once wait their turn, not a 409)
        tries, settle_by = 0, time.monotonic() + SETTLE_WAIT
        while tries < RETRIES:
            changed = self.cache.waiter(table_id)
            t = self.cache.tables.get(table_id)
            if t is None and new_table and not stale:
                # a new id: nothing to read (the append expects an empty log, and says if not)
                t = FoldedTable(table_id)
            elif t is None or stale or (t.seq == 0 and not new_table):
                t = await self.cache.get(table_id)
                checked = True
            stale = False
            if not new_table and t.seq == 0:
                raise ApiError(404, "no_table", f"there is no table {table_id}")
            cid = getattr(command, "command_id", None)
            first = t.command_ids.get((command.seat, cid)) if cid is not None else None
            if first is not None:
                return await self._retried(table_id, command, first)
            if cid is not None:
                self._refused_before(table_id, command, cid)
            if not t.settled:
                if time.monotonic() >= settle_by:
                    break
                await self.cache.changed(table_id, 0.2, changed)
                stale = True
                continue
            try:
                accepted = self._accepted(t, command, refuse=checked)
            except ApiError as refused:
                if cid is not None:
                    self._keep_refusal(table_id, command, cid, refused)
                raise
            if not accepted or not self._seatable(t, player, refuse=checked):
                checked = stale = True  # the cached state may lag the log: refuse on the latest
                tries += 1
                continue
            if new_table and not noted:
                await self._note_house_table(table_id, command, owner)
                noted = True
            seq = await self._append(t, command, token_hash_, new_table, player)
            if seq is None:
                stale = True  # someone else got there first: re-read, re-check
                tries += 1
                continue
            return seq
        raise ApiError(409, "table_busy", "the table is busy: try again")

    def _refused_before(self, table_id: str, command: Any, cid: str) -> None:
        """A command_id this process refused a command under before (the refusal recorded
        nothing in the log): the same command gets the same answer, another one is refused as a
        command_id reused (the API: sending the same command_id again returns the first
        answer)."""
        first = self._refusals.get((table_id, command.seat, cid))
        if first is None:
            return
        self._refusals.move_to_end((table_id, command.seat, cid))
        if first[0] == command:
            p = first[1]
            raise ApiError(p.status, p.code, p.detail, p.field, p.headers, p.extra)
        raise _reused(command)

    def _keep_refusal(self, table_id: str, command: Any, cid: str, refused: ApiError) -> None:
        self._refusals[(table_id, command.seat, cid)] = (command, refused)
        while len(self._refusals) > REFUSALS_KEPT:
            self._refusals.popitem(last=False)

    def check(self, t: FoldedTable, command: Any) -> None:
        """The problem the rules' guards refuse ``command`` with on ``t`` (the log's latest), if
        they do: what its append would answer, known before anything else is recorded for it."""
        self._accepted(t, command, refuse=True)

    def _accepted(self, t: FoldedTable, command: Any, refuse: bool) -> bool:
        """Whether the rules' guards accept ``command`` on ``t`` (the worker resolves it); a
        refusal raises its problem if ``refuse`` (``t`` is the log's latest), else False."""
        try:
            self.rules.check(t.state, command)
        except RuleViolation as v:
            if not refuse:
                return False
            metrics.REFUSALS.labels(v.code, "table").inc()
            if log.isEnabledFor(logging.DEBUG):
                log.debug(
                    "refused before the log: %s",
                    v.code,
                    extra=_context(t.table_id, t.seq, command, code=v.code),
                )
            raise refusal(v.code, v.message) from None
        return True

    def _seatable(self, t: FoldedTable, player: str | None, refuse: bool) -> bool:
        """Whether ``player`` (taking a seat) holds none at ``t`` yet; 409 if it does and
        ``refuse``. Checked here, on the settled table right before the append, as the rules'
        guards are: two seats asked for at once by one player are appended one after the other,
        and the second meets the first's."""
        if self.player_seat(t, player) is None:
            return True
        if refuse:
            raise already_seated()
        return False

    async def _retried(self, table_id: str, command: Any, seq: int) -> int:
        """A retry's answer: the sequence of the first command sent with its command_id, read
        back from the log (retries are rare: nothing is kept for them); a command_id the seat
        already used for another command is refused, never taken for a retry of the first."""
        stored = await self.events.at(table_id, seq)
        first = entry_or_none(stored) if stored is not None else None
        if isinstance(first, CommandEntry) and first.command != command:
            raise _reused(command)
        return seq

    async def _note_house_table(self, table_id: str, command: Any, owner: str) -> None:
        """A table opened with house bots is noted first (with whose it is: ``owner``): the bot
        worker never misses one."""
        if self.house is None:
            return
        house = house_tables.house_table(command, owner)
        if house is not None:
            await self.house.put(table_id, house_tables.encode(house))

    async def mark_started(self, t: FoldedTable) -> None:
        """A table with house bots whose start was just appended (or that quick play starts by
        itself): its note marked started (``house_tables.InPlay`` counts its seats). Not failed
        for (the start is recorded): the bot worker marks a note it finds in play unmarked."""
        if self.house is not None and t.state.house_bots is not None:
            bots, seats = t.state.house_bots, len(t.state.seats)
            try:
                await house_tables.mark_started(self.house, t.table_id, bots, seats)
            except Exception as e:  # noqa: BLE001  (the bot worker mends it)
                log.warning("table %s: its house note not marked started: %s", t.table_id, e)

    async def _append(
        self,
        t: FoldedTable,
        command: Any,
        token_hash_: str | None,
        new_table: bool,
        player: str | None = None,
    ) -> int | None:
        """Append ``command`` right after ``t``'s last entry, folded into ``t``: its sequence;
        None if the log has moved on since."""
        table_id, expected = t.table_id, t.seq
        entry = CommandEntry(
            command=command, token_hash=token_hash_, at=now_ms(), prev=expected, player=player
        )
        cid = getattr(command, "command_id", None)
        msg_id = f"cmd:{table_id}:{command.seat}:{cid}" if cid else uuid.uuid4().hex
        try:
            result = await append_entry(self.events, table_id, entry, expected, msg_id)
        except WrongExpectedSequence:
            return None
        if result.duplicate and cid:  # its command_id raced a first send
            await self._retried(table_id, command, result.seq)
        if not result.duplicate and t.seq == expected:
            t.apply(result.stored)
        if type(command) is C.StartGame:
            await self.mark_started(t)
        if new_table and t.seq and table_id not in self.cache.tables:
            self.cache.tables[table_id] = t  # followed from now on
        if log.isEnabledFor(logging.DEBUG):
            log.debug("appended", extra=_context(table_id, result.seq, command))
        return result.seq

    async def rest_tables(self, every: float = 30.0, idle: float = IDLE_SECONDS) -> None:
        """Tables at rest leave memory (read again from the log when asked for)."""
        while True:
            await asyncio.sleep(every)
            self.cache.forget_idle(idle)

    async def follow(self) -> Subscription:
        """Keep the tables this process holds warm: every new entry of a held table is folded
        (tables nobody asked about stay unloaded). Only an optimisation: the checks re-read a
        table whose append found it stale."""

        async def on_entry(stored: Stored) -> None:
            if stored.table in self.cache.tables:
                try:
                    await self.cache.deliver(stored)
                except Exception:  # noqa: BLE001  (the next request catches up from the log)
                    self.cache.drop(stored.table)

        # the answers alone (each carries its command): this process folds its own commands as
        # it appends them, and another's command only matters with its answer
        return await self.events.follow(on_entry, only="answers")


def _context(table_id: str, seq: int, command: Any, **more: Any) -> dict[str, Any]:
    """A log line's fields (services.common.logs): table, seq, seat, command."""
    return {
        "table": table_id,
        "seq": seq,
        "seat": getattr(command, "seat", None),
        "command": metrics.kind_of(command),
        **more,
    }


def _reused(command: Any) -> ApiError:
    return ApiError(
        409,
        "command_id_reused",
        f"command_id {command.command_id!r} was sent before with another command: a new command"
        " needs a new command_id",
        "command_id",
    )
