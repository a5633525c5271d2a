"""Helpers shared by the rules scenario tests, on top of ``tests.support``.

Import them explicitly: ``from tests.unit.rules.conftest import play_turn``.
"""

from __future__ import annotations

from typing import Any

from gcbc.rules import current_wait, run
from gcbc.rules.state import State
from gcbc_contract import commands as C


def down(s: State, seat: int) -> int | None:
    """The first face-down position of ``seat`` (what Equip / Arm turn face up), or None."""
    return next((p for p in (1, 2, 3) if not s.seat(seat).face_up[p - 1]), None)


def finish(s: State, aim: int | None = None) -> tuple[State, list[Any]]:
    """Let the table run on: every asked seat passes every window and the turn seat aims (at
    ``aim``, else it keeps its aim), until a turn's action, a prompt, or the end of the game."""
    events: list[Any] = []
    while True:
        w = current_wait(s)
        if w is None:
            return s, events
        if w.kind == "reaction":
            s, more = run(s, C.Pass(seat=w.seats[0]))
        elif w.kind == "aim":
            seat = w.seats[0]
            target = aim if aim is not None else s.seat(seat).aim
            assert target is not None
            s, more = run(s, C.Aim(seat=seat, target=target))
        else:
            return s, events
        events += more


def play_turn(s: State, command: Any, aim: int | None = None) -> tuple[State, list[Any]]:
    """``command`` as the turn's action, then the rest of the turn as in ``finish``."""
    s, events = run(s, command)
    s, more = finish(s, aim)
    return s, [*events, *more]


def arm(s: State, seat: int, target: int) -> State:
    """``seat`` takes a gun aimed at ``target`` as its turn (turning its first face-down card up)."""
    s, _ = play_turn(s, C.Arm(seat=seat, target=target, position=down(s, seat)), aim=target)
    return s


def equip(s: State, seat: int) -> State:
    """``seat`` equips as its turn (turning its first face-down card up), discarding the card it
    drew if it goes over the hand limit."""
    s, _ = play_turn(s, C.Equip(seat=seat, position=down(s, seat)))
    w = current_wait(s)
    if w is not None and w.kind == "prompt" and w.prompt == "discard":
        s, _ = run(s, C.Discard(seat=w.seats[0], card=s.seat(w.seats[0]).hand[-1]))
        s, _ = finish(s)
    return s
