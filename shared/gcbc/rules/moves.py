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
(``compile_options``, ``compile_check``); ``interpreted_options`` is the declaration read one value
after another, the reference they are tested against (``tests/unit/rules/test_moves.py``).
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


def compile_options(move: Move, exists: bool = False) -> Callable[[State, int], Any]:
    """The options of ``move`` as one function, written from its declaration (as namedtuple and
    dataclasses write theirs): nested loops over the parameters' values, each parameter's values
    found once for each choice of those they depend on (``depends``), and each command built by
    keyword. Interpreting the declaration for every option costs twice as much, and the options
    of every seat are listed after every command. ``options.source`` shows it; for Blackmail::

        def options(s, seat):
            if not requires_0(s, seat):
                return []
            out = []
            c = {}
            for v0 in select_0_0(s, seat, among_0(s, seat, c), c):
                c['first'] = v0
                values_2 = among_2(s, seat, c)
                for v1 in select_1_2(s, seat, select_1_1(s, seat, select_1_0(s, seat, ...
                    c['second'] = v1
                    values_3 = among_3(s, seat, c)
                    f_targets = (v0, v1,)
                    for v2 in values_2:
                        c['first_card'] = v2
                        for v3 in values_3:
                            out.append(command(seat=seat, card=fixed_card, targets=f_targets,
                                               positions=(v2, v3,)))
            return out

    ``exists``: ``possible(s, seat)`` instead, whether there is any option (``bool(options(s,
    seat))``): the same loops, left at the first option (the simulator's random bots list only
    the kind of command they draw, ``legal.legal_groups``), each value tested on its own by the
    rules in order rather than the values selected first; first of all, what the move ``needs``.
    """
    params = move.params
    names = [p.name for p in params]
    assert all(f in PARAMETER_FIELDS for p in params for f in p.fields), move.name
    assert all(k.isidentifier() for k in move.fixed), move.name
    namespace: dict[str, Any] = {"command": move.command}
    namespace.update({f"fixed_{k}": v for k, v in move.fixed.items()})
    namespace.update({f"requires_{k}": r.test for k, r in enumerate(move.requires)})
    values: list[str] = []  # each parameter's values: its ``allowed``, spelt out
    tests: list[str] = []  # the test of one value of each parameter (``exists``)
    for i, p in enumerate(params):
        if isinstance(p, Each):
            namespace[f"allowed_{i}"] = p.allowed
            values.append(f"allowed_{i}(s, seat, c)")
            tests.append("")
            continue
        namespace[f"among_{i}"] = p.quick if p.quick is not None else p.among
        found = f"among_{i}(s, seat, c)"
        for k, select in enumerate(p._selects):
            namespace[f"select_{i}_{k}"] = select
            found = f"select_{i}_{k}(s, seat, {found}, c)"
        values.append(found)
        # ``exists``: the values one at a time, each tested by the rules in order, so that the
        # loops are left at the first option without selecting the values after it (unless a
        # rule only selects: testing one value would make a list for it)
        left = p.rules[p.quick_rules if p.quick is not None else 0 :]
        if all(rule.tests for rule in left):
            namespace.update({f"test_{i}_{k}": rule.test for k, rule in enumerate(left)})
            tests.append(" and ".join(f"test_{i}_{k}(s, seat, v{i}, c)" for k in range(len(left))))
        else:
            tests.append("")

    def found_in(i: int) -> int:
        """The loop inside which the values of parameter ``i`` are found: that of the last one
        they depend on (-1: before every loop)."""
        depends = params[i].depends
        if depends is None:
            return i - 1
        return max((names.index(d) for d in depends), default=-1)

    # each field of the command: its value, and the loop inside which it is whole
    fields: dict[str, tuple[str, int]] = {}
    for i, p in enumerate(params):
        if p.index is not None:
            elements = [j for j, q in enumerate(params) if q.field == p.field]
            if i == elements[-1]:
                fields[p.field] = (f"({', '.join(f'v{j}' for j in elements)},)", i)
        elif isinstance(p.field, str):
            fields[p.field] = (f"v{i}", i)
        else:  # one value over several fields
            for k, f in enumerate(p.field):
                fields[f] = (f"v{i}[{k}]", i)
    last = len(params) - 1
    keywords = ["seat=seat", *(f"{k}=fixed_{k}" for k in move.fixed)]
    for f, (value, whole) in fields.items():  # a list whole before the last loop: built there
        keywords.append(f"{f}={f'f_{f}' if value.startswith('(') and whole < last else value}")
    build = f"command({', '.join(keywords)})"

    needs = type(move).needs  # (a function set on the class: not a method)
    if exists and move.needs_decides:
        assert needs is not None, f"{move.name}: needs_decides without needs"
        return needs
    lines = [f"def {'possible' if exists else 'options'}(s, seat):"]
    none = "False" if exists else "[]"
    if exists and needs is not None:
        namespace["needs"] = needs
        lines += ["    if not needs(s, seat):", "        return False"]
    for k in range(len(move.requires)):
        lines += [f"    if not requires_{k}(s, seat):", f"        return {none}"]
    if not params:
        lines.append(f"    return {'True' if exists else f'[{build}]'}")
    else:
        lines += ["    c = {}"] if exists else ["    out = []", "    c = {}"]
        # values found before the loop that uses them: none, and no option has that parameter
        for j in range(1, len(params)):
            if found_in(j) == -1:
                lines += [f"    values_{j} = {values[j]}", f"    if not values_{j}:"]
                lines.append(f"        return {none}")
        for i in range(len(params)):
            pad = "    " * (i + 1)
            found_before = i > 0 and found_in(i) < i - 1
            if found_before:
                lines.append(f"{pad}for v{i} in values_{i}:")
                pad += "    "
            elif exists and tests[i]:
                lines.append(f"{pad}for v{i} in among_{i}(s, seat, c):")
                pad += "    "
                lines += [f"{pad}if not ({tests[i]}):", f"{pad}    continue"]
            else:
                lines.append(f"{pad}for v{i} in {values[i]}:")
                pad += "    "
            if i < last:
                lines.append(f"{pad}c[{names[i]!r}] = v{i}")
                for j in range(i + 2, len(params)):
                    if found_in(j) == i:
                        lines += [f"{pad}values_{j} = {values[j]}", f"{pad}if not values_{j}:"]
                        lines.append(f"{pad}    continue")
                lines += [
                    f"{pad}f_{f} = {value}"
                    for f, (value, whole) in fields.items()
                    if whole == i and value.startswith("(") and not exists
                ]
        pad = "    " * (len(params) + 1)
        lines.append(f"{pad}return True" if exists else f"{pad}out.append({build})")
        lines.append(f"    return {'False' if exists else 'out'}")
    source = "\n".join(lines) + "\n"
    exec(source, namespace)  # noqa: S102  (a fixed template over checked names)
    options = namespace["possible" if exists else "options"]
    options.source = source
    return options


