"""Who may see what of an event, declared where the event is (RULES §11).

Every field of an event names its audience in its annotation: ``Public[int]``, ``Secret[str]``,
``Annotated[str, To("viewer")]``... A view's log shows a field only to its audience before the game
is over, and everything to everyone after (RULES §10). A field with no declared audience is shown to
nobody (``audience_of``), and a test fails on it: a new secret field is private unless declared
public. An event that only one seat may know happened at all says so with ``seen_by``.
"""

from __future__ import annotations

from typing import Annotated, Any, TypeVar, get_args, get_origin

T = TypeVar("T")


class Audience:
    """Who sees a field, given the event and the viewer (a seat, or None for the public)."""

    def sees(self, event: Any, viewer: int | None) -> bool:
        raise NotImplementedError


class Everyone(Audience):
    """Everyone who sees the event."""

    def sees(self, event: Any, viewer: int | None) -> bool:
        return True

    def __repr__(self) -> str:
        return "PUBLIC"


class Nobody(Audience):
    """Nobody, until the game is over: identities, card ids, the deal, the seed (RULES §11)."""

    def sees(self, event: Any, viewer: int | None) -> bool:
        return False

    def __repr__(self) -> str:
        return "SECRET"


class To(Audience):
    """The seats the event names in ``fields`` (e.g. the viewer of a card); everyone when the
    event's boolean field ``public_if`` is true (e.g. a card moved in play, in front of all)."""

    def __init__(self, *fields: str, public_if: str | None = None) -> None:
        assert fields
        self.fields = fields
        self.public_if = public_if

    def sees(self, event: Any, viewer: int | None) -> bool:
        if self.public_if is not None and getattr(event, self.public_if):
            return True
        return viewer is not None and any(getattr(event, f) == viewer for f in self.fields)

    def __repr__(self) -> str:
        unless = f", public_if={self.public_if!r}" if self.public_if else ""
        return f"To({', '.join(map(repr, self.fields))}{unless})"


class Received(Audience):
    """Two cards exchanged between the two seats of the event's ``seats`` field: each receiving
    seat learns the card it received, shown to it alone as ``received``; the field itself is
    shown to nobody until the end."""

    shown_as = "received"

    def __init__(self, seats: str) -> None:
        self.seats = seats

    def sees(self, event: Any, viewer: int | None) -> bool:
        return False

    def received(self, event: Any, field: str, viewer: int | None) -> Any:
        """What ``viewer`` received, or None if it is not one of the two seats."""
        a, b = getattr(event, self.seats)
        if viewer == b:
            return getattr(event, field)[0]
        if viewer == a:
            return getattr(event, field)[1]
        return None

    def __repr__(self) -> str:
        return f"Received({self.seats!r})"


PUBLIC = Everyone()
SECRET = Nobody()

Public = Annotated[T, PUBLIC]
Secret = Annotated[T, SECRET]


def declared_audience(annotation: Any) -> Audience | None:
    """The audience a field's type declares, or None."""
    if get_origin(annotation) is Annotated:
        for meta in get_args(annotation)[1:]:
            if isinstance(meta, Audience):
                return meta
    return None


def audience_of(annotation: Any) -> Audience:
    """The audience of a field: as declared, else nobody (private unless declared public)."""
    return declared_audience(annotation) or SECRET
