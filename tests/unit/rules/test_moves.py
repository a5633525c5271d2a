"""The moves' declarations (``gcbc.rules.moves``) and what is derived from them agree, at random
points of random games of every option set, for every action and card of both editions:

- the compiled options are the declaration interpreted one value after another, in that order;
- a rule's ``select`` keeps exactly the values its ``test`` passes;
- a parameter's ``quick`` gives exactly the values that pass ``among`` and its first
  ``quick_rules`` rules, and its values depend on no parameter but those in ``depends``;
- every option passes ``check`` and ``accepts``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from gcbc.rules import current_wait, initial_state, is_terminal, legal_commands, run
from gcbc.rules.actions import ACTIONS
from gcbc.rules.aim import AIM
from gcbc.rules.arrange import ARRANGE
from gcbc.rules.equipment.registry import CARDS, CLASSIC
from gcbc.rules.moves import Move, Param, _combinations, expand, is_template
from gcbc.rules.state import State
from gcbc_contract import commands as C
from gcbc_contract.options import TableOptions

MOVES: list[Move] = [*ACTIONS, AIM, ARRANGE, *CARDS.values(), *CLASSIC.values()]
OPTIONS = [
    TableOptions(),
    TableOptions(edition="classic"),
    TableOptions(zombies=True, extra_equipment=True),
    TableOptions(bombers_traitors=True, extra_equipment=True),
    TableOptions(edition="classic", zombies=True, bombers_traitors=True, wounds="token"),
]
PREFIXES = 12  # choices of the earlier parameters tried per parameter


def states(options: TableOptions, seed: int) -> list[State]:
    """Some states of one random game (the seats act at random among their legal commands)."""
    rng = random.Random(seed)
    s = initial_state()
    s, _ = run(s, C.OpenTable(table_id="t", seats=rng.choice([4, 5, 6, 7, 8]), options=options))
    for i in range(len(s.seats)):
        s, _ = run(s, C.TakeSeat(name=f"p{i}"))
    s, _ = run(s, C.StartGame(random_seed=seed))
    out = []
    while not is_terminal(s) and len(out) < 60:
        w = current_wait(s)
        assert w is not None
        if rng.random() < 0.2:
            out.append(s)
        seat = rng.choice(w.seats)
        entry = rng.choice([c for c in legal_commands(s, seat) if not isinstance(c, C.SetAutoPass)])
        s, _ = run(s, expand(entry, rng.choice) if is_template(entry) else entry)
    return out


def describe(move: Move) -> str:
    return f"{type(move).__name__}"


def check_move(s: State, move: Move, seat: int, rng: random.Random) -> None:
    assert move.possible(s, seat) == bool(move.options(s, seat)), f"{describe(move)}: possible"
    if not move.allowed(s, seat):  # a parameter's rules may count on the requirements
        assert move.options(s, seat) == []
        return
    params = move.params
    for i, p in enumerate(params):
        prefixes = _combinations(params[:i], s, seat)
        for chosen in rng.sample(prefixes, min(PREFIXES, len(prefixes))):
            if not isinstance(p, Param):
                continue
            values = list(p.among(s, seat, chosen))
            for k, rule in enumerate(p.rules):
                if rule.select is not None:
                    kept = rule.select(s, seat, values, chosen)
                    assert list(kept) == [v for v in values if rule.test(s, seat, v, chosen)], (
                        f"{describe(move)} {p.name}: rule {rule.code} selects otherwise than it tests"
                    )
                if p.quick is not None and k == p.quick_rules - 1:
                    assert list(p.quick(s, seat, chosen)) == [
                        v
                        for v in p.among(s, seat, chosen)
                        if all(r.test(s, seat, v, chosen) for r in p.rules[: p.quick_rules])
                    ], f"{describe(move)} {p.name}: quick is not its rules"
                values = [v for v in values if rule.test(s, seat, v, chosen)]
            assert p.allowed(s, seat, chosen) == values, f"{describe(move)} {p.name}: allowed"
            if p.depends is not None:
                only = {d: chosen[d] for d in p.depends}
                assert p.allowed(s, seat, only) == values, (
                    f"{describe(move)} {p.name} depends on more than {p.depends}"
                )
    if move.template_field is None:
        compiled = move.options(s, seat)
        assert compiled == move.interpreted_options(s, seat), f"{describe(move)}: compiled options"
        for c in compiled:
            move.check(s, seat, c)
            assert move.accepts(
                s, seat, {p.name: v for p, v in zip(params, values_of(move, c), strict=True)}
            )


def values_of(move: Move, cmd: Any) -> list[Any]:
    """A command's parameter values, in declared order."""
    out = []
    for p in move.params:
        if not isinstance(p.field, str):
            out.append(tuple(getattr(cmd, f) for f in p.field))
        elif p.index is not None:
            out.append(getattr(cmd, p.field)[p.index])
        else:
            out.append(getattr(cmd, p.field))
    return out


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: str(o))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_declarations_and_what_derives_from_them_agree(options: TableOptions, seed: int) -> None:
    rng = random.Random(seed)
    tried = 0
    for s in states(options, seed):
        for move in MOVES:
            for seat in range(len(s.seats)):
                if not s.seats[seat].eliminated or move.name == "defibrillator":
                    check_move(s, move, seat, rng)
                    tried += 1
    assert tried > 100