def compile_check(move: Move, refusing: bool) -> Callable[..., Any]:
    """The rules of ``move`` as one function, written from its declaration like its options
    (``compile_options``): ``check(s, seat, cmd)`` raises the refusal of the first rule a command
    fails (``refusing``), ``accepts(s, seat, chosen)`` says whether values chosen by name pass
    them all. Requirements first, then the lengths of list fields filled element by element, then
    each parameter: among its values (else ``outside``), then its rules in order."""
    params = move.params
    namespace: dict[str, Any] = {"refuse": refuse, "move": move}

    def fail(refusal: str) -> str:
        return f"raise {refusal}" if refusing else "return False"

    lines = [
        f"def {'check' if refusing else 'accepts'}(s, seat, {'cmd' if refusing else 'chosen'}):"
    ]
    for k, rule in enumerate(move.requires):
        namespace[f"requires_{k}"] = rule
        lines += [
            f"    if not requires_{k}.test(s, seat):",
            f"        {fail(f'requires_{k}.refusal(seat)')}",
        ]
    if refusing:  # a list field filled element by element (targets[0], targets[1]) has that many
        counts: dict[str, int] = {}
        for p in params:
            if p.index is not None:
                counts[p.field] = counts.get(p.field, 0) + 1
        for field, count in counts.items():
            message = f"{move.name} takes {count} {field}"
            lines += [
                f"    if len(cmd.{field}) != {count}:",
                f"        raise refuse('bad_parameters', {message!r})",
            ]
    if params:
        lines.append("    c = {}")
    for i, p in enumerate(params):
        namespace[f"param_{i}"] = p
        if not refusing:
            lines.append(f"    v{i} = chosen[{p.name!r}]")
        elif not isinstance(p.field, str):  # one value over several fields
            lines.append(f"    v{i} = ({', '.join(f'cmd.{f}' for f in p.field)},)")
        elif p.index is not None:
            lines.append(f"    v{i} = cmd.{p.field}[{p.index}]")
        else:
            lines.append(f"    v{i} = cmd.{p.field}")
            if p.field in ("targets", "positions"):  # built in Python rather than decoded
                lines += [f"    if type(v{i}) is list:", f"        v{i} = tuple(v{i})"]
        if isinstance(p, Each):
            lines += [
                f"    refused = param_{i}.refuses(s, seat, v{i}, c)",
                "    if refused is not None:",
                f"        {fail('refused')}",
            ]
        else:
            lines += [
                f"    if v{i} not in param_{i}.among(s, seat, c):",
                f"        {fail(f'refuse(param_{i}.outside[0], param_{i}.outside[1].format(value=v{i}, seat=seat, **c))')}",
            ]
            for k, rule in enumerate(p.rules):
                namespace[f"rule_{i}_{k}"] = rule
                lines += [
                    f"    if not rule_{i}_{k}.test(s, seat, v{i}, c):",
                    f"        {fail(f'rule_{i}_{k}.refusal(seat, v{i}, c)')}",
                ]
        if i < len(params) - 1:
            lines.append(f"    c[{p.name!r}] = v{i}")
    lines.append("    return None" if refusing else "    return True")
    source = "\n".join(lines) + "\n"
    exec(source, namespace)  # noqa: S102  (a fixed template over checked names)
    function = namespace["check" if refusing else "accepts"]
    function.source = source
    return function


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
