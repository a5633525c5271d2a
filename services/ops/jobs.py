"""What an operator's pass does with each table as it is folded: render what the read model
should hold (rebuild, diff), decide every recorded command again (verify), or sum it up (tables).

A job folds one table entry by entry and gives its result once the table is whole. A pass's
kind of job (``JobKind``: a job class, or a ``functools.partial`` of one with its settings) is
picklable: a pass may run its jobs in worker processes (``services.ops.scan``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from gcbc.eventlog.port import Stored
from gcbc.eventlog.records import entry_of
from gcbc.readmodel.port import Replacement
from gcbc.rules import RuleViolation, decide
from gcbc_contract.entries import CommandEntry, OutcomeEntry, RefusalEntry
from services.common import view_writer
from services.common.folded import FoldedTable
from services.common.metrics import kind_of
from services.common.settings import CHAT_LIMIT, DEADLINE_GRACE, LOG_LIMIT, STUCK_AFTER


class Failed(msgspec.Struct, frozen=True):
    """A table whose job failed (an engine that raises on its log): the pass goes on."""

    table: str
    error: str


class Job:
    """Folds one table; ``result()`` once it is whole (None: nothing to report)."""

    def __init__(self, table_id: str) -> None:
        self.t = FoldedTable(table_id)
        self.entries = 0
        self.error: str | None = None

    def apply(self, stored: Stored) -> None:
        self.entries += 1
        self.t.apply(stored)

    def result(self) -> Any:
        raise NotImplementedError

    def feed(self, stored: Stored) -> None:
        """``apply``, a failure kept for the end (the entries after it are not folded)."""
        if self.error is None:
            try:
                self.apply(stored)
            except Exception as e:  # noqa: BLE001
                self.error = f"entry #{stored.seq}: {type(e).__name__}: {e}"

    def finish(self) -> Any:
        """``result()``, or Failed."""
        if self.error is not None:
            return Failed(self.t.table_id, self.error)
        try:
            return self.result()
        except Exception as e:  # noqa: BLE001
            return Failed(self.t.table_id, f"at its end: {type(e).__name__}: {e}")


JobKind = Callable[[str], Job]  # the jobs of one pass, by table


# --- rebuild, diff ------------------------------------------------------------------------------
class Render(Job):
    def __init__(
        self, table_id: str, log_limit: int | None = LOG_LIMIT, chat_limit: int | None = CHAT_LIMIT
    ) -> None:
        super().__init__(table_id)
        self.log_limit, self.chat_limit = log_limit, chat_limit

    def result(self) -> Replacement | None:
        if not view_writer.renders(self.t):
            return None
        return view_writer.replacement(self.t, self.log_limit, self.chat_limit)


# --- verify -------------------------------------------------------------------------------------
class Divergence(msgspec.Struct, frozen=True):
    """A recorded answer the engine no longer gives (or a log out of shape)."""

    table: str
    seq: int  # the answer's position (or the entry out of place)
    command: str  # the command's type
    expected: Any  # what the log recorded
    got: Any  # what the engine decides now


class Verified(msgspec.Struct, frozen=True):
    table: str
    commands: int
    divergences: list[Divergence]


_builtins = msgspec.to_builtins


def first_difference(expected: list[Any], got: list[Any]) -> tuple[Any, Any]:
    """The first event where two outcomes part, as (expected, got) with its index."""
    for i, (a, b) in enumerate(zip(expected, got, strict=False)):
        if a != b:
            return {"event": i, **_builtins(a)}, {"event": i, **_builtins(b)}
    i = min(len(expected), len(got))
    a = _builtins(expected[i]) if i < len(expected) else None
    b = _builtins(got[i]) if i < len(got) else None
    was = {"event": i, "events": len(expected), "was": a}
    return was, {"event": i, "events": len(got), "is": b}


def redecide(state: Any, command: Any) -> tuple[str, Any]:
    """What the engine answers now: ("outcome", events) or ("refusal", code)."""
    try:
        return "outcome", decide(state, command)
    except RuleViolation as v:
        return "refusal", v.code
    except Exception as e:  # noqa: BLE001  (an engine that crashes diverges too)
        return "refusal", f"internal_error ({type(e).__name__}: {e})"


class Verify(Job):
    def __init__(self, table_id: str) -> None:
        super().__init__(table_id)
        self.commands = 0
        self.divergences: list[Divergence] = []

    def _diverged(self, seq: int, command: Any, expected: Any, got: Any) -> None:
        kind = kind_of(command) if command is not None else "-"
        self.divergences.append(Divergence(self.t.table_id, seq, kind, expected, got))

    def apply(self, stored: Stored) -> None:
        self.entries += 1
        t = self.t
        try:
            entry = entry_of(stored)
        except msgspec.DecodeError as e:
            self._diverged(stored.seq, None, "an entry", f"not an entry: {e}")
            t.apply(stored)
            return
        if isinstance(entry, CommandEntry):
            if t.pending is not None:
                self._diverged(stored.seq, entry.command, f"an answer to #{t.pending}", "a command")
        elif isinstance(entry, OutcomeEntry | RefusalEntry):
            command = t.pending_command
            if command is None or entry.answers != t.pending:
                self._diverged(
                    stored.seq, None, f"an answer to #{t.pending}", f"an answer to #{entry.answers}"
                )
            else:
                self.commands += 1
                self._check(stored.seq, command, entry)
        t.apply(stored, entry)

    def _check(self, seq: int, command: CommandEntry, answer: OutcomeEntry | RefusalEntry) -> None:
        kind, got = redecide(self.t.state, command.command)
        if isinstance(answer, RefusalEntry):
            if kind != "refusal" or got != answer.code:
                expected = {"refusal": answer.code}
                now = {"refusal": got} if kind == "refusal" else {"events": len(got)}
                self._diverged(seq, command.command, expected, now)
        elif kind == "refusal":
            self._diverged(seq, command.command, {"events": len(answer.events)}, {"refusal": got})
        elif got != answer.events:
            expected, now = first_difference(answer.events, got)
            self._diverged(seq, command.command, expected, now)

    def result(self) -> Verified:
        return Verified(self.t.table_id, self.commands, self.divergences)


# --- tables -------------------------------------------------------------------------------------
class Summary(msgspec.Struct, frozen=True, omit_defaults=True):
    """A table as ``tables`` lists it."""

    table: str
    status: str  # lobby | playing | finished
    seats: int
    taken: int
    options: dict[str, Any]
    entries: int
    last_at: float  # when its last entry was written (seconds since the epoch)
    seeded: bool = False
    turn: int | None = None
    stuck: str | None = None  # why it looks stuck (None: it does not)


def stuck(t: FoldedTable, now: float, lobby_ttl: float, last_at: float) -> str | None:
    """Why a table looks stuck: a command unanswered longer than the rules worker's patience,
    a wait past its deadline with no ``deadline passed``, a lobby past its closing time."""
    command = t.pending_command
    if command is not None:
        waited = now - (command.at / 1000 if command.at else last_at)
        if waited > STUCK_AFTER:
            kind = kind_of(command.command)
            return f"command #{t.pending} ({kind}) unanswered for {waited:.0f} s"
        return None
    closes = t.lobby_closes(lobby_ttl)
    if closes is not None:
        late = now - closes
        return f"lobby open {late:.0f} s past its closing time" if late > DEADLINE_GRACE else None
    due = t.deadline()
    if due is not None and now - due[1] > DEADLINE_GRACE:
        return f"wait {due[0]} {now - due[1]:.0f} s past its deadline, no deadline passed"
    return None


class Summarize(Job):
    def __init__(self, table_id: str, now: float, lobby_ttl: float) -> None:
        super().__init__(table_id)
        self.now, self.lobby_ttl = now, lobby_ttl
        self.last_at = 0.0

    def apply(self, stored: Stored) -> None:
        super().apply(stored)
        self.last_at = stored.at

    def result(self) -> Summary | None:
        t = self.t
        s = t.state
        if not s.table_id:
            return None
        return Summary(
            table=t.table_id,
            status=view_writer.table_status(t),
            seats=len(s.seats),
            taken=sum(1 for x in s.seats if x is not None),
            options=msgspec.to_builtins(s.options.with_defaults()),
            entries=self.entries,
            last_at=self.last_at,
            seeded=s.requested_seed is not None or s.deal is not None,
            turn=s.turn_number if s.step not in ("lobby", "finished") else None,
            stuck=stuck(t, self.now, self.lobby_ttl, self.last_at),
        )
