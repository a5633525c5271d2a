"""The guns' events (and a zombie's Arms'): taken, aimed, dropped."""

from __future__ import annotations

from msgspec.structs import replace

from gcbc.rules.evolve.base import Handler, put
from gcbc.rules.state import State, Trail
from gcbc_contract import events as E


def _gun_taken(s: State, e: E.GunTaken, v: int, log: Trail) -> State:
    seats, centre = s.seats, s.guns_in_centre
    if e.from_seat is None:
        centre -= 1
    else:
        seats = put(seats, e.from_seat, replace(seats[e.from_seat], gun=False, aim=None))
    seats = put(seats, e.seat, replace(seats[e.seat], gun=True, aim=e.aim))
    locked = s.guns_locked | {e.seat} if e.locked else s.guns_locked
    return replace(s, version=v, log=log, seats=seats, guns_in_centre=centre, guns_locked=locked)


def _gun_aimed(s: State, e: E.GunAimed, v: int, log: Trail) -> State:
    seats = put(s.seats, e.seat, replace(s.seats[e.seat], aim=e.target))
    return replace(s, version=v, log=log, seats=seats)


def _gun_dropped(s: State, e: E.GunDropped, v: int, log: Trail) -> State:
    seats = put(s.seats, e.seat, replace(s.seats[e.seat], gun=False, aim=None))
    marks = replace(s.marks, arm_barred=e.seat) if e.barred else s.marks
    return replace(
        s,
        version=v,
        log=log,
        seats=seats,
        guns_in_centre=s.guns_in_centre + 1,
        marks=marks,
    )


def _arms_aimed(s: State, e: E.ArmsAimed, v: int, log: Trail) -> State:
    seats = put(s.seats, e.seat, replace(s.seats[e.seat], arms_aim=e.target))
    return replace(s, version=v, log=log, seats=seats)


# the guns' events -> their handlers
HANDLERS: dict[type, Handler] = {
    E.GunTaken: _gun_taken,
    E.GunAimed: _gun_aimed,
    E.GunDropped: _gun_dropped,
    E.ArmsAimed: _arms_aimed,
}
