"""A turn's events: its action, the windows to react in, the prompts to answer."""

from __future__ import annotations

from msgspec.structs import replace

from gcbc.rules.evolve.base import Handler, less, put
from gcbc.rules.state import (
    ACTION,
    AFTER_ACTION,
    AIM,
    DECLARED,
    RESOLVE,
    TURN_END,
    TURN_START,
    WINDOW,
    Declared,
    Prompt,
    State,
    Trail,
    TurnMarks,
    Window,
)
from gcbc_contract import events as E


def _turn_began(s: State, e: E.TurnBegan, v: int, log: Trail) -> State:
    marks = TurnMarks(direction=e.direction)  # none of the last turn's marks
    if e.turn == 1:
        # RULES §7.1: a Coffee or Smoke Grenade played before the first turn acts in it
        m = s.marks
        marks = replace(marks, coffee_seat=m.coffee_seat, reverse_pending=m.reverse_pending)
    return replace(
        s,
        version=v,
        log=log,
        step=ACTION,
        turn_seat=e.seat,
        turn_number=e.turn,
        marks=marks,
        guns_locked=frozenset(),
        investigated=(),
        declared=None,
        turn_since=s.version,
    )


def _action_declared(s: State, e: E.ActionDeclared, v: int, log: Trail) -> State:
    declared = Declared(action=e.action, target=e.target, position=e.position)
    # a shot that stands resolves at once: its window was held already (RULES §6)
    step = RESOLVE if e.stands else DECLARED
    if s.marks.standing is not None:  # a shot declared again: it no longer stands by itself
        marks = replace(s.marks, standing=None)
        return replace(s, version=v, log=log, step=step, declared=declared, marks=marks)
    return replace(s, version=v, log=log, step=step, declared=declared)


def _action_cancelled(s: State, e: E.ActionCancelled, v: int, log: Trail) -> State:
    # the seat chooses again, with a fresh deadline; a reconsidered shot stands if it lets the
    # deadline pass (RULES §6)
    marks = replace(s.marks, standing=s.declared if e.reason == "reconsider" else None)
    return replace(
        s, version=v, log=log, step=ACTION, declared=None, marks=marks, turn_since=s.version
    )


def _action_resolved(s: State, e: E.ActionResolved, v: int, log: Trail) -> State:
    return replace(s, version=v, log=log, step=AFTER_ACTION, declared=None)


def _aim_requested(s: State, e: E.AimRequested, v: int, log: Trail) -> State:
    return replace(s, version=v, log=log, step=AIM, aim_since=s.version)


def _window_opened(s: State, e: E.WindowOpened | E.WindowReopened, v: int, log: Trail) -> State:
    seats = s.seats
    pending = tuple(sorted({i for i in e.asked if not seats[i].auto_pass and not seats[i].absent}))
    plays = s.window.plays if s.window is not None and s.window.kind == e.kind else 0
    # holders asked once investigations resolved: this asking, and no later one, is "right after"
    # them (RULES §7.2)
    window = Window(
        kind=e.kind,
        asked=e.asked,
        pending=pending,
        since=s.version,
        plays=plays,
        after_investigation=s.investigated,
    )
    if s.investigated:
        return replace(s, version=v, log=log, step=WINDOW, window=window, investigated=())
    return replace(s, version=v, log=log, step=WINDOW, window=window)


def _reaction_passed(s: State, e: E.ReactionPassed, v: int, log: Trail) -> State:
    w = s.window
    assert w is not None
    window = replace(w, pending=less(w.pending, e.seat))
    if e.missed:  # a window's deadline counts towards the three in a row (RULES §10)
        st = s.seats[e.seat]
        seats = put(s.seats, e.seat, replace(st, missed=st.missed + 1))
        return replace(s, version=v, log=log, window=window, seats=seats)
    return replace(s, version=v, log=log, window=window)


_AFTER_WINDOW = {"start_of_game": TURN_START, "end_of_turn": TURN_END}


def _window_closed(s: State, e: E.WindowClosed, v: int, log: Trail) -> State:
    step = _AFTER_WINDOW.get(e.kind, RESOLVE)
    return replace(s, version=v, log=log, step=step, window=None)


def _prompt_opened(s: State, e: E.PromptOpened, v: int, log: Trail) -> State:
    prompt = Prompt(seat=e.seat, kind=e.kind, options=e.options, about=e.about, since=s.version)
    return replace(s, version=v, log=log, prompts=(*s.prompts, prompt))


def _prompt_answered(s: State, e: E.PromptAnswered, v: int, log: Trail) -> State:
    prompts = s.prompts[1:]
    if prompts and prompts[0].since < s.version:  # the next prompt's wait starts now
        prompts = (replace(prompts[0], since=s.version), *prompts[1:])
    return replace(s, version=v, log=log, prompts=prompts)


# the turns', the windows' and the prompts' events -> their handlers
HANDLERS: dict[type, Handler] = {
    E.TurnBegan: _turn_began,
    E.ActionDeclared: _action_declared,
    E.ActionCancelled: _action_cancelled,
    E.ActionResolved: _action_resolved,
    E.AimRequested: _aim_requested,
    E.WindowOpened: _window_opened,
    E.WindowReopened: _window_opened,
    E.ReactionPassed: _reaction_passed,
    E.WindowClosed: _window_closed,
    E.PromptOpened: _prompt_opened,
    E.PromptAnswered: _prompt_answered,
}
