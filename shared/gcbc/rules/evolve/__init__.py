"""evolve(state, event) -> state: total over every event, pure, no decisions taken here.

Each event's handler returns the next state in one ``replace``, given the version ``v`` and the
log ``log`` it is to carry: every field an event changes is a keyword of that one call.

The handlers live with their part of the game (``table``, ``turns``, ``guns``,
``integrity_cards``, ``wounds``, ``equipment``, ``presence``), each with a table of the events it
folds (``HANDLERS``); what they share is in ``base``.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import add
from typing import Any

from msgspec.structs import replace

from gcbc.rules.evolve import equipment, guns, integrity_cards, presence, table, turns, wounds
from gcbc.rules.evolve.base import Handler
from gcbc.rules.state import State, Trail, initial_state
from gcbc_contract import events as E
from gcbc_contract.cards import MAX_SEATS

_PARTS = (table, turns, guns, integrity_cards, wounds, equipment, presence)
_HANDLERS: dict[type, Handler] = {t: h for part in _PARTS for t, h in part.HANDLERS.items()}

assert sum(len(part.HANDLERS) for part in _PARTS) == len(_HANDLERS), "an event handled twice"
assert set(_HANDLERS) == set(E.AnyEvent.__args__), "evolve must be total over every event"


def _seen_only_by(event: type) -> str | None:
    """The field of ``event`` naming the one seat that sees it happen (None: seen by all)."""
    return None if event.seen_by is None else event.seen_by.fields[0]


def seen_only_by(event: Any) -> int | None:
    """The one seat that sees ``event`` happen (None: every viewer sees it)."""
    field = _seen_only_by(type(event))
    return None if field is None else getattr(event, field)


# UNSEEN_BY_OTHERS[count][owner]: 1 for each of ``count`` viewers (the seats, then the public)
# but ``owner``, 0 for it: what an event only ``owner`` sees adds to the unseen counts
UNSEEN_BY_OTHERS = tuple(
    tuple(tuple(int(i != owner) for i in range(count)) for owner in range(count))
    for count in range(MAX_SEATS + 2)
)


def _unseen_by_others(handler: Handler, field: str) -> Handler:
    """``handler`` of an event only the seat in its ``field`` sees: every other seat and the
    public count one more event unseen."""

    def fold_private(s: State, e: Any, v: int, log: Trail) -> State:
        others = UNSEEN_BY_OTHERS[len(s.unseen)][getattr(e, field)]
        return replace(handler(s, e, v, log), unseen=tuple(map(add, s.unseen, others)))

    return fold_private


# event type -> how it is folded: its handler, and for an event one seat only sees, the counts of
# the events the others have not seen
_FOLDS: dict[type, Handler] = {
    t: handler if _seen_only_by(t) is None else _unseen_by_others(handler, _seen_only_by(t))
    for t, handler in _HANDLERS.items()
}


def evolve(s: State, event: Any) -> State:
    """The state after ``event``: its changes, the version and the log."""
    return _FOLDS[type(event)](s, event, s.version + 1, s.log.append(event))


def peek(s: State, events: Any) -> State:
    """The state after ``events`` for a look-ahead inside a decision: not logged (so the shared
    log is never branched), version unchanged."""
    for e in events:
        s = _HANDLERS[type(e)](s, e, s.version, s.log)
    return s


def fold(
    events: Any, state: State | None = None, observe: Callable[[State], None] | None = None
) -> State:
    """The state after ``events``, each folded by ``evolve``; ``observe`` is called with the state
    after each."""
    s = state if state is not None else initial_state()
    for event in events:
        s = evolve(s, event)
        if observe is not None:
            observe(s)
    return s
