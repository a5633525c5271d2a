"""Where a move's parameters lie in its command: a choice of values laid out as the command's
fields, the command built from it, and each value read back from a command."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from operator import attrgetter, itemgetter
from typing import Any, Protocol


class Located(Protocol):
    """A parameter's place in its command: a field, an element of a list field (``index``), or
    several fields holding one value."""

    @property
    def field(self) -> str | tuple[str, ...]: ...

    @property
    def index(self) -> int | None: ...

    @property
    def fields(self) -> tuple[str, ...]: ...


def layout(params: tuple[Located, ...]) -> Callable[[tuple[Any, ...]], dict[str, Any]]:
    """The command fields of a choice of values for ``params``, by name: a field for each, or a
    list field from its elements, or several fields from one value."""
    fields = tuple(f for p in params for f in p.fields)
    if all(p.index is None and isinstance(p.field, str) for p in params):
        return lambda choice: dict(zip(fields, choice, strict=True))
    read: dict[str, Callable[[tuple], Any]] = {}
    for i, p in enumerate(params):
        if p.index is not None:
            elements = tuple(j for j, q in enumerate(params) if q.field == p.field)
            read[p.field] = itemgetter(*elements) if len(elements) > 1 else _one(elements[0])
        elif isinstance(p.field, str):
            read[p.field] = itemgetter(i)
        else:
            for k, f in enumerate(p.field):
                read[f] = _part(i, k)
    getters = tuple(read.items())
    return lambda choice: {f: get(choice) for f, get in getters}


def builder(
    command: type, fixed: dict[str, Any], params: tuple[Located, ...]
) -> Callable[..., Any]:
    """What builds ``command`` from a choice of values for ``params`` (and ``seat``):
    ``build(*choice, seat=seat)``. Where the fixed fields and then one field for each parameter
    are the command's first fields, in order, the values are its positional arguments."""
    fields = tuple(f for f in command.__struct_fields__ if f not in ("seat", "command_id"))
    named = (*fixed, *(p.field for p in params))
    if all(p.index is None for p in params) and named == fields[: len(named)]:
        return partial(command, *fixed.values())
    by_fields = partial(command, **fixed)
    fields_of = layout(params)
    return lambda *choice, seat: by_fields(seat=seat, **fields_of(choice))


def _one(i: int) -> Callable[[tuple], tuple]:
    return lambda choice: (choice[i],)


def _part(i: int, k: int) -> Callable[[tuple], Any]:
    return lambda choice: choice[i][k]


def reader(p: Located) -> Callable[[Any], Any]:
    """How the value of parameter ``p`` is read from a command."""
    if not isinstance(p.field, str):  # one value over several fields
        return attrgetter(*p.field)
    if p.index is not None:
        return lambda cmd, field=p.field, index=p.index: getattr(cmd, field)[index]
    if p.field in ("targets", "positions"):  # a list in a command built in Python
        return lambda cmd, field=p.field: tuple(getattr(cmd, field))
    return attrgetter(p.field)
