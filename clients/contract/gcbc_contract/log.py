"""A view's log: each event as one viewer may see it, one typed entry per event type.

Each entry type is derived from its event's declaration (``events``, ``audience``): the event's
tag, its fields (a field a viewer may not see is left out: ``UNSET``), ``received`` where the
event tells each receiving seat what it got, and ``v``, the entry's number in the viewer's log.
Nothing is declared twice: a new event has its entry type, a new field its place in it. The JSON of
an entry is the event's JSON without the fields the viewer may not see, plus ``v``; a ``Wide``
integer (the seed) is a decimal string there (``gcbc_contract.wide``).

An entry also reads like that JSON object (``entry["card"]``, ``"card" in entry``, equal to the
same ``dict``), so code written against what clients receive reads the typed log alike.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Any, Union, get_origin

import msgspec
from msgspec import NODEFAULT, UNSET, UnsetType

from gcbc_contract.audience import PUBLIC, Audience, Received, audience_of
from gcbc_contract.events import AnyEvent
from gcbc_contract.fields import LogNumber
from gcbc_contract.fields import Received as ReceivedCard
from gcbc_contract.wide import is_wide, shown_type


class LogEntry(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    tag_field="type",
    forbid_unknown_fields=False,
    omit_defaults=True,
):
    """One event of a view's log, as its viewer may see it."""

    @property
    def type(self) -> str:
        """What happened: the entry's ``type`` in JSON (``"seat_shot"``...)."""
        return self.__struct_config__.tag  # type: ignore[return-value]

    def as_json(self) -> dict[str, Any]:
        """The JSON object a client receives for this entry."""
        return msgspec.to_builtins(self)

    def __getitem__(self, key: str) -> Any:
        return self.as_json()[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.as_json().get(key, default)

    def __contains__(self, key: object) -> bool:
        return key in self.as_json()

    def __iter__(self) -> Iterator[str]:
        return iter(self.as_json())

    def __len__(self) -> int:
        return len(self.as_json())

    def keys(self):  # noqa: ANN201
        return self.as_json().keys()

    def items(self):  # noqa: ANN201
        return self.as_json().items()

    def values(self):  # noqa: ANN201
        return self.as_json().values()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LogEntry):
            return type(self) is type(other) and self.as_json() == other.as_json()
        if isinstance(other, dict):
            return self.as_json() == other
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = None  # type: ignore[assignment]  # equal to a dict: not hashable either


def _declared_type(annotation: Any) -> Any:
    """The field's type without its audience, with its description (``Public[Seat]`` -> ``Seat``)."""
    if get_origin(annotation) is not Annotated:
        return annotation
    kept = tuple(m for m in annotation.__metadata__ if not isinstance(m, Audience))
    return Annotated[(annotation.__origin__, *kept)] if kept else annotation.__origin__


def _entry_type(event: type) -> type[LogEntry]:
    fields: list[tuple[Any, ...]] = []
    received: Any = None
    for f in msgspec.structs.fields(event):
        audience = audience_of(f.type)
        typ = shown_type(f.type) if is_wide(f.type) else _declared_type(f.type)
        if f.default is not NODEFAULT:
            fields.append((f.name, typ, f.default))
        elif f.default_factory is not NODEFAULT:
            fields.append((f.name, typ, msgspec.field(default_factory=f.default_factory)))
        elif audience is PUBLIC:
            fields.append((f.name, typ))
        else:
            fields.append((f.name, Union[typ, UnsetType], UNSET))  # noqa: UP007
        if isinstance(audience, Received):
            received = (Received.shown_as, Union[ReceivedCard, UnsetType], UNSET)  # noqa: UP007
    if received is not None:
        fields.append(received)
    fields.append(("v", LogNumber))
    return msgspec.defstruct(
        f"{event.__name__}Entry",
        fields,
        bases=(LogEntry,),
        tag=event.__struct_config__.tag,
        module=__name__,
        kw_only=True,  # ``v`` comes last, as in the JSON clients have always received
    )


# event type -> the type of its log entries (every event a log shows: chat is the view's chat)
ENTRY_TYPES: dict[type, type[LogEntry]] = {
    event: _entry_type(event) for event in AnyEvent.__args__ if event.logged
}
globals().update({t.__name__: t for t in ENTRY_TYPES.values()})  # importable, and picklable

AnyLogEntry = Union[tuple(ENTRY_TYPES.values())]  # type: ignore[valid-type]  # noqa: UP007
