"""The autopilot (RULES §10): a legal choice for a seat that missed its deadline or is away,
drawn from the table's seeded randomness so that a replay reproduces it."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from gcbc.contract import commands as C
from gcbc.contract import events as E
from gcbc.rules.evolve import peek
from gcbc.rules.legal import actions, expand, is_template, legal_commands
from gcbc.rules.query import aim_choices, aim_of
from gcbc.rules.rng import Rng
from gcbc.rules.state import AIM, State

AUTOPILOT_STREAM = 1 << 32
ABSENT_AFTER = 3  # missed deadlines in a row


def choose(s: State, seat: int, rng: Rng) -> Any:
    if not s.prompts and s.step == AIM:
        aim = aim_of(s, seat)
        if aim is not None and aim in aim_choices(s, seat):
            return C.Aim(seat=seat, target=aim)  # keep a valid aim
    # an absent seat's legal commands are only Resume and SetAutoPass: ask as if it were present
    present = replace(
        s, seats=tuple(replace(x, absent=False) if i == seat else x for i, x in enumerate(s.seats))
    )
    if s.prompts:
        options = [c for c in legal_commands(present, seat) if isinstance(c, (C.Choose, C.Discard))]
    elif s.step == AIM:
        options = [c for c in legal_commands(present, seat) if isinstance(c, C.Aim)]
    else:
        options = actions(s, seat)
        kinds = sorted({type(c).__name__ for c in options})
        kind = rng.choice(kinds)
        options = [c for c in options if type(c).__name__ == kind]
    pick = rng.choice(options)
    return expand(pick, rng.choice) if is_template(pick) else pick


def autopilot_events(s: State, seat: int, missed: bool) -> list[Any]:
    from gcbc.rules.decide import direct_events

    rng = Rng(s.random_seed, AUTOPILOT_STREAM + s.rng_draws)
    command = choose(s, seat, rng)
    events: list[Any] = [E.AutopilotActed(seat=seat, missed=missed)]
    after = peek(s, events)
    if missed and not after.seat(seat).absent and after.seat(seat).missed >= ABSENT_AFTER:
        events.append(E.SeatAbsent(seat=seat))
        after = peek(after, events[-1:])
    return events + direct_events(after, command, autopilot=True)
