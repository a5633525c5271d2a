"""The contract of a turn's action (RULES §3.1; a zombie's, §8): a move (``moves.Move``) whose
command declares it; it resolves at once, or after the reaction window it opens (RULES §6)."""

from __future__ import annotations

from typing import Any

from gcbc.rules.moves import Move, Param, Rule
from gcbc.rules.state import Declared, State
from gcbc_contract.vocabulary import ActionName


class Action(Move):
    """Subclasses set ``name``, ``command``, ``requires``, ``params``, and implement ``declare``
    and ``resolve``."""

    name: ActionName
    command: type
    window: bool = False  # declaring it opens a reaction window of its name (RULES §6)

    def declare(self, s: State, seat: int, cmd: Any) -> list[Any]:
        """The events of the command, once checked: the action declared."""
        raise NotImplementedError

    def resolve(self, s: State, seat: int, declared: Declared) -> list[Any]:
        """The events of the declared action when it resolves (its window closed, if any): its
        effect, or ActionCancelled if it became impossible meanwhile."""
        raise NotImplementedError


def not_a_zombie(what: str) -> Rule:
    """RULES §8: a zombie's action is Bite or Equip."""
    return Rule(
        "zombie_cannot",
        f"a zombie cannot {what} (it may bite or equip)",
        lambda s, seat: not s.seats[seat].zombie,
    )


def _own_cards_or_none(s: State, seat: int, chosen: dict[str, Any]) -> tuple[int | None, ...]:
    return (None, *range(1, len(s.seats[seat].cards) + 1))


def _all_up(s: State, seat: int) -> bool:
    return all(s.seats[seat].face_up)


# Equip and Arm turn one own face-down card face up, if any: the command names it (RULES §3.1)
CARD_TO_REVEAL = Param(
    "position",
    _own_cards_or_none,
    ("invalid_position", "you have no card at position {value}"),
    (
        Rule(
            "invalid_position",
            "name the face-down card (position) to turn face up",
            lambda s, seat, p, c: p is not None or _all_up(s, seat),
            select=lambda s, seat, ps, c: (
                ps if _all_up(s, seat) else [p for p in ps if p is not None]
            ),
        ),
        Rule(
            "invalid_position",
            "you have no face-down card to turn face up",
            lambda s, seat, p, c: p is None or not _all_up(s, seat),
            select=lambda s, seat, ps, c: [p for p in ps if p is None] if _all_up(s, seat) else ps,
        ),
        Rule(
            "card_not_face_down",
            "your card at position {value} is already face up",
            lambda s, seat, p, c: p is None or not s.seats[seat].face_up[p - 1],
            select=lambda s, seat, ps, c: [
                p for p in ps if p is None or not s.seats[seat].face_up[p - 1]
            ],
        ),
    ),
    depends=(),  # the mover's own cards, whatever else it chose
)
