"""check, decide and run: a command's guards, its events, and the state after them.

``check`` runs only the guards and rules of a command (``commands``; a deadline's: is it the
current wait's?). ``decide`` checks, resolves the command into its direct events, folds them and
appends what follows by itself (``flow.settle``, the autopilot of absent seats included), so the
returned list is the whole outcome of the command.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gcbc.rules import commands
from gcbc.rules.autopilot import check_deadline, deadline_passed
from gcbc.rules.flow import settle
from gcbc.rules.state import State
from gcbc_contract import commands as C

assert set(commands.HANDLING) | {C.DeadlinePassed} == set(C.AnyCommand.__args__)


def check(state: State, command: Any) -> None:
    """Refuse ``command`` (RuleViolation) unless its guards and rules let it through now: who may
    send it, the phase, the prompt waiting, the action's or card's own rules. Nothing is resolved
    (no deal, no card's effect, no autopilot, no ``flow.settle``): cheap enough to run before
    appending a command.

    Whenever ``decide`` accepts a command, ``check`` does; whenever ``check`` refuses one,
    ``decide`` refuses it with the same code: ``decide`` is ``check``, then the resolution, which
    refuses nothing. So no refusal is left to ``decide`` alone.
    """
    if type(command) is C.DeadlinePassed:
        check_deadline(state, command)
    else:
        commands.check(state, command)


def direct_events(s: State, command: Any) -> list[Any]:
    """The command's own events, without what follows by itself."""
    if type(command) is C.DeadlinePassed:
        check_deadline(s, command)
        return deadline_passed(s, command)
    return commands.seat_events(s, command)


def decide(state: State, command: Any) -> list[Any]:
    """All events a command causes, or RuleViolation. Pure: same inputs, same events."""
    events = direct_events(state, command)
    _, more = settle(state, events)
    return events + more


def run(
    state: State,
    command: Any,
    observe: Callable[[State], None] | None = None,
) -> tuple[State, list[Any]]:
    """decide and evolve in one go: the new state and the events (what a worker or bot loop
    needs). ``observe`` is called with the state after every event (the simulator's checks)."""
    events = direct_events(state, command)
    s, more = settle(state, events, observe)
    return s, [*events, *more]
