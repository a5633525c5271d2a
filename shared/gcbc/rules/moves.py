"""The contract of a move: a turn's action (RULES §3.1) or an equipment card (§7).

A move declares, once, what it requires of the seat and the table (``requires``) and the
parameters its command carries (``params``): for each, where it lies in the command, the values it
may take (``among``, in the order they are offered) and the rules a value must follow, each with
the code it is refused with. Both the refusals (``check``) and the options (``options``, what
``legal_commands`` lists) are read from that one declaration, so they cannot disagree.

A rule's message is safe to show anyone (it names only what the command named); it may use
``{value}``, ``{seat}`` and the names of the parameters chosen before it.

One plain reading of the declaration serves them all, with no generated code: each move's
``Plan`` walks the parameters' values in order, each narrowed by the selection of each rule
(``possible`` asks it for the first choice only, ``options`` for all of them), and ``check`` (or
``refusal``, ``accepts``) reads the values one command chose against the same parameters, each
tested by its rules in order. ``tests/unit/rules/test_moves.py`` tests them against the
declaration read one value at a time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import product
from math import prod
from typing import Any

from gcbc.rules.errors import RuleViolation, refuse
from gcbc.rules.move_fields import builder, layout, reader
from gcbc.rules.state import State
from gcbc.rules.templates import TEMPLATE_LIMIT, template

Chosen = dict[str, Any]  # parameter name -> the value chosen (or sent)
Among = Callable[[State, int, Chosen], Iterable[Any]]
Select = Callable[[State, int, list[Any], Chosen], list[Any]]
# one value of a sequence, drawn (``random.Random.choice``)
Choose = Callable[[Sequence[Any]], Any]

# the command fields a move's parameters may fill (PlayEquipment's, in the order they are checked)
PARAMETER_FIELDS = ("target", "targets", "position", "positions", "choice", "aim")


@dataclass(frozen=True, slots=True)
class Rule:
    """A condition a move needs, and how it is refused when it fails.

    In ``requires``: ``test(state, seat) -> bool``. For a parameter's value, the ``test`` of one
    value, ``(state, seat, value, chosen) -> bool``, or the ``select``ion of the values of a list
    that pass, ``(state, seat, values, chosen) -> list``, or both (tested to agree): whichever
    reads better; the other is derived (a selection's test: the selection of that one value)."""

    code: str
    message: str
    test: Callable[..., bool] = None  # type: ignore[assignment]  # derived from ``select``
    select: Select = None  # type: ignore[assignment]  # derived from ``test``

    def __post_init__(self) -> None:
        test, select = self.test, self.select
        # (a frozen dataclass sets what it derives in its own init)
        if test is None:
            assert select is not None, f"rule {self.code} has neither a test nor a selection"
            object.__setattr__(self, "test", lambda s, seat, v, c: bool(select(s, seat, [v], c)))
        elif select is None:
            object.__setattr__(
                self, "select", lambda s, seat, vs, c: [v for v in vs if test(s, seat, v, c)]
            )

    def refusal(self, seat: int, value: Any = None, chosen: Chosen | None = None) -> RuleViolation:
        return refuse(self.code, self.message.format(value=value, seat=seat, **(chosen or {})))


@dataclass(frozen=True, slots=True)
class Param:
    """One value a command carries: its ``field``, or one element of it (``index``: targets[0]),
    or several fields taken together (a tuple of names: a card by seat and position); ``as_``
    names it otherwise than its field (``name``).
    ``among``: the values it may take, in the order they are offered (given the parameters chosen
    before it); ``outside``: the refusal of a value not among them; ``rules``: what a value must
    follow besides, in order (the first that fails refuses it).

    ``depends`` names the parameters chosen before that its values depend on (None: any), so its
    values are found once for each of theirs (checked: ``tests/unit/rules/test_moves.py``)."""

    field: str | tuple[str, ...]
    among: Among
    outside: tuple[str, str]
    rules: tuple[Rule, ...] = ()
    index: int | None = None
    as_: str = ""
    depends: tuple[str, ...] | None = None

    @property
    def name(self) -> str:
        if self.as_:
            return self.as_
        return self.field if isinstance(self.field, str) else "_".join(self.field)

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

    def allowed(self, s: State, seat: int, chosen: Chosen) -> Sequence[Any]:
        """The values offered: among ``among``, those that pass every rule, in order."""
        values = self.among(s, seat, chosen)
        for rule in self.rules:
            if not values:
                break
            values = rule.select(s, seat, values, chosen)
        return values  # type: ignore[return-value]


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
        return Param(self.field, self.among, self.outside, self.rules, as_="of")

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
        return [list(element.allowed(s, seat, {**chosen, "of": of})) for of in chosen[self.over]]

    def allowed(self, s: State, seat: int, chosen: Chosen) -> list[Any]:
        return [tuple(c) for c in product(*self.allowed_each(s, seat, chosen))]


AnyParam = Param | Each
# choices of values: those of the first parameters, and the values each of the others may take
Block = tuple[tuple[Any, ...], tuple[list[Any], ...]]


@dataclass(frozen=True, slots=True)
class Plan:
    """How a move's parameters are walked, found once from their declaration: each parameter's
    ``allowed`` values, and where they are found: with the parameter itself, or once the last
    parameter they ``depend`` on is chosen (``then``; before any: ``first``), so that they are not
    found again for every choice of the parameters in between, and a choice none of them fits is
    left at once. From the parameter on whose values do not depend on each other (``known``),
    every combination of them is a choice: the walk gives them as one block."""

    needs: Callable[[State, int], bool] | None  # asked first: without it there is no choice
    requires: tuple[Rule, ...]  # tested next: a choice is made only where they hold
    names: tuple[str, ...]
    values: tuple[Callable[[State, int, Chosen], Sequence[Any]], ...]  # each one's ``allowed``
    early: tuple[bool, ...]  # its values found before its turn (by ``first`` or ``then``)
    then: tuple[tuple[int, ...], ...]  # the parameters whose values follow from this one's choice
    first: tuple[int, ...]
    known: tuple[bool, ...]  # the values of every parameter after it are found once it is reached

    @classmethod
    def of(
        cls,
        params: tuple[AnyParam, ...],
        requires: tuple[Rule, ...] = (),
        needs: Callable[[State, int], bool] | None = None,
    ) -> Plan:
        names = tuple(p.name for p in params)
        n = len(params)

        def found_after(i: int) -> int:
            """The parameter once chosen the values of parameter ``i`` are found (-1: none)."""
            depends = params[i].depends
            if depends is None:
                return i - 1
            return max((names.index(d) for d in depends), default=-1)

        after = [found_after(i) for i in range(n)]
        return cls(
            needs,
            requires,
            names,
            tuple(p.allowed for p in params),
            tuple(0 < i and after[i] < i - 1 for i in range(n)),
            tuple(tuple(j for j in range(i + 2, n) if after[j] == i) for i in range(n)),
            tuple(j for j in range(1, n) if after[j] == -1),
            tuple(all(after[j] < i for j in range(i + 1, n)) for i in range(n)),
        )

    def blocks(self, s: State, seat: int, first: bool = False) -> list[Block]:
        """The choices of values (one for each parameter, in order, in the order offered), in
        blocks: the values chosen for the first parameters, and the values each of the others
        may take with them, every combination of which is a choice (none empty). ``first``: the
        first block only, if any (whether there is a choice)."""
        out: list[Block] = []
        if self.needs is not None and not self.needs(s, seat):
            return out
        for rule in self.requires:
            if not rule.test(s, seat):
                return out
        if not self.names:
            out.append(((), ()))
            return out
        found: list[Any] = [None] * len(self.names)
        for j in self.first:
            found[j] = self.values[j](s, seat, {})
            if not found[j]:
                return out
        self._walk(0, s, seat, {}, found, (), out, first)
        return out

    def _walk(
        self,
        i: int,
        s: State,
        seat: int,
        chosen: Chosen,
        found: list[Any],
        before: tuple,
        out: list[Block],
        first: bool,
    ) -> None:
        """The blocks from parameter ``i`` on, the values ``before`` it chosen (also by name in
        ``chosen``), appended to ``out``."""
        values = found[i] if self.early[i] else self.values[i](s, seat, chosen)
        if not values:
            return
        if self.known[i]:
            out.append((before, (values, *found[i + 1 :])))
            return
        name, then = self.names[i], self.then[i]
        for v in values:
            chosen[name] = v
            for j in then:
                found[j] = self.values[j](s, seat, chosen)
                if not found[j]:
                    break
            else:
                self._walk(i + 1, s, seat, chosen, found, (*before, v), out, first)
                if first and out:
                    return

    def choices(self, s: State, seat: int) -> Iterator[tuple[Any, ...]]:
        """Every choice of values, in the order offered."""
        for before, rest in self.blocks(s, seat):
            for more in product(*rest):
                yield before + more

    def draw(self, s: State, seat: int, choose: Choose) -> tuple[Any, ...] | None:
        """One choice of values, each as likely, without listing them (None: there is none): the
        ``i``-th of ``choices`` for ``choose(range(count)) == i``, read as the block it falls in
        and, within it, the value of each parameter (the last varying fastest). With one choice,
        ``choose`` is not asked."""
        blocks = self.blocks(s, seat)
        if not blocks:
            return None
        sizes = [prod(map(len, rest)) for _, rest in blocks]
        i = choose(range(sum(sizes))) if len(blocks) > 1 or sizes[0] > 1 else 0
        block = 0
        while i >= sizes[block]:
            i -= sizes[block]
            block += 1
        before, rest = blocks[block]
        more = []
        for values in reversed(rest):
            i, k = divmod(i, len(values))
            more.append(values[k])
        return (*before, *reversed(more))


class Move:
    """A move's declaration (subclasses set these) and what follows from it."""

    name: str = ""
    requires: tuple[Rule, ...] = ()
    params: tuple[AnyParam, ...] = ()
    # past TEMPLATE_LIMIT options, the options leave this field open: one template for each
    # choice of the other parameters (docs/api.md)
    template_field: str | None = None
    # what any way to make the move needs, cheap to ask (None: nothing): the plan asks it first,
    # and where it fails there is no option. Not a rule: it refuses nothing, so the refusals keep
    # their order. For the moves mostly impossible where they are asked (a seat's card in every
    # window); ``possible`` is tested equal to ``bool(options)``
    needs: Callable[[State, int], bool] | None = None

    command: type | None = None  # the command that makes this move
    fixed: dict[str, Any] = {}  # fields the command always has (a card's name)

    def __init__(self) -> None:
        command = self.command
        assert command is not None, f"{type(self).__name__} names no command"
        assert all(f in PARAMETER_FIELDS for p in self.params for f in p.fields), self.name
        # what builds the command from its fields (and ``seat``) by keyword
        self.by_fields: Callable[..., Any] = partial(command, **self.fixed)
        # what builds it from a choice of values (and ``seat``): ``build(*choice, seat=seat)``
        self.build: Callable[..., Any] = builder(command, self.fixed, self.params)
        # (``needs``, a function set on the class, is not a method)
        self.plan = Plan.of(self.params, self.requires, type(self).needs)
        # each parameter, its name and how its value is read from a command
        self.reading = tuple((p, p.name, reader(p)) for p in self.params)
        # a list field filled element by element (targets[0], targets[1]) has that many
        counts: dict[str, int] = {}
        for p in self.params:
            if p.index is not None:
                counts[p.field] = counts.get(p.field, 0) + 1
        self.counts = tuple(counts.items())

    def make(self, seat: int, **fields: Any) -> Any:
        """The command making this move with these fields."""
        return self.by_fields(seat=seat, **fields)

    # --- what the declaration gives -------------------------------------------------------------
    def allowed(self, s: State, seat: int) -> bool:
        """Whether ``requires`` holds: the move may be made now, given parameters that fit."""
        for rule in self.requires:
            if not rule.test(s, seat):
                return False
        return True

    def choices(self, s: State, seat: int) -> Iterator[tuple[Any, ...]]:
        """Every way to make the move now: its parameters' values (in declared order)."""
        return self.plan.choices(s, seat)

    def possible(self, s: State, seat: int) -> bool:
        """Whether there is any way to make the move now (``bool(options)``)."""
        return bool(self.plan.blocks(s, seat, first=True))

    def options(self, s: State, seat: int) -> list[Any]:
        """Every way to make the move now: commands, or templates past TEMPLATE_LIMIT."""
        if self.template_field is not None and self.allowed(s, seat):
            templates = self._templates(s, seat)
            if templates is not None:
                return templates
        blocks = self.plan.blocks(s, seat)
        if not blocks:  # (mostly, for a card asked in a window)
            return []
        build = self.build
        return [
            build(*before, *more, seat=seat) for before, rest in blocks for more in product(*rest)
        ]

    def draw(self, s: State, seat: int, choose: Choose) -> Any | None:
        """One of ``options``, each as likely, without listing them (None: there is none): the
        ``i``-th for ``choose(range(len(options))) == i`` (with one, ``choose`` is not asked)."""
        if self.template_field is not None:  # templates are counted by listing them
            return draw_listed(self.options(s, seat), choose)
        choice = self.plan.draw(s, seat, choose)
        return None if choice is None else self.build(*choice, seat=seat)

    def refusal(self, s: State, seat: int, chosen: Chosen) -> RuleViolation | None:
        """Why the move may not be made now with the parameters ``chosen`` (by name), if it may
        not: the first requirement that fails, then each parameter in order, among its values
        (else ``outside``), then its rules."""
        for rule in self.requires:
            if not rule.test(s, seat):
                return rule.refusal(seat)
        before: Chosen = {}
        for p, name, _ in self.reading:
            value = chosen[name]
            refused = p.refuses(s, seat, value, before)
            if refused is not None:
                return refused
            before[name] = value
        return None

    def check(self, s: State, seat: int, cmd: Any) -> None:
        """Refuse ``cmd`` (RuleViolation) unless it is one of this move's options."""
        for rule in self.requires:  # before the command's values, which may not all be there
            if not rule.test(s, seat):
                raise rule.refusal(seat)
        for field, count in self.counts:
            if len(getattr(cmd, field)) != count:
                raise refuse("bad_parameters", f"{self.name} takes {count} {field}")
        chosen: Chosen = {}  # the values read so far, by name
        for p, name, read in self.reading:
            value = read(cmd)
            refused = p.refuses(s, seat, value, chosen)
            if refused is not None:
                raise refused
            chosen[name] = value

    def accepts(self, s: State, seat: int, chosen: Chosen) -> bool:
        """Whether the move may be made now with the parameters ``chosen`` (by name): e.g. a
        declared action at its resolution, still possible or not."""
        return self.refusal(s, seat, chosen) is None

    # --- helpers --------------------------------------------------------------------------------
    def _templates(self, s: State, seat: int) -> list[Any] | None:
        """One template for each choice of the parameters but ``template_field``, when the
        options number more than TEMPLATE_LIMIT; else None."""
        name = self.template_field
        fixed = tuple(p for p in self.params if p.field != name)
        left = tuple(p for p in self.params if p.field == name)
        whole = len(left) == 1 and isinstance(left[0], Param) and left[0].index is None
        names = tuple(p.name for p in fixed)
        choices = []
        for choice in Plan.of(fixed).choices(s, seat):
            chosen = dict(zip(names, choice, strict=True))
            allowed: list[Any] = []
            for p in left:  # left open: each value must not depend on another left open
                if isinstance(p, Each):
                    allowed += p.allowed_each(s, seat, chosen)
                else:
                    allowed.append(list(p.allowed(s, seat, chosen)))
            if all(allowed):
                choices.append((choice, allowed))
        if sum(prod(len(a) for a in allowed) for _, allowed in choices) <= TEMPLATE_LIMIT:
            return None
        fields = layout(fixed)
        return [
            template(
                self.name,
                seat,
                fields(choice),
                {name: allowed[0] if whole else allowed},
            )
            for choice, allowed in choices
        ]


def draw_listed(options: Sequence[Any], choose: Choose) -> Any | None:
    """One of ``options`` by ``choose``, as ``Move.draw`` draws it (None: there is none)."""
    if not options:
        return None
    return options[choose(range(len(options)))] if len(options) > 1 else options[0]
