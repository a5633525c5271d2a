"""A Hypothesis-driven random game driver for the property tests.

Hypothesis draws the plan of a game (player count, the table's random seed, the seed of the
driver's own choices and how often it sends the rarer commands); the choices themselves come from
a ``random.Random`` seeded by the plan, so a plan is one reproducible game. The driver plays
``legal_commands`` of the seats ``current_wait`` names until ``is_terminal``, and fails when a
game does not end within ``MAX_STEPS`` commands or stops waiting for anyone before its end.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from gcbc.rules import current_wait, initial_state, is_terminal, legal_commands, run
from gcbc.rules.legal import expand, is_template
from gcbc.rules.state import State
from gcbc_contract import commands as C
from gcbc_contract.options import TableOptions

PLAYER_COUNTS = (4, 5, 6, 7, 8)
# every combination of the table options (docs/api.md): any edition with either or both expansions,
# extra equipment or not, and both wound placements (RULES §4)
OPTION_SETS = tuple(
    TableOptions(edition=edition, zombies=z, bombers_traitors=bt, extra_equipment=x, wounds=w)
    for edition in ("fourth", "classic")
    for z in (False, True)
    for bt in (False, True)
    for x in (False, True)
    for w in ("token", "card")
)


def options_id(o: TableOptions) -> str:
    flags = [f for f in ("zombies", "bombers_traitors", "extra_equipment") if getattr(o, f)]
    return "+".join([o.edition, *flags, f"{o.wounds}_wounds"])


# each combination of the options once, the player counts taken in turn: every combination and
# every count in make test's short run (the slow run plays every pair)
OPTION_SAMPLE = tuple((o, PLAYER_COUNTS[i % len(PLAYER_COUNTS)]) for i, o in enumerate(OPTION_SETS))
OPTION_SAMPLE_IDS = [f"{options_id(o)}-{n}" for o, n in OPTION_SAMPLE]


MAX_STEPS = 6000
META = (C.SetAutoPass, C.Resume)


@dataclass(frozen=True)
class Plan:
    """One reproducible random game."""

    n: int
    seed: int  # the table's random seed (StartGame)
    choices: int  # seeds the driver's random.Random
    auto_pass: float = 0.0  # chance, per step, that some seat toggles its auto-pass
    deadline: float = 0.0  # chance, per step, that the current wait's deadline passes (autopilot)
    sleepy: int | None = None  # a seat that mostly lets its deadlines pass (it goes absent)
    options: TableOptions = TableOptions()


@dataclass(frozen=True)
class Step:
    before: State
    command: Any
    events: list[Any]
    after: State


@dataclass
class Game:
    plan: Plan
    steps: list[Step] = field(default_factory=list)

    @property
    def final(self) -> State:
        return self.steps[-1].after

    @property
    def events(self) -> list[Any]:
        return [e for step in self.steps for e in step.events]

    @property
    def commands(self) -> list[Any]:
        return [step.command for step in self.steps]


seeds = st.integers(min_value=0, max_value=2**32 - 1)


def plans(
    n: int | st.SearchStrategy[int] | None = None, options: TableOptions | None = None
) -> st.SearchStrategy[Plan]:
    """Game plans; ``n`` fixes the player count (default: any of 4..8), ``options`` the table
    options (default: any combination)."""
    counts = st.sampled_from(PLAYER_COUNTS) if n is None else n
    if isinstance(counts, int):
        counts = st.just(counts)
    return st.builds(
        Plan,
        n=counts,
        seed=seeds,
        choices=seeds,
        auto_pass=st.sampled_from((0.0, 0.0, 0.01, 0.05)),
        deadline=st.sampled_from((0.0, 0.0, 0.02, 0.1)),
        sleepy=st.sampled_from((None, None, None, 0)),
        options=st.sampled_from(OPTION_SETS) if options is None else st.just(options),
    )


def kind(command: Any) -> str:
    return "PlayEquipment" if is_template(command) else type(command).__name__


def concrete(command: Any, rng: random.Random) -> Any:
    return expand(command, rng.choice) if is_template(command) else command


def lobby(n: int, seed: int, options: TableOptions | None = None) -> list[Any]:
    return [
        C.OpenTable(table_id="t", seats=n, options=options or TableOptions()),
        *(C.TakeSeat(name=f"p{i}") for i in range(n)),
        C.StartGame(random_seed=seed),
    ]


def next_command(s: State, plan: Plan, rng: random.Random) -> Any:
    """A random command the table accepts now (legal commands of a waited-for seat, mostly)."""
    w = current_wait(s)
    assert w is not None, f"not terminal, yet waiting for nobody (step {s.step})"
    n = len(s.seats)
    if plan.auto_pass and rng.random() < plan.auto_pass:
        seat = rng.randrange(n)
        return rng.choice([c for c in legal_commands(s, seat) if isinstance(c, META)])
    if plan.deadline and rng.random() < plan.deadline:
        return C.DeadlinePassed(wait=w.id)
    assert w.seats, f"wait {w} names no seat"
    seat = rng.choice(w.seats)
    if seat == plan.sleepy and rng.random() < 0.9:
        return C.DeadlinePassed(wait=w.id)
    options = [c for c in legal_commands(s, seat) if not isinstance(c, META)]
    assert options, f"seat {seat} is waited for ({w.kind}) but has no legal command"
    k = rng.choice(sorted({kind(c) for c in options}))
    return concrete(rng.choice([c for c in options if kind(c) == k]), rng)


def play(plan: Plan, observe: Callable[[Step], None] | None = None) -> Game:
    """Play the whole game of ``plan``; ``observe`` sees every step as it happens."""
    rng = random.Random(plan.choices)
    game = Game(plan)
    s = initial_state()

    def apply(command: Any) -> None:
        nonlocal s
        after, events = run(s, command)
        step = Step(s, command, events, after)
        game.steps.append(step)
        if observe is not None:
            observe(step)
        s = after

    for command in lobby(plan.n, plan.seed, plan.options):
        apply(command)
    while not is_terminal(s):
        if len(game.steps) >= MAX_STEPS:
            raise AssertionError(f"{plan}: the game did not end within {MAX_STEPS} commands")
        apply(next_command(s, plan, rng))
    return game
