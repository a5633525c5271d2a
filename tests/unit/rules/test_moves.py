"""The moves' declarations (``gcbc.rules.moves``) and what is derived from them agree, at random
points of random games of every option set, for every action and card of both editions:

- the options are the declaration read one value at a time (each parameter's ``among`` given
  the values chosen before it, kept where every rule's test holds), in that order;
- a command made of values among ``among`` is refused with the code of the first rule a value
  fails (in the declared order), and accepted when none fails;
- a rule's ``select`` keeps exactly the values its ``test`` passes;
- a parameter's values depend on no parameter but those in ``depends``;
- every option passes ``check`` and ``accepts``;
- a move's ``draw`` is its option of the index drawn among as many as it has (so each option is
  as likely as the random bot's law says), the only one without drawing, none without any.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import product
from typing import Any

import pytest

from gcbc.rules import current_wait, initial_state, is_terminal, legal_commands, run
from gcbc.rules.actions import ACTIONS
from gcbc.rules.aim import AIM
from gcbc.rules.arrange import ARRANGE
from gcbc.rules.equipment.base import Card
from gcbc.rules.equipment.registry import CARDS, CLASSIC
from gcbc.rules.errors import RuleViolation
from gcbc.rules.moves import AnyParam, Choose, Chosen, Each, Move, Param
from gcbc.rules.state import State
from gcbc.rules.templates import expand, is_template
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
CANDIDATES = 40  # commands of values among ``among`` tried per move (refused or accepted)
DRAWS = 12  # indices drawn per move and state


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


def _index(i: int, n: int) -> Choose:
    """A ``choose`` that draws index ``i`` among ``n``."""

    def choose(values: Sequence[Any]) -> Any:
        assert values == range(n), f"drawn among {values}, not among the {n} options"
        return values[i]

    return choose


def _no_draw(values: Sequence[Any]) -> Any:
    raise AssertionError(f"drew among {values}: there is no choice")


def check_draws(
    draw: Callable[[Choose], Any], options: list[Any], rng: random.Random, what: str
) -> None:
    """``draw(choose)`` gives ``options[i]`` when ``choose`` draws index ``i`` among
    ``range(len(options))``; the only option without a draw; None without any."""
    if len(options) <= 1:
        assert draw(_no_draw) == (options[0] if options else None), f"{what}: draw"
        return
    for i in rng.sample(range(len(options)), min(DRAWS, len(options))):
        assert draw(_index(i, len(options))) == options[i], f"{what}: draw {i}"


def describe(move: Move) -> str:
    return f"{type(move).__name__}"


def among(p: AnyParam, s: State, seat: int, chosen: Chosen) -> list[Any]:
    """The values the declaration says ``p`` may take, the rules aside."""
    if isinstance(p, Each):
        return [
            tuple(v)
            for v in product(*(p.among(s, seat, {**chosen, "of": of}) for of in chosen[p.over]))
        ]
    return list(p.among(s, seat, chosen))


def follows(p: AnyParam, s: State, seat: int, value: Any, chosen: Chosen) -> str | None:
    """The code of the first rule of ``p`` that ``value`` fails (None: it follows them all)."""
    if isinstance(p, Each):
        for of, v in zip(chosen[p.over], value, strict=True):
            code = follows(p.element(), s, seat, v, {**chosen, "of": of})
            if code is not None:
                return code
        return None
    return next((r.code for r in p.rules if not r.test(s, seat, value, chosen)), None)


def read(params: tuple[AnyParam, ...], s: State, seat: int, rules: bool = True) -> list[Chosen]:
    """Every choice of values for ``params``, one value at a time in declared order: among each
    one's values given those chosen before it (and following its rules)."""
    out: list[Chosen] = [{}]
    for p in params:
        out = [
            {**c, p.name: v}
            for c in out
            for v in among(p, s, seat, c)
            if not rules or follows(p, s, seat, v, c) is None
        ]
    return out


def command(move: Move, seat: int, chosen: Chosen) -> Any:
    """The command of the values ``chosen`` (a list field's elements gathered)."""
    fields: dict[str, Any] = {}
    for p in move.params:
        if p.index is not None:
            fields[p.field] = (*fields.get(p.field, ()), chosen[p.name])
        elif isinstance(p.field, str):
            fields[p.field] = chosen[p.name]
        else:
            fields.update(zip(p.field, chosen[p.name], strict=True))
    return move.make(seat, **fields)


def check_move(s: State, move: Move, seat: int, rng: random.Random) -> None:
    assert move.possible(s, seat) == bool(move.options(s, seat)), f"{describe(move)}: possible"
    if not move.allowed(s, seat):  # a parameter's rules may count on the requirements
        assert move.options(s, seat) == []
        assert next(move.choices(s, seat), None) is None
        return
    params = move.params
    for i, p in enumerate(params):
        prefixes = read(params[:i], s, seat)
        for chosen in rng.sample(prefixes, min(PREFIXES, len(prefixes))):
            if not isinstance(p, Param):
                continue
            values = list(p.among(s, seat, chosen))
            for rule in p.rules:
                kept = rule.select(s, seat, values, chosen)
                assert list(kept) == [v for v in values if rule.test(s, seat, v, chosen)], (
                    f"{describe(move)} {p.name}: rule {rule.code} selects otherwise than it tests"
                )
                values = [v for v in values if rule.test(s, seat, v, chosen)]
            allowed = list(p.allowed(s, seat, chosen))
            assert allowed == values, f"{describe(move)} {p.name}: allowed"
            if p.depends is not None:
                only = {d: chosen[d] for d in p.depends}
                assert list(p.allowed(s, seat, only)) == values, (
                    f"{describe(move)} {p.name} depends on more than {p.depends}"
                )
    declared = read(params, s, seat)
    options = move.options(s, seat)
    if move.template_field is None:
        plain = [command(move, seat, c) for c in declared]
        assert options[: len(plain)] == plain, f"{describe(move)}: options"
        # then, for a card whose prompt asks the player itself, each choice made with the play
        own = options[len(plain) :]
        assert all(isinstance(move, Card) and move.own_choice(c) is not None for c in own)
    check_draws(lambda choose: move.draw(s, seat, choose), options, rng, describe(move))
    # every command of values among ``among`` is refused by the first rule a value fails
    candidates = read(params, s, seat, rules=False)
    for chosen in rng.sample(candidates, min(CANDIDATES, len(candidates))):
        code = next(
            (
                code
                for p in params
                if (code := follows(p, s, seat, chosen[p.name], chosen)) is not None
            ),
            None,
        )
        cmd = command(move, seat, chosen)
        try:
            move.check(s, seat, cmd)
        except RuleViolation as refused:
            assert refused.code == code, f"{describe(move)}: {cmd} refused with {refused.code}"
        else:
            assert code is None, f"{describe(move)}: {cmd} accepted, but fails {code}"
        assert move.accepts(s, seat, chosen) == (code is None), f"{describe(move)}: accepts"
    for chosen in declared:
        move.check(s, seat, command(move, seat, chosen))
        assert move.accepts(s, seat, chosen)


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
