"""When equipment may be played (RULES §6): the moment a seat is in, and what each card's timing
allows."""

from __future__ import annotations

from typing import Literal

from gcbc.rules.state import ACTION, FINISHED, LOBBY, WINDOW, State

Timing = Literal["any", "own_turn", "shoot_window", "own_turn_action", "after_investigation"]
ANY: Timing = "any"  # during your own turn before your action, and in every window
OWN_TURN: Timing = "own_turn"  # only during your own turn, before your action
SHOOT_WINDOW: Timing = "shoot_window"  # only in a shoot (or bite) window
OWN_TURN_ACTION: Timing = "own_turn_action"  # only during your own turn, and it is your action
# right after an investigation (classic Camera): the first time holders are asked once it resolved
AFTER_INVESTIGATION: Timing = "after_investigation"


def moment(s: State, seat: int) -> str | None:
    """When ``seat`` may play equipment now: 'own_turn', a window kind, or None."""
    step = s.step
    if s.prompts or step == LOBBY or step == FINISHED:
        return None
    if step == WINDOW:
        w = s.window
        if w is not None and seat in w.pending:
            return w.kind
    elif step == ACTION and s.turn_seat == seat:
        return "own_turn"
    return None


def allows(timing: Timing, when: str, s: State) -> bool:
    """Whether a card of this timing may be played at the moment ``when`` (``moment(s, seat)``)."""
    if timing == ANY:
        return True
    if timing == OWN_TURN or timing == OWN_TURN_ACTION:
        return when == "own_turn"
    if timing == SHOOT_WINDOW:
        return when == "shoot" or when == "bite"  # RULES §8: bites count as shots
    if timing == AFTER_INVESTIGATION:
        # RULES §7.2: the window (re)opened once an investigation resolved, whatever its kind
        return when != "own_turn" and bool(s.window.after_investigation)  # type: ignore[union-attr]
    return False
