"""Target checks the cards share, each refusing with a stable code."""

from __future__ import annotations

from gcbc.rules.errors import refuse
from gcbc.rules.query import alive, protected
from gcbc.rules.state import State


def seat_exists(s: State, seat: int | None) -> int:
    if seat is None or not 0 <= seat < len(s.seats):
        raise refuse("invalid_target", f"there is no seat {seat}")
    return seat


def living(s: State, seat: int | None) -> int:
    seat = seat_exists(s, seat)
    if not alive(s, seat):
        raise refuse("target_eliminated", f"seat {seat} is eliminated")
    return seat


def other_living(s: State, me: int, seat: int | None) -> int:
    seat = seat_exists(s, seat)
    if seat == me:
        raise refuse("target_is_self", "choose another seat")
    return living(s, seat)


def investigable(s: State, me: int, seat: int | None) -> int:
    seat = other_living(s, me, seat)
    if protected(s, seat):
        raise refuse("target_disguised", f"seat {seat} cannot be investigated")
    return seat


def face_down_card(s: State, seat: int, position: int | None) -> int:
    count = len(s.seat(seat).cards)  # 3, or 1 after a classic Defibrillator
    if position is None or not 1 <= position <= count:
        raise refuse("invalid_position", f"position must be 1 to {count}")
    if s.seat(seat).face_up[position - 1]:
        raise refuse("card_not_face_down", f"seat {seat}'s card at {position} is face up")
    return position


def two_seats(cmd_targets: tuple[int, ...], cmd_positions: tuple[int, ...]) -> None:
    if len(cmd_targets) != 2 or len(cmd_positions) != 2:
        raise refuse("bad_parameters", "name two targets and one position for each")
    if cmd_targets[0] == cmd_targets[1]:
        raise refuse("invalid_target", "the two seats must be different")
