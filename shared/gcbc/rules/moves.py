"""The contract of a move: a turn's action (RULES §3.1) or an equipment card (§7).

A move declares, once, what it requires of the seat and the table (``requires``) and the
parameters its command carries (``params``): for each, where it lies in the command, the values it
may take (``among``, in the order they are offered) and the rules a value must follow, each with
the code it is refused with. Both the refusals (``check``) and the options (``options``, what
``legal_commands`` lists) are derived from that one declaration, so they cannot disagree.

A rule's message is safe to show anyone (it names only what the command named); it may use
``{value}``, ``{seat}`` and the names of the parameters chosen before it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from itertools import product
from math import prod
from typing import Any

from gcbc.contract import commands as C
from gcbc.rules.errors import RuleViolation, refuse
from gcbc.rules.state import State

Chosen = dict[str, Any]  # parameter name -> the value chosen (or sent)
Among = Callable[[State, int, Chosen], Iterable[Any]]

TEMPLATE_LIMIT = 200  # past this many options, a move lists templates instead (API.md)
# the command fields a move's parameters may fill (PlayEquipment's, in the order they are checked)
PARAMETER_FIELDS = ("target", "targets", "position", "positions", "choice", "aim")


@dataclass(frozen=True, slots=True)
class Rule:
    """A condition a move needs, and how it is refused when it fails. ``test`` is
    ``(state, seat) -> bool`` in ``requires``, ``(state, seat, value, chosen) -> bool`` for a
    parameter's value."""

    code: str
    message: str
    test: Callable[..., bool]

    def refusal(self, seat: int, value: Any = None, chosen: Chosen | None = None) -> RuleViolation:
        return refuse(self.code, self.message.format(value=value, seat=seat, **(chosen or {})))


def _all_of(tests: tuple[Callable[..., bool], ...]) -> Callable[..., bool] | None:
    """One test that holds when all of ``tests`` hold (None: no test), for the options' loops."""
    if not tests:
        return None
    if len(tests) == 1:
        return tests[0]
    if len(tests) == 2:
        a, b = tests
        return lambda s, seat, v, c: a(s, seat, v, c) and b(s, seat, v, c)
    if len(tests) == 3:
        a, b, d = tests
        return lambda s, seat, v, c: a(s, seat, v, c) and b(s, seat, v, c) and d(s, seat, v, c)

    def holds(s: State, seat: int, v: Any, c: Chosen) -> bool:
        for test in tests:
            if not test(s, seat, v, c):
                return False
        return True

    return holds


