"""A table folded from its log entries: what every service needs to know of one table.

Entries alternate command / answer (``gcbc.contract.entries``). Folding keeps the engine state,
the sequence of the last entry, the unanswered command if any, the seats' token hashes, the
command ids already recorded (idempotent retries), refusals, and when the current wait began
(deadlines are recomputed from the log this way after a restart).
"""

from __future__ import annotations

from typing import Any

from gcbc.contract import events as E
from gcbc.contract.entries import CommandEntry, OutcomeEntry, RefusalEntry, decode_entry
from gcbc.eventlog.port import Stored
from gcbc.rules import current_wait, fold
from gcbc.rules.state import State, initial_state


class FoldedTable:
    __slots__ = (
        "command_ids",
        "opened_at",
        "pending",
        "pending_command",
        "answers",
        "refusals",
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
        self.command_ids: dict[tuple[int, str], int] = {}  # (seat, command_id) -> its sequence
        self.refusals: dict[int, RefusalEntry] = {}  # command sequence -> its refusal
        self.answers: dict[int, int] = {}  # command sequence -> its answer's sequence
        self.wait_id: int | None = None
        self.wait_started = 0.0
        self.opened_at = 0.0  # when the table was opened (seconds since the epoch, the writer's)

    @property
    def settled(self) -> bool:
        return self.pending is None

    def apply(self, stored: Stored) -> Any:
        """Fold one entry (entries must come in order, each once)."""
        entry = decode_entry(stored.data)
        self.seq = stored.seq
        if isinstance(entry, CommandEntry):
            self.pending = stored.seq
            self.pending_command = entry
            c = entry.command
            if c.command_id is not None:
                self.command_ids[(c.seat, c.command_id)] = stored.seq
            return entry
        command = self.pending_command
        if self.pending is not None:
            self.answers[self.pending] = stored.seq
        self.pending = None
        self.pending_command = None
        if isinstance(entry, RefusalEntry):
            self.refusals[entry.answers] = entry
            return entry
        assert isinstance(entry, OutcomeEntry)
        self.state = fold(entry.events, self.state)
        for e in entry.events:
            if isinstance(e, E.TableOpened):
                self.opened_at = entry.at / 1000
            elif isinstance(e, E.SeatTaken) and command is not None and command.token_hash:
                self.tokens[e.seat] = command.token_hash
            elif isinstance(e, E.SeatLeft):
                self.tokens.pop(e.seat, None)
        wait = current_wait(self.state)
        wait_id = wait.id if wait is not None else None
        if wait_id != self.wait_id:
            self.wait_id = wait_id
            self.wait_started = entry.at / 1000  # the writer's stamp: the same live and on replay
        return entry

    def lobby_closes(self, lobby_seconds: float) -> float | None:
        """When a table still waiting for players closes (None: it is not waiting)."""
        if not self.settled or self.state.step != "lobby" or not self.state.table_id:
            return None
        return self.opened_at + lobby_seconds

    def deadline(self) -> tuple[int, float] | None:
        """(wait id, time in seconds since the epoch) of the current wait's deadline."""
        if not self.settled:
            return None
        wait = current_wait(self.state)
        if wait is None or not wait.seats:
            return None
        return wait.id, self.wait_started + wait.seconds
