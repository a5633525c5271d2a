"""The seats' presence: the deadlines the autopilot met, absence and return, automatic passing,
and talk."""

from __future__ import annotations

from msgspec.structs import replace

from gcbc.rules.evolve.base import Handler, less, put
from gcbc.rules.state import State, Trail, Window
from gcbc_contract import events as E


def _autopilot_acted(s: State, e: E.AutopilotActed, v: int, log: Trail) -> State:
    draws = s.rng_draws + 1
    if e.missed:
        st = s.seats[e.seat]
        seats = put(s.seats, e.seat, replace(st, missed=st.missed + 1))
        return replace(s, version=v, log=log, rng_draws=draws, seats=seats)
    return replace(s, version=v, log=log, rng_draws=draws)


def _not_pending(w: Window | None, seat: int) -> Window | None:
    """The window without ``seat``: a seat that no longer answers windows (away, or passing
    automatically) is not waited for."""
    if w is not None and seat in w.pending:
        return replace(w, pending=less(w.pending, seat))
    return w


def _seat_absent(s: State, e: E.SeatAbsent, v: int, log: Trail) -> State:
    seats = put(s.seats, e.seat, replace(s.seats[e.seat], absent=True))
    return replace(s, version=v, log=log, seats=seats, window=_not_pending(s.window, e.seat))


def _seat_returned(s: State, e: E.SeatReturned, v: int, log: Trail) -> State:
    seats = put(s.seats, e.seat, replace(s.seats[e.seat], absent=False, missed=0))
    return replace(s, version=v, log=log, seats=seats)


def _miss_streak_ended(s: State, e: E.MissStreakEnded, v: int, log: Trail) -> State:
    seats = put(s.seats, e.seat, replace(s.seats[e.seat], missed=0))
    return replace(s, version=v, log=log, seats=seats)


def _auto_pass_set(s: State, e: E.AutoPassSet, v: int, log: Trail) -> State:
    seats = put(s.seats, e.seat, replace(s.seats[e.seat], auto_pass=e.enabled))
    window = _not_pending(s.window, e.seat) if e.enabled else s.window
    return replace(s, version=v, log=log, seats=seats, window=window)


def _chat_posted(s: State, e: E.ChatPosted, v: int, log: Trail) -> State:
    return replace(s, version=v, log=log, chat=s.chat.append((e.seat, e.text)))


# the seats' presence's events -> their handlers
HANDLERS: dict[type, Handler] = {
    E.AutopilotActed: _autopilot_acted,
    E.SeatAbsent: _seat_absent,
    E.SeatReturned: _seat_returned,
    E.MissStreakEnded: _miss_streak_ended,
    E.AutoPassSet: _auto_pass_set,
    E.ChatPosted: _chat_posted,
}
