"""``check`` (the guards only) and ``decide`` agree, at random points of random games:

- whenever ``decide`` accepts a command, ``check`` accepts it;
- whenever ``check`` refuses a command, ``decide`` refuses it with the same code;

over the listed commands of every seat, commands with one parameter changed, commands of every
type for seats not waited for, the system and lobby commands, and deadlines (current and stale).
``check`` resolves nothing, so it must never raise anything but a RuleViolation either.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from gcbc.rules import RuleViolation, check, current_wait, decide, is_terminal
from gcbc.rules.state import State
from gcbc_contract import commands as C
from gcbc_contract.options import TableOptions
from tests.property.strategies import (
    OPTION_SETS,
    PLAYER_COUNTS,
    Plan,
    Step,
    options_id,
    plans,
    play,
)
from tests.property.test_legal_commands import (
    SETTINGS,
    any_command,
    concrete_listed,
    mutations,
    never_accepted,
    well_typed,
)

CHECK_RATE = 0.1
CANDIDATES = 40


def outcome(f: Any, s: State, c: Any) -> str | None:
    """None when accepted, else the refusal's code."""
    try:
        f(s, c)
    except RuleViolation as v:
        return v.code
    return None


def agree(s: State, c: Any) -> None:
    decided, checked = outcome(decide, s, c), outcome(check, s, c)
    if decided is None:
        assert checked is None, f"decide accepts {c}, check refuses it: {checked}"
    if checked is not None:
        assert decided == checked, f"{c}: check refuses with {checked}, decide with {decided}"


def lobby_commands(s: State, rng: random.Random) -> list[Any]:
    n = len(s.seats)
    return [
        C.OpenTable(table_id="t", seats=rng.choice([3, 4, 8, 9])),
        C.TakeSeat(name=rng.choice(["ann", "\u0430nn", "House bot 1", "", " ", "x" * 41, "bob\n"])),
        C.LeaveSeat(seat=rng.randrange(-1, n + 1)),
        C.StartGame(random_seed=rng.randrange(100)),
        C.CloseTable(),
        C.PostChat(seat=rng.randrange(-1, n + 1), text=rng.choice(["hi", "", "\x1b[2J"])),
    ]


def candidates(s: State, rng: random.Random) -> list[Any]:
    n = len(s.seats)
    out: list[Any] = []
    if not s.identities:
        return lobby_commands(s, rng)
    w = current_wait(s)
    for seat in range(n):
        listed = concrete_listed(s, seat, rng)
        out += listed
        for c in listed:
            out += mutations(c, n, rng)
            out += [replace(c, seat=o) for o in range(n) if o != seat]
    for seat in [*range(n), -1, n]:
        out += any_command(seat, n, rng)
    out += never_accepted(s, rng.randrange(n))
    out += lobby_commands(s, rng)
    if w is not None:
        out += [C.DeadlinePassed(wait=w.id), C.DeadlinePassed(wait=w.id - 1)]
    return [c for c in out if well_typed(c)]


def check_game(plan: Plan) -> None:
    rng = random.Random(plan.choices ^ 0xC4EC)
    stats = {"states": 0, "tried": 0}

    def observe(step: Step) -> None:
        s = step.after
        if is_terminal(s):
            return
        if rng.random() < CHECK_RATE or not s.identities:
            stats["states"] += 1
            cs = candidates(s, rng)
            for c in rng.sample(cs, min(CANDIDATES, len(cs))):
                agree(s, c)
                stats["tried"] += 1

    play(plan, observe)
    assert stats["states"] >= 1 and stats["tried"] > 0


@pytest.mark.parametrize("n", PLAYER_COUNTS)
@settings(SETTINGS, max_examples=15)
@given(data=st.data())
def test_check_agrees_with_decide(n: int, data: st.DataObject) -> None:
    check_game(data.draw(plans(n, TableOptions()), label="plan"))


@pytest.mark.parametrize("options", OPTION_SETS, ids=options_id)
@settings(SETTINGS, max_examples=2)  # 64 games, two per combination of the table options
@given(data=st.data())
def test_check_agrees_with_decide_every_option_combination(
    options: Any, data: st.DataObject
) -> None:
    check_game(data.draw(plans(options=options), label="plan"))
