"""Who the table is waiting for, and how long they may take (RULES §10). Deadlines are data here:
the engine never reads a clock; a service times each wait and sends ``deadline_passed``."""

from __future__ import annotations

from msgspec import Struct

from gcbc.rules.state import ACTION, AIM, ARRANGE, WINDOW, State
from gcbc_contract.vocabulary import WaitKind


class Wait(Struct, frozen=True, gc=False):
    id: int  # the version at which the wait began: ``deadline_passed`` names it
    kind: WaitKind
    seats: tuple[int, ...]  # who must still answer
    seconds: float
    prompt: str | None = None


def current_wait(s: State) -> Wait | None:
    if s.prompts:
        p = s.prompts[0]
        return Wait(p.since, "prompt", (p.seat,), s.setup.deadlines.prompt, p.kind)
    step = s.step
    if step == WINDOW:  # (the most frequent)
        w = s.window
        assert w is not None
        return Wait(w.since, "reaction", w.pending, s.setup.deadlines.reaction)
    if step == ACTION:
        return Wait(s.turn_since, "turn", (s.turn_seat,), s.setup.deadlines.turn)
    if step == AIM:
        return Wait(s.aim_since, "aim", (s.turn_seat,), s.setup.deadlines.prompt)
    if step == ARRANGE:
        return Wait(s.arrange_since, "arrange", arranging(s), s.setup.deadlines.arrange)
    return None


def arranging(s: State) -> tuple[int, ...]:
    """The seats still to arrange their cards (an absent one's are arranged for it)."""
    return tuple(i for i, st in enumerate(s.seats) if not st.arranged and not st.absent)
