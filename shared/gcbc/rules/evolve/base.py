"""What the handlers of the events share: what a handler is, and the seats' tuples they rebuild."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gcbc.rules.state import Seat, State, Trail

# one per event: (state, event, the version after it, the log with it) -> the next state
Handler = Callable[[State, Any, int, Trail], State]

Seats = tuple[Seat | None, ...]


def put(seats: Seats, i: int, seat: Seat) -> Seats:
    """``seats`` with seat ``i`` replaced by ``seat``."""
    out = list(seats)
    out[i] = seat
    return tuple(out)


def less(seats: tuple[int, ...], seat: int) -> tuple[int, ...]:
    """``seats`` without ``seat``."""
    if seat not in seats:
        return seats
    i = seats.index(seat)
    return seats[:i] + seats[i + 1 :]
