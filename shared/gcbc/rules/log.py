"""The public log, rendered per viewer: the one place that decides what each event shows to whom.

An event's secret fields are shown only to their audience; some events are shown to one seat
only. Once the game is over, everything is public (RULES §10).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from gcbc.contract import events as E

Viewer = int | None  # a seat, or None for the public
_never: Callable[[Any, Viewer], bool] = lambda e, v: False  # noqa: E731

# event type -> {secret field: who may see it}
SECRET_FIELDS: dict[type, dict[str, Callable[[Any, Viewer], bool]]] = {
    E.TableOpened: {"deal": _never, "random_seed": _never},
    E.GameStarted: {"random_seed": _never},
    E.CardsDealt: {
        "identities": _never,
        "hands": _never,
        "burned": _never,
        "equipment": _never,
        "deck": _never,
    },
    E.CardViewed: {"card": lambda e, v: v == e.viewer, "card_id": _never},
    E.CardsExchanged: {
        "cards": _never,  # rendered per receiver below
        "card_ids": _never,
    },
    E.CardRevealed: {"card_id": _never},
    E.LeaderWounded: {"card_id": _never},
    E.WoundHealed: {"card_id": _never},
    E.EquipmentDrawn: {"card": lambda e, v: v == e.seat},
    E.EquipmentDiscarded: {"card": lambda e, v: v == e.seat},
    E.EquipmentMoved: {"card": lambda e, v: e.in_play or v in (e.from_seat, e.to_seat)},
    E.CardsShuffled: {"positions": lambda e, v: v == e.seat},
    E.CardsDiscarded: {"card_ids": _never},
}

# events only one seat sees at all (the field naming it): for everyone else they never happened,
# so they do not even bump the version a viewer sees (a pass must not show as a change, §6)
PRIVATE: dict[type, str] = {
    E.CardsArranged: "seat",
    E.ReactionPassed: "seat",
    E.AutoPassSet: "seat",
    E.MissStreakEnded: "seat",
}


def sees(event: Any, viewer: Viewer) -> bool:
    """Whether ``viewer`` sees that ``event`` happened at all (before the game is over)."""
    field = PRIVATE.get(type(event))
    return field is None or getattr(event, field) == viewer


def render(event: Any, viewer: Viewer, everything: bool = False) -> dict[str, Any] | None:
    """The log entry ``viewer`` may see for ``event``, or None. ``everything``: game over."""
    kind = type(event)
    if kind is E.ChatPosted:
        return None
    entry = msgspec.to_builtins(event)
    if everything:
        return entry
    if not sees(event, viewer):
        return None
    for name, allowed in SECRET_FIELDS.get(kind, {}).items():
        if name in entry and not allowed(event, viewer):
            del entry[name]
    if kind is E.CardsExchanged and viewer in event.seats:
        # each receiver learns the card it received
        received = event.cards[0] if viewer == event.seats[1] else event.cards[1]
        entry["received"] = received
    return entry
