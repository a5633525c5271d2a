"""A table folded from its log entries: what every service needs to know of one table.

Entries alternate command / answer (``gcbc_contract.entries``); an answer carries its command, so
the answers alone fold the same table (the projection and the table service's follower read only
the answers' subjects). Folding keeps the engine state,
the sequence of the last entry, the unanswered command if any, the seats' token hashes, the
command ids already recorded (idempotent retries), the recent answers per viewer (what the read
model hands back to whoever sent a command), and when the current wait began (deadlines are
recomputed from the log this way after a restart).
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Iterator
from typing import Any

import msgspec

from gcbc.eventlog.port import Stored
from gcbc.eventlog.records import entry_of
from gcbc.readmodel.port import ANSWERS_KEPT, PUBLIC, Answer, seat_key
from gcbc.rules import current_wait, fold
from gcbc.rules.state import State, initial_state
from gcbc_contract import commands as C
from gcbc_contract import events as E
from gcbc_contract.entries import CommandEntry, NewerSchema, OutcomeEntry, RefusalEntry

log = logging.getLogger("gcbc.folded")
# the longest a table with house bots waits for its players: the house's seats are few for the
# whole server (GCBC_HOUSE_SEATS), and one left unstarted holds its share of them
HOUSE_LOBBY_SECONDS = 600.0


class FoldedTable:
    __slots__ = (
        "command_ids",
        "appended_at",
        "imported",
        "invitations",
        "opened_at",
        "pending",
        "pending_command",
        "players",
        "recent",
        "seq",
        "state",
        "table_id",
        "tokens",
        "wait_id",
        "wait_started",
    )

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        self.state: State = initial_state()
        self.seq = 0  # the sequence of the last entry folded
        self.pending: int | None = None  # the sequence of a command not answered yet
        self.pending_command: CommandEntry | None = None
        self.tokens: dict[int, str] = {}  # seat -> token hash
        self.invitations: dict[int, str] = {}  # seat kept for an invitee -> its code's hash
        self.players: dict[int, str] = {}  # seat -> the registered player holding it
        self.command_ids: dict[tuple[int, str], int] = {}  # (seat, command_id) -> its sequence
        # viewer key -> the answers to its recent commands (the read model keeps them for it)
        self.recent: dict[str, deque[Answer]] = {}
        self.wait_id: int | None = None
        self.wait_started = 0.0
        self.opened_at = 0.0  # when the table was opened (seconds since the epoch, the writer's)
        self.imported = False  # opened by ``gcbc-ops import`` (a copy of a table played elsewhere)
        self.appended_at = 0.0  # when its last entry was stored here (the log's clock)

    @property
    def settled(self) -> bool:
        return self.pending is None

    def apply(self, stored: Stored, entry: Any = None) -> Any:
        """Fold one entry (entries must come in order, each once; ``entry``: already decoded).
        Something in the table's subject that is not an entry (only an operator could have put
        it there) is stepped over, so one bad message never stops a table, a worker or a
        rebuild. An entry written by newer code is not: NewerSchema, nothing folded (folding on
        past it would answer on a state the log does not hold; this code must be upgraded)."""
        if entry is None:
            try:
                entry = entry_of(stored)
            except NewerSchema:
                raise
            except msgspec.DecodeError as e:
                log.error(
                    "table %s: #%s is not an entry, stepped over: %s",
                    self.table_id,
                    stored.seq,
                    e,
                    extra={"table": self.table_id, "seq": stored.seq},
                )
                self.seq = stored.seq
                return None
        if stored.at:  # (a command read from its answer is folded without a time of its own)
            self.appended_at = stored.at
        if not isinstance(entry, CommandEntry):
            command = entry.command
            if command is not None and self.pending != entry.answers and entry.answers > self.seq:
                # read from the answers alone (their subject's reader): the command they carry
                # is folded first, in its place
                self.apply(Stored(seq=entry.answers, table=self.table_id, data=b""), command)
        self.seq = stored.seq
        if isinstance(entry, CommandEntry):
            self.pending = stored.seq
            self.pending_command = entry
            c = entry.command
            if c.command_id is not None:
                self.command_ids[(c.seat, c.command_id)] = stored.seq
            return entry
        command = self.pending_command
        asked = self.pending
        self.pending = None
        self.pending_command = None
        if isinstance(entry, RefusalEntry):
            if command is not None and asked is not None:
                self._answered(command, Answer(asked, stored.seq, entry.code, entry.message))
            return entry
        assert isinstance(entry, OutcomeEntry)
        self.state = fold(entry.events, self.state)
        taken = self._seats(entry, command)
        if command is not None and asked is not None:
            self._answered(command, Answer(asked, stored.seq, seat=taken))
        wait = current_wait(self.state)
        wait_id = wait.id if wait is not None else None
        if wait_id != self.wait_id:
            self.wait_id = wait_id
            self.wait_started = entry.at / 1000  # the writer's stamp: the same live and on replay
        return entry

    def _seats(self, entry: OutcomeEntry, command: CommandEntry | None) -> int | None:
        """Note what the table service checks beside the rules (when the table opened, its
        invitations' code hashes, the seats' token hashes and players): the seat the command took,
        if any."""
        taken = None
        for e in entry.events:
            if isinstance(e, E.TableOpened):
                self.opened_at = entry.at / 1000
                if command is not None and isinstance(command.command, C.OpenTable):
                    self.imported = command.imported
                    opening = command.command
                    self.invitations = dict(zip(opening.held, opening.invitations, strict=False))
            elif isinstance(e, E.SeatTaken) and command is not None and command.token_hash:
                self.tokens[e.seat] = command.token_hash
                if command.player:
                    self.players[e.seat] = command.player
                taken = e.seat
            elif isinstance(e, E.SeatLeft):
                self.tokens.pop(e.seat, None)
                self.players.pop(e.seat, None)
        return taken

    def _answered(self, command: CommandEntry, answer: Answer) -> None:
        """Keep the answer for whoever will ask: the seat that sent the command while it holds
        a view; the public key for the lobby's seatless commands (open, take a seat) and a seat
        just left. System commands (deadlines, closing) have nobody waiting."""
        c = command.command
        if isinstance(c, C.DeadlinePassed | C.CloseTable):
            return
        seats = self.state.seats
        seated = 0 <= c.seat < len(seats) and seats[c.seat] is not None
        viewer = seat_key(c.seat) if seated else PUBLIC
        kept = self.recent.get(viewer)
        if kept is None:
            kept = self.recent[viewer] = deque(maxlen=ANSWERS_KEPT)
        kept.append(answer)

    def answer(self, command: int) -> Answer | None:
        """The answer to a command still kept (None: not answered yet, or long ago)."""
        for kept in self.recent.values():
            for a in kept:
                if a.command == command:
                    return a
        return None

    def lobby_closes(self, lobby_seconds: float) -> float | None:
        """When a table still waiting for players closes (None: it is not waiting); one with
        house bots waits ``HOUSE_LOBBY_SECONDS`` at most (its house seats are held meanwhile)."""
        if not self.settled or self.state.step != "lobby" or not self.state.table_id:
            return None
        if self.state.house_bots is not None:
            lobby_seconds = min(lobby_seconds, HOUSE_LOBBY_SECONDS)
        return self.opened_at + lobby_seconds

    def deadline(self) -> tuple[int, float] | None:
        """(wait id, time in seconds since the epoch) of the current wait's deadline."""
        if not self.settled:
            return None
        wait = current_wait(self.state)
        if wait is None or not wait.seats:
            return None
        return wait.id, self.wait_started + wait.seconds


def states(stored: list[Stored], table_id: str) -> Iterator[tuple[int, FoldedTable]]:
    """(position, the table folded to it) after each answer: every state a view was made of
    (the same table object, folded further at each step: take what you need as it comes)."""
    t = FoldedTable(table_id)
    for s in stored:
        t.apply(s)
        if t.settled:
            yield s.seq, t
