"""Integers a JavaScript number cannot hold (beyond 2^53: the random seed). The event log stores
them as integers, as it always has; the HTTP API writes them as decimal strings (views' logs, the
history, replays), so every client reads them whole."""

from __future__ import annotations

from typing import Annotated, Any, TypeVar, Union, get_args, get_origin

import msgspec

T = TypeVar("T")


class _Wide:
    def __repr__(self) -> str:
        return "Wide"


WIDE = _Wide()
Wide = Annotated[T, WIDE]  # an integer field of an event that the API shows as a string

# a wide integer as a request gives it: decimal digits, up to 2^63 - 1
Digits = Annotated[
    str, msgspec.Meta(pattern=r"^[0-9]{1,19}$", description="an integer, as decimal digits")
]
LARGEST = 2**63 - 1


def is_wide(annotation: Any) -> bool:
    """Whether a field's (annotated) type is declared ``Wide``."""
    return get_origin(annotation) is Annotated and any(m is WIDE for m in annotation.__metadata__)


def shown_type(annotation: Any) -> Any:
    """The type a wide integer field has in the API: ``str`` (``str | None`` where it may be
    missing)."""
    bare = annotation.__origin__ if hasattr(annotation, "__metadata__") else annotation
    return Union[str, None] if type(None) in get_args(bare) else str  # noqa: UP007


def shown(value: Any) -> Any:
    """A wide integer's value as the API shows it."""
    return None if value is None else str(value)
