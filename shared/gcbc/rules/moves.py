"""The contract of a move: a turn's action (RULES §3.1) or an equipment card (§7).

A move declares, once, what it requires of the seat and the table (``requires``) and the
parameters its command carries (``params``): for each, where it lies in the command, the values it
may take (``among``, in the order they are offered) and the rules a value must follow, each with
the code it is refused with. Both the refusals (``check``) and the options (``options``, what
``legal_commands`` lists) are derived from that one declaration, so they cannot disagree.

A rule's message is safe to show anyone (it names only what the command named); it may use
``{value}``, ``{seat}`` and the names of the parameters chosen before it.

The options of every seat are listed after every command, so each move's options and rules are
compiled from its declaration into plain functions once, when the move is made
(``move_compiler``); ``interpreted_options`` is the declaration read one value after another, the
reference they are tested against (``tests/unit/rules/test_moves.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from functools import partial
from itertools import product
from math import prod
from typing import Any

from gcbc.rules.errors import RuleViolation, refuse
from gcbc.rules.move_compiler import compile_check, compile_options
from gcbc.rules.state import State
from gcbc_contract import commands as C

Chosen = dict[str, Any]  # parameter name -> the value chosen (or sent)
Among = Callable[[State, int, Chosen], Iterable[Any]]
Select = Callable[[State, int, list[Any], Chosen], list[Any]]

TEMPLATE_LIMIT = 200  # past this many options, a move lists templates instead (docs/api.md)
# the command fields a move's parameters may fill (PlayEquipment's, in the order they are checked)
PARAMETER_FIELDS = ("target", "targets", "position", "positions", "choice", "aim")


@dataclass(frozen=True, slots=True)
class Rule:
    """A condition a move needs, and how it is refused when it fails.

    In ``requires``: ``test(state, seat) -> bool``. For a parameter's value, either the ``test``
    of one value, ``(state, seat, value, chosen) -> bool``, or the ``select``ion of the values of
    a list that pass, ``(state, seat, values, chosen) -> list``: whichever reads better (a
    selection is quicker for the options, which filter many values at once); the other is
    derived. A rule many moves share (``targets``) gives both, tested to agree."""

    code: str
    message: str
    test: Callable[..., bool] = None  # type: ignore[assignment]  # derived from ``select``
    select: Select | None = None
    # whether ``test`` is the rule's own (not a selection of one value: a list made per value)
    tests: bool = dataclass_field(default=True, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        select = self.select
        if self.test is None:
            assert select is not None, f"rule {self.code} has neither a test nor a selection"
            object.__setattr__(self, "test", lambda s, seat, v, c: bool(select(s, seat, [v], c)))
            object.__setattr__(self, "tests", False)

    def refusal(self, seat: int, value: Any = None, chosen: Chosen | None = None) -> RuleViolation:
        return refuse(self.code, self.message.format(value=value, seat=seat, **(chosen or {})))


def _selections(rules: tuple[Rule, ...]) -> tuple[Select, ...]:
    """The selections that keep the values of a list passing ``rules``, in order: a rule's own
    ``select``, or one comprehension for each run of rules that have none."""
    out: list[Select] = []
    tests: list[Callable[..., bool]] = []
    for rule in rules:
        if rule.select is None:
            tests.append(rule.test)
            continue
        if tests:
            out.append(_passing(tuple(tests)))
            tests = []
        out.append(rule.select)
    if tests:
        out.append(_passing(tuple(tests)))
    return tuple(out)


def _passing(tests: tuple[Callable[..., bool], ...]) -> Select:
    """The values passing every test, in one comprehension (the common counts spelt out: a call
    less per value than a loop over the tests)."""
    if len(tests) == 1:
        (a,) = tests
        return lambda s, seat, vs, c: [v for v in vs if a(s, seat, v, c)]
    if len(tests) == 2:
        a, b = tests
        return lambda s, seat, vs, c: [v for v in vs if a(s, seat, v, c) and b(s, seat, v, c)]
    if len(tests) == 3:
        a, b, d = tests
        return lambda s, seat, vs, c: [
            v for v in vs if a(s, seat, v, c) and b(s, seat, v, c) and d(s, seat, v, c)
        ]
    return lambda s, seat, vs, c: [v for v in vs if all(t(s, seat, v, c) for t in tests)]


@dataclass(frozen=True, slots=True)
class Param:
    """One value a command carries: its ``field``, or one element of it (``index``: targets[0]),
    or several fields taken together (a tuple of names: a card by seat and position).
    ``among``: the values it may take, in the order they are offered (given the parameters chosen
    before it); ``outside``: the refusal of a value not among them; ``rules``: what a value must
    follow besides, in order (the first that fails refuses it).

    For speed, where many moves share a parameter (``targets``): ``quick`` gives the values among
    ``among`` that pass the first ``quick_rules`` rules in one go, and ``depends`` names the
    parameters chosen before that its values depend on (None: any), so the options find them once
    for each of their values (both checked: ``tests/unit/rules/test_moves.py``)."""

    field: str | tuple[str, ...]
    among: Among
    outside: tuple[str, str]
    rules: tuple[Rule, ...] = ()
    index: int | None = None
    name: str = ""
    quick: Among | None = None
    quick_rules: int = 0
    depends: tuple[str, ...] | None = None
    _selects: tuple[Select, ...] = dataclass_field(default=(), init=False, repr=False)

    def __post_init__(self) -> None:
        if not self.name:
            name = self.field if isinstance(self.field, str) else "_".join(self.field)
            object.__setattr__(self, "name", name)
        skip = self.quick_rules if self.quick is not None else 0
        object.__setattr__(self, "_selects", _selections(self.rules[skip:]))

    @property
    def fields(self) -> tuple[str, ...]:
        return (self.field,) if isinstance(self.field, str) else self.field

    @property
    def over(self) -> None:
        """The list parameter this one has a value for each value of: none (an ``Each`` has)."""
        return None

    def refuses(self, s: State, seat: int, value: Any, chosen: Chosen) -> RuleViolation | None:
        if value not in self.among(s, seat, chosen):
            code, message = self.outside
            return refuse(code, message.format(value=value, seat=seat, **chosen))
        for rule in self.rules:
            if not rule.test(s, seat, value, chosen):
                return rule.refusal(seat, value, chosen)
        return None

    def allowed(self, s: State, seat: int, chosen: Chosen) -> list[Any]:
        """The values offered: among ``among``, those that pass every rule, in order."""
        quick = self.quick
        values = quick(s, seat, chosen) if quick is not None else self.among(s, seat, chosen)
        for select in self._selects:
            values = select(s, seat, values, chosen)
            if not values:
                return []
        return values if type(values) is list else list(values)


@dataclass(frozen=True, slots=True)
class Each:
    """A list parameter with one value for each value of an earlier list parameter ``over``
    (Metal Detector: one position per target). ``among`` and ``rules`` take that element as
    ``chosen["of"]``."""

    field: str
    over: str
    among: Among
    outside: tuple[str, str]
    rules: tuple[Rule, ...] = ()
    count_message: str = "name one value for each"

    @property
    def name(self) -> str:
        return self.field

    @property
    def index(self) -> None:
        return None

    @property
    def depends(self) -> None:
        return None

    @property
    def fields(self) -> tuple[str, ...]:
        return (self.field,)

    def element(self) -> Param:
        return Param(self.field, self.among, self.outside, self.rules, name="of")

    def refuses(self, s: State, seat: int, value: Any, chosen: Chosen) -> RuleViolation | None:
        over = chosen[self.over]
        if len(value) != len(over):
            return refuse("bad_parameters", self.count_message)
        element = self.element()
        for of, v in zip(over, value, strict=True):
            refused = element.refuses(s, seat, v, {**chosen, "of": of})
            if refused is not None:
                return refused
        return None

    def allowed_each(self, s: State, seat: int, chosen: Chosen) -> list[list[Any]]:
        element = self.element()
        return [element.allowed(s, seat, {**chosen, "of": of}) for of in chosen[self.over]]

    def allowed(self, s: State, seat: int, chosen: Chosen) -> list[Any]:
        return [tuple(c) for c in product(*self.allowed_each(s, seat, chosen))]


AnyParam = Param | Each


class Move:
    """A move's declaration (subclasses set these) and what follows from it."""

    name: str = ""
    requires: tuple[Rule, ...] = ()
    params: tuple[AnyParam, ...] = ()
    # past TEMPLATE_LIMIT options, the options leave this field open: one template for each
    # choice of the other parameters (docs/api.md)
    template_field: str | None = None
    # what any way to make the move needs, cheap to ask (None: nothing): where it fails, ``possible``
    # answers no at once. Not a rule: it refuses nothing, so the refusals keep their order. For
    # the moves mostly impossible where they are asked (the simulator's random bots ask about
    # every seat's card in every window); ``possible`` is tested equal to ``bool(options)``
    needs: Callable[[State, int], bool] | None = None
    # ``needs`` holds exactly when the move is possible: ``possible`` is ``needs`` itself, without
    # the requirements and the loops over the values after it (a turn's actions, whose
    # possibility the random bots ask at every turn; tested equal to ``bool(options)`` as well)
    needs_decides: bool = False

    command: type | None = None  # the command that makes this move
    fixed: dict[str, Any] = {}  # fields the command always has (a card's name)

    def __init__(self) -> None:
        command = self.command
        assert command is not None, f"{type(self).__name__} names no command"
        # what builds the command from its fields (and ``seat``) by keyword
        self.build: Callable[..., Any] = partial(command, **self.fixed) if self.fixed else command
        assert all(f in PARAMETER_FIELDS for p in self.params for f in p.fields), self.name
        # the options and the refusals, compiled from the declaration (``compile_options``)
        self._options = compile_options(self)
        # whether there is any option, without listing them (templates only group the options)
        self.possible: Callable[[State, int], bool] = compile_options(self, exists=True)
        self._check = compile_check(self, refusing=True)
        self._accepts = compile_check(self, refusing=False)
        if self.template_field is None:  # never templates: the compiled options are the options
            self.options = self._options  # type: ignore[method-assign]  # a call less, per move

    def make(self, seat: int, **fields: Any) -> Any:
        """The command making this move with these fields."""
        return self.build(seat=seat, **fields)

    # --- what the declaration gives -------------------------------------------------------------
    def allowed(self, s: State, seat: int) -> bool:
        """Whether ``requires`` holds: the move may be made now, given parameters that fit."""
        for rule in self.requires:
            if not rule.test(s, seat):
                return False
        return True

    def check(self, s: State, seat: int, cmd: Any) -> None:
        """Refuse ``cmd`` (RuleViolation) unless it is one of this move's options."""
        self._check(s, seat, cmd)

    def accepts(self, s: State, seat: int, chosen: Chosen) -> bool:
        """Whether the move may be made now with the parameters ``chosen`` (by name): e.g. a
        declared action at its resolution, still possible or not."""
        return self._accepts(s, seat, chosen)

    def options(self, s: State, seat: int) -> list[Any]:
        """Every way to make the move now: commands, or templates past TEMPLATE_LIMIT."""
        if self.template_field is not None:
            if not self.allowed(s, seat):
                return []
            templates = self._templates(s, seat)
            if templates is not None:
                return templates
        return self._options(s, seat)

    def interpreted_options(self, s: State, seat: int) -> list[Any]:
        """The options as the declaration says them, one value after another (the reference the
        compiled ``options`` must equal, templates apart: tested)."""
        if not self.allowed(s, seat):
            return []
        return [
            self.make(seat, **_fields(self.params, c)) for c in _combinations(self.params, s, seat)
        ]

    # --- helpers --------------------------------------------------------------------------------
    def _templates(self, s: State, seat: int) -> list[Any] | None:
        """One template for each choice of the parameters but ``template_field``, when the
        options number more than TEMPLATE_LIMIT; else None."""
        name = self.template_field
        fixed = tuple(p for p in self.params if p.field != name)
        left = tuple(p for p in self.params if p.field == name)
        whole = len(left) == 1 and isinstance(left[0], Param) and left[0].index is None
        choices = []
        for chosen in _combinations(fixed, s, seat):
            allowed: list[Any] = []
            for p in left:  # left open: each value must not depend on another left open
                if isinstance(p, Each):
                    allowed += p.allowed_each(s, seat, chosen)
                else:
                    allowed.append(p.allowed(s, seat, chosen))
            if all(allowed):
                choices.append((chosen, allowed))
        if sum(prod(len(a) for a in allowed) for _, allowed in choices) <= TEMPLATE_LIMIT:
            return None
        return [
            template(
                self.name, seat, _fields(fixed, chosen), {name: allowed[0] if whole else allowed}
            )
            for chosen, allowed in choices
        ]