@dataclass(frozen=True, slots=True)
class Param:
    """One value a command carries: its ``field``, or one element of it (``index``: targets[0]),
    or several fields taken together (a tuple of names: a card by seat and position).
    ``among``: the values it may take, in the order they are offered (given the parameters chosen
    before it); ``outside``: the refusal of a value not among them; ``rules``: what a value must
    follow besides, in order (the first that fails refuses it)."""

    field: str | tuple[str, ...]
    among: Among
    outside: tuple[str, str]
    rules: tuple[Rule, ...] = ()
    index: int | None = None
    name: str = ""
    _holds: Callable[[State, int, Any, Chosen], bool] | None = dataclass_field(
        default=None, init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        if not self.name:
            name = self.field if isinstance(self.field, str) else "_".join(self.field)
            object.__setattr__(self, "name", name)
        object.__setattr__(self, "_holds", _all_of(tuple(r.test for r in self.rules)))

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
        holds = self._holds
        if holds is None:
            return list(self.among(s, seat, chosen))
        return [v for v in self.among(s, seat, chosen) if holds(s, seat, v, chosen)]


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
    def fields(self) -> tuple[str, ...]:
        return (self.field,)

    def element(self, of: Any) -> Param:
        return Param(self.field, self.among, self.outside, self.rules, name="of")

    def refuses(self, s: State, seat: int, value: Any, chosen: Chosen) -> RuleViolation | None:
        over = chosen[self.over]
        if len(value) != len(over):
            return refuse("bad_parameters", self.count_message)
        for of, v in zip(over, value, strict=True):
            refused = self.element(of).refuses(s, seat, v, {**chosen, "of": of})
            if refused is not None:
                return refused
        return None

    def allowed_each(self, s: State, seat: int, chosen: Chosen) -> list[list[Any]]:
        return [self.element(of).allowed(s, seat, {**chosen, "of": of}) for of in chosen[self.over]]

    def allowed(self, s: State, seat: int, chosen: Chosen) -> list[Any]:
        return [tuple(c) for c in product(*self.allowed_each(s, seat, chosen))]


AnyParam = Param | Each


class Move:
    """A move's declaration (subclasses set these) and what follows from it."""

    name: str = ""
    requires: tuple[Rule, ...] = ()
    params: tuple[AnyParam, ...] = ()
    # past TEMPLATE_LIMIT options, the options leave this field open: one template for each
    # choice of the other parameters (API.md)
    template_field: str | None = None

    def make(self, seat: int, **fields: Any) -> Any:
        """The command making this move with these fields."""
        raise NotImplementedError

    # --- what the declaration gives -------------------------------------------------------------
    def allowed(self, s: State, seat: int) -> bool:
        """Whether ``requires`` holds: the move may be made now, given parameters that fit."""
        for rule in self.requires:
            if not rule.test(s, seat):
                return False
        return True

    def check(self, s: State, seat: int, cmd: Any) -> None:
        """Refuse ``cmd`` (RuleViolation) unless it is one of this move's options."""
        for rule in self.requires:
            if not rule.test(s, seat):
                raise rule.refusal(seat)
        refused = self._lengths(cmd) or _refusal(self.params, s, seat, self.sent(cmd))
        if refused is not None:
            raise refused

    def accepts(self, s: State, seat: int, chosen: Chosen) -> bool:
        """Whether the move may be made now with the parameters ``chosen`` (by name): e.g. a
        declared action at its resolution, still possible or not."""
        return self.allowed(s, seat) and _refusal(self.params, s, seat, chosen) is None

    def options(self, s: State, seat: int) -> list[Any]:
        """Every way to make the move now: commands, or templates past TEMPLATE_LIMIT."""
        if not self.allowed(s, seat):
            return []
        if self.template_field is not None:
            templates = self._templates(s, seat)
            if templates is not None:
                return templates
        params = self.params
        if not params:
            return [self.make(seat)]
        if len(params) == 1 and isinstance(params[0], Param) and params[0].field == params[0].name:
            p = params[0]
            return [self.make(seat, **{p.field: v}) for v in p.allowed(s, seat, {})]
        return [self.make(seat, **_fields(params, c)) for c in _combinations(params, s, seat)]

    def sent(self, cmd: Any) -> Chosen:
        """The parameters a command sent, by name."""
        chosen: Chosen = {}
        for p in self.params:
            if not isinstance(p.field, str):
                chosen[p.name] = tuple(getattr(cmd, f) for f in p.field)
                continue
            value = getattr(cmd, p.field)
            if p.index is not None:
                value = value[p.index] if p.index < len(value) else None
            elif isinstance(value, list):  # built in Python rather than decoded: compare as sent
                value = tuple(value)
            chosen[p.name] = value
        return chosen

    # --- helpers --------------------------------------------------------------------------------
    def _lengths(self, cmd: Any) -> RuleViolation | None:
        """A list field filled element by element (targets[0], targets[1]) has that many."""
        counts: dict[str, int] = {}
        for p in self.params:
            if p.index is not None:
                counts[p.field] = counts.get(p.field, 0) + 1
        for field, count in counts.items():
            if len(getattr(cmd, field)) != count:
                return refuse("bad_parameters", f"{self.name} takes {count} {field}")
        return None

    def _templates(self, s: State, seat: int) -> list[Any] | None:
        """One template for each choice of the parameters but ``template_field``, when the
        options number more than TEMPLATE_LIMIT; else None."""
        field = self.template_field
        fixed = tuple(p for p in self.params if p.field != field)
        left = tuple(p for p in self.params if p.field == field)
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
                self.name, seat, _fields(fixed, chosen), {field: allowed[0] if whole else allowed}
            )
            for chosen, allowed in choices
        ]


def _refusal(
    params: tuple[AnyParam, ...], s: State, seat: int, chosen: Chosen
) -> RuleViolation | None:
    """The refusal of the first parameter value that does not fit, or None."""
    so_far: Chosen = {}
    for p in params:
        value = chosen[p.name]
        refused = p.refuses(s, seat, value, so_far)
        if refused is not None:
            return refused
        so_far[p.name] = value
    return None


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


# --- templates (API.md: where choices multiply past ~200, a command with choices left open) -----
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
