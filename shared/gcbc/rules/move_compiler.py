"""The moves' declarations (``moves``) compiled into plain functions, once, when a move is made:
the options and the refusals of every move are asked at every wait, and reading a declaration one
value after another is slower. That plain reading (``Move.interpreted_options``) is the reference
the compiled functions are tested equal to (``tests/unit/rules/test_moves.py``); a move is read by
its declared attributes only, so that ``moves`` imports this module and not the other way round.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gcbc.rules.errors import refuse
from gcbc.rules.state import State


def compile_options(move: Any, exists: bool = False) -> Callable[[State, int], Any]:
    """The options of ``move`` (a ``moves.Move``) as one function, written from its declaration
    (as namedtuple and dataclasses write theirs): nested loops over the parameters' values, each
    parameter's values found once for each choice of those they depend on (``depends``), and each
    command built by keyword: the options of every seat are listed after every command, and the
    declaration read anew for each option would cost more than the command itself.
    ``options.source`` shows it; for Blackmail::

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
    assert all(k.isidentifier() for k in move.fixed), move.name
    namespace: dict[str, Any] = {"command": move.command}
    namespace.update({f"fixed_{k}": v for k, v in move.fixed.items()})
    namespace.update({f"requires_{k}": r.test for k, r in enumerate(move.requires)})
    values: list[str] = []  # each parameter's values: its ``allowed``, spelt out
    tests: list[str] = []  # the test of one value of each parameter (``exists``)
    for i, p in enumerate(params):
        if p.over is not None:  # an Each: its values and refusals are its own
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


def compile_check(move: Any, refusing: bool) -> Callable[..., Any]:
    """The rules of ``move`` (a ``moves.Move``) as one function, written from its declaration like
    its options (``compile_options``): ``check(s, seat, cmd)`` raises the refusal of the first rule
    a command fails (``refusing``), ``accepts(s, seat, chosen)`` says whether values chosen by name
    pass them all. Requirements first, then the lengths of list fields filled element by element,
    then each parameter: among its values (else ``outside``), then its rules in order."""
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
        if p.over is not None:  # an Each: its values and refusals are its own
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
