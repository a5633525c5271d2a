"""legal_commands(state, seat): every command the seat may send now, ready to send (OpenSpiel's
legal actions), from the same declarations the refusals come from (``moves``). Where choices
multiply past ~200 combinations a move lists a template instead.

The commands come in groups of one ``type`` each (``legal_groups``): Investigate's, a card's
plays, Pass... A group lists its commands (``options``), only says whether it has any
(``possible``, cheaper), or draws one of them, each as likely, without listing them (``draw``):
the simulator's random bots draw a type first and then one command of it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gcbc.rules.actions import ACTIONS
from gcbc.rules.aim import AIM
from gcbc.rules.arrange import ARRANGE as ARRANGING
from gcbc.rules.equipment.registry import card as card_rules
from gcbc.rules.moves import Choose, draw_listed
from gcbc.rules.state import ACTION, ARRANGE, FINISHED, LOBBY, WINDOW, State
from gcbc.rules.state import AIM as AIM_STEP
from gcbc.rules.templates import TEMPLATE_LIMIT, expand, is_template, template
from gcbc.rules.timing import allows
from gcbc.rules.waits import arranging
from gcbc_contract import commands as C

__all__ = [
    "TEMPLATE_LIMIT",
    "PASS",
    "REACTING",
    "Group",
    "actions",
    "expand",
    "is_template",
    "legal_commands",
    "legal_groups",
    "template",
    "waiting_groups",
]


def _playable(s: State, seat: int, when: str | None) -> Any:
    """The seat's card its moment (``when``) lets it play now, if any (a seat over the hand limit
    first discards: RULES §6)."""
    hand = s.seats[seat].hand
    if len(hand) != 1 or when is None:
        return None
    card = card_rules(s, hand[0])
    return card if allows(card.timing, when, s) else None


# the plays of a seat asked in a window, and of the turn's seat before its action: there its
# moment is known (``moment``: the window's kind, "own_turn"), not asked again
def _window_plays(s: State, seat: int) -> list[Any]:
    card = _playable(s, seat, s.window.kind)
    return [] if card is None else card.options(s, seat)


def _any_window_play(s: State, seat: int) -> bool:
    card = _playable(s, seat, s.window.kind)
    return card is not None and card.possible(s, seat)


def _draw_window_play(s: State, seat: int, choose: Choose) -> Any | None:
    card = _playable(s, seat, s.window.kind)
    return None if card is None else card.draw(s, seat, choose)


def _turn_plays(s: State, seat: int) -> list[Any]:
    card = _playable(s, seat, "own_turn")
    return [] if card is None else card.options(s, seat)


def _any_turn_play(s: State, seat: int) -> bool:
    card = _playable(s, seat, "own_turn")
    return card is not None and card.possible(s, seat)


def _draw_turn_play(s: State, seat: int, choose: Choose) -> Any | None:
    card = _playable(s, seat, "own_turn")
    return None if card is None else card.draw(s, seat, choose)


def actions(s: State, seat: int) -> list[Any]:
    """The turn's actions (RULES §3.1; a zombie's, §8) open to ``seat`` now."""
    out: list[Any] = []
    for action in ACTIONS:
        out += action.options(s, seat)
    return out


@dataclass(frozen=True, slots=True, eq=False)
class Group:
    """The commands of one ``kind`` (their JSON ``type``) a seat may send in some situation (one
    object each: a tuple of groups hashes by their identities)."""

    kind: str
    options: Callable[[State, int], list[Any]]  # the commands (or templates), in order
    possible: Callable[[State, int], bool]  # whether there is any: bool(options(s, seat))
    # one of them drawn without listing them (``Move.draw``); None: drawn from ``options``
    drawn: Callable[[State, int, Choose], Any] | None = None

    def draw(self, s: State, seat: int, choose: Choose) -> Any | None:
        """One of ``options(s, seat)``, each as likely: the ``i``-th for
        ``choose(range(len(options))) == i`` (with one, ``choose`` is not asked); None if none."""
        if self.drawn is not None:
            return self.drawn(s, seat, choose)
        return draw_listed(self.options(s, seat), choose)


def _kind(command: type) -> str:
    return command.__struct_config__.tag


def _always(s: State, seat: int) -> bool:
    return True


def _discards(s: State, seat: int) -> list[Any]:
    return [C.Discard(seat=seat, card=c) for c in dict.fromkeys(s.seats[seat].hand)]


def _answers(s: State, seat: int) -> list[Any]:
    p = s.prompts[0]
    return card_rules(s, p.kind).prompt_options(s, p)


AUTO_PASS = Group(
    _kind(C.SetAutoPass),
    lambda s, seat: [C.SetAutoPass(seat=seat, enabled=not s.seats[seat].auto_pass)],
    _always,
)
_AWAY = (AUTO_PASS, Group(_kind(C.Resume), lambda s, seat: [C.Resume(seat=seat)], _always))
_DISCARD = (
    Group(_kind(C.Discard), _discards, lambda s, seat: bool(s.seats[seat].hand)),
    AUTO_PASS,
)
_ANSWER = (Group(_kind(C.Choose), _answers, lambda s, seat: bool(_answers(s, seat))), AUTO_PASS)
_ARRANGE = (
    Group(_kind(C.Arrange), ARRANGING.options, ARRANGING.possible, ARRANGING.draw),
    AUTO_PASS,
)
_PLAY = _kind(C.PlayEquipment)
# a seat asked in a window: it passes (one command, always) or plays its card
PASS = Group(_kind(C.Pass), lambda s, seat: [C.Pass(seat=seat)], _always)
REACTING = (PASS, Group(_PLAY, _window_plays, _any_window_play, _draw_window_play), AUTO_PASS)
_TURN = (
    *(Group(_kind(a.command), a.options, a.possible, a.draw) for a in ACTIONS),
    Group(_PLAY, _turn_plays, _any_turn_play, _draw_turn_play),
    AUTO_PASS,
)
_AIM = (Group(_kind(C.Aim), AIM.options, AIM.possible, AIM.draw), AUTO_PASS)
_META = (AUTO_PASS,)


def legal_groups(s: State, seat: int) -> tuple[Group, ...]:
    """The groups ``legal_commands(s, seat)`` lists, in its order (each kind in one group)."""
    step = s.step
    seats = s.seats
    if step == LOBBY or step == FINISHED or not 0 <= seat < len(seats):
        return ()
    if seats[seat].absent:
        return _AWAY
    if s.prompts:
        p = s.prompts[0]
        if p.seat != seat:
            return _META
        return _DISCARD if p.kind == "discard" else _ANSWER
    # the steps by how often a seat is asked in them (windows first)
    if step == WINDOW:
        w = s.window
        if w is not None and seat in w.pending:
            return REACTING
    elif step == ACTION:
        if s.turn_seat == seat:
            return _TURN
    elif step == AIM_STEP:
        if s.turn_seat == seat:
            return _AIM
    elif step == ARRANGE:
        return _ARRANGE
    return _META


def waiting_groups(s: State) -> tuple[tuple[int, ...], tuple[Group, ...]]:
    """``current_wait(s).seats`` (none: no wait), and the groups each of them may send: the same for all, as they wait
    for the same thing (tested: ``legal_groups`` of each). The simulator asks at every command:
    the wait's situation found once for both. A seat waited for is never away (the autopilot
    acts for it, and windows and the arrangement do not wait for it)."""
    if s.prompts:
        p = s.prompts[0]
        return (p.seat,), _DISCARD if p.kind == "discard" else _ANSWER
    step = s.step
    if step == WINDOW:  # (the most frequent)
        return s.window.pending, REACTING  # type: ignore[union-attr]  # a window step has its window
    if step == ACTION:
        return (s.turn_seat,), _TURN
    if step == AIM_STEP:
        return (s.turn_seat,), _AIM
    if step == ARRANGE:
        return arranging(s), _ARRANGE
    return (), ()


def legal_commands(s: State, seat: int) -> list[Any]:
    out: list[Any] = []
    for group in legal_groups(s, seat):
        out += group.options(s, seat)
    return out