def _combinations(params: tuple[AnyParam, ...], s: State, seat: int) -> list[Chosen]:
    """Every choice of values for ``params``, in the order they are declared and offered."""
    out: list[Chosen] = [{}]
    for p in params:
        out = [{**chosen, p.name: v} for chosen in out for v in p.allowed(s, seat, chosen)]
    return out


def _fields(params: tuple[AnyParam, ...], chosen: Chosen) -> dict[str, Any]:
    """The command fields for the parameters chosen (a list field's elements gathered)."""
    fields: dict[str, Any] = {}
    for p in params:
        if p.index is not None:
            fields[p.field] = (*fields.get(p.field, ()), chosen[p.name])
        elif isinstance(p.field, str):
            fields[p.field] = chosen[p.name]
        else:
            fields.update(zip(p.field, chosen[p.name], strict=True))
    return fields


# --- templates (docs/api.md: where choices multiply past ~200, a command with choices left open)
def is_template(entry: Any) -> bool:
    return isinstance(entry, dict)


def template(card: str, seat: int, fixed: dict[str, Any], choose: dict[str, Any]) -> dict[str, Any]:
    """A command with choices left open: ``choose`` maps a parameter to its allowed values; for a
    list parameter, a list of per-element allowed values."""
    return {"type": "play_equipment", "seat": seat, "card": card, **fixed, "choose": choose}


def expand(entry: dict[str, Any], pick: Any) -> C.PlayEquipment:
    """A concrete command from a template; ``pick(values)`` chooses one value."""
    fields = {k: v for k, v in entry.items() if k not in ("type", "choose")}
    for name, allowed in entry["choose"].items():
        if allowed and isinstance(allowed[0], list):
            fields[name] = tuple(pick(a) for a in allowed)
        else:
            fields[name] = pick(allowed)
    for k in ("targets", "positions"):
        if k in fields:
            fields[k] = tuple(fields[k])
    return C.PlayEquipment(**fields)
