"""The log of a view, rendered per viewer from the audiences declared on the events
(``gcbc_contract.audience``): an allow-list. A field is shown only when its declaration lets the
viewer see it (a field declared nowhere is shown to nobody); an event ``seen_by`` one seat is shown
only to it. Once the game is over, everything is public (RULES §10).
"""

from __future__ import annotations

from typing import Any

import msgspec

from gcbc_contract.audience import PUBLIC, Audience, Received, To, audience_of
from gcbc_contract.events import AnyEvent
from gcbc_contract.log import ENTRY_TYPES, LogEntry
from gcbc_contract.wide import is_wide, shown

Viewer = int | None  # a seat, or None for the public


class _Rendering:
    """How one event type is shown: its entry type, the fields everyone sees, the fields only an
    audience sees, and whether it tells each receiver what it received."""

    __slots__ = ("entry", "every", "guarded", "public", "received", "seen_by", "wide")

    def __init__(self, event: type) -> None:
        self.entry = ENTRY_TYPES.get(event)
        self.seen_by: To | None = event.seen_by
        self.every: tuple[str, ...] = event.__struct_fields__
        public: list[str] = []
        guarded: list[tuple[str, Audience]] = []
        self.received: tuple[str, Received] | None = None
        # integers a JavaScript number cannot hold: shown as strings (gcbc_contract.wide)
        self.wide = frozenset(f.name for f in msgspec.structs.fields(event) if is_wide(f.type))
        for f in msgspec.structs.fields(event):
            audience = audience_of(f.type)
            if audience is PUBLIC:
                public.append(f.name)
            elif isinstance(audience, Received):
                self.received = (f.name, audience)
            elif isinstance(audience, To):
                guarded.append((f.name, audience))
            # anything else (Secret, or no declaration): shown to nobody before the end
        self.public = tuple(public)
        self.guarded = tuple(guarded)


_RENDERINGS: dict[type, _Rendering] = {e: _Rendering(e) for e in AnyEvent.__args__}


def sees(event: Any, viewer: Viewer) -> bool:
    """Whether ``viewer`` sees that ``event`` happened at all (before the game is over)."""
    seen_by = type(event).seen_by
    return seen_by is None or seen_by.sees(event, viewer)


def render(
    event: Any, viewer: Viewer, everything: bool = False, number: int = 0
) -> LogEntry | None:
    """The log entry ``viewer`` may see for ``event``, numbered ``number`` in its log, or None
    (not in a log, or not seen by the viewer). ``everything``: the game is over."""
    r = _RENDERINGS[type(event)]
    if r.entry is None:
        return None
    if everything:
        fields = {name: getattr(event, name) for name in r.every}
    else:
        if r.seen_by is not None and not r.seen_by.sees(event, viewer):
            return None
        fields = {name: getattr(event, name) for name in r.public}
        for name, audience in r.guarded:
            if audience.sees(event, viewer):
                fields[name] = getattr(event, name)
        if r.received is not None:
            name, audience = r.received
            got = audience.received(event, name, viewer)
            if got is not None:
                fields[audience.shown_as] = got
    if r.wide:
        for name in r.wide & fields.keys():
            fields[name] = shown(fields[name])
    return r.entry(**fields, v=number)
