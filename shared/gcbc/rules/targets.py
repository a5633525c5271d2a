"""What a move may name: seats and their cards. The parameters and rules the moves share, each
refusing with a stable code (``moves``)."""

from __future__ import annotations

from typing import Any

from gcbc.rules.moves import Chosen, Param, Rule
from gcbc.rules.query import protected
from gcbc.rules.state import State

NO_SUCH_SEAT = ("invalid_target", "there is no seat {value}")


def every_seat(s: State, seat: int, chosen: Chosen) -> range:
    return range(len(s.seats))


# the rules most seats named must follow, each with its selection over many seats (the options)
NOT_SELF = Rule(
    "target_is_self",
    "choose another seat than yours",
    lambda s, me, t, c: t != me,
    select=lambda s, me, ts, c: [t for t in ts if t != me],
)
LIVING = Rule(
    "target_eliminated",
    "seat {value} is eliminated",
    lambda s, me, t, c: not s.seats[t].eliminated,
    select=lambda s, me, ts, c: [t for t in ts if not s.seats[t].eliminated],
)
NOT_DISGUISED = Rule(
    "target_disguised",
    "seat {value} cannot be investigated",
    lambda s, me, t, c: not protected(s, t),
    select=lambda s, me, ts, c: [t for t in ts if not (s.seats[t].in_play and protected(s, t))],
)


def not_zombie(message: str) -> Rule:
    return Rule(
        "target_is_zombie",
        message,
        lambda s, me, t, c: not s.seats[t].zombie,
        select=lambda s, me, ts, c: [t for t in ts if not s.seats[t].zombie],
    )


def after(first: str) -> tuple[Rule, ...]:
    """A second seat after the one chosen as ``first``: another one, listed in increasing order
    (the order the options are listed in, so one pair is one option; a card whose pair may be
    named either way puts it in this order first: ``Card.arranged``)."""
    return (
        Rule(
            "invalid_target",
            "the two seats must be different",
            select=lambda s, me, ts, c: [t for t in ts if t != c[first]],
        ),
        Rule(
            "bad_parameters",
            "list the two seats in increasing order",
            select=lambda s, me, ts, c: [t for t in ts if t > c[first]],
        ),
    )


def seat(
    field: str = "target",
    *rules: Rule,
    index: int | None = None,
    name: str = "",
    depends: tuple[str, ...] | None = None,
) -> Param:
    """A seat of the table (``invalid_target`` otherwise) that follows ``rules``."""
    return Param(field, every_seat, NO_SUCH_SEAT, rules, index=index, as_=name, depends=depends)


def seat_after(first: str, field: str, *rules: Rule, **where: Any) -> Param:
    """A second seat, listed after the one chosen as ``first`` (``after``), that follows
    ``rules``."""
    return seat(field, *after(first), *rules, **where)


def living_seat(field: str = "target", *rules: Rule, **where: Any) -> Param:
    return seat(field, LIVING, *rules, **where)


def other_living_seat(field: str = "target", *rules: Rule, **where: Any) -> Param:
    """Another seat than the mover's, still in the game."""
    return seat(field, NOT_SELF, LIVING, *rules, **where)


def investigable_seat(field: str = "target", *rules: Rule, **where: Any) -> Param:
    """A seat the mover may investigate: another living seat, not protected by Disguise."""
    return seat(field, NOT_SELF, LIVING, NOT_DISGUISED, *rules, **where)


def cards_of(name: str):  # noqa: ANN201
    """The positions of the cards of the seat chosen as ``name``: 1-3 (1 after a classic
    Defibrillator)."""

    def among(s: State, seat: int, chosen: Chosen) -> range:
        return range(1, len(s.seats[chosen[name]].cards) + 1)

    return among


def face_down_of(name: str) -> Rule:
    """The card at that position of the seat chosen as ``name`` is face down."""

    def test(s: State, me: int, position: int, c: Chosen) -> bool:
        return not s.seats[c[name]].face_up[position - 1]

    def select(s: State, me: int, positions: list[int], c: Chosen) -> list[int]:
        up = s.seats[c[name]].face_up
        return [p for p in positions if not up[p - 1]]

    return Rule("card_not_face_down", "that card is face up", test, select)


def card_of(
    name: str, *rules: Rule, field: str = "position", index: int | None = None, as_: str = ""
) -> Param:
    """A card of the seat chosen as ``name``, by position (``invalid_position`` otherwise)."""
    outside = ("invalid_position", "that seat has no card at position {value}")
    return Param(field, cards_of(name), outside, rules, index=index, as_=as_, depends=(name,))


def face_down_card_of(name: str, **where: Any) -> Param:
    """A face-down card of the seat chosen as ``name``."""
    return card_of(name, face_down_of(name), **where)
