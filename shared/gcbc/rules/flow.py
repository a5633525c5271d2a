"""What follows from a state by itself: windows closing, actions resolving, turns passing, the
hand limit, wins. ``advance`` emits those events until the table waits for someone (or ends)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from gcbc.rules.actions import BY_NAME
from gcbc.rules.autopilot import autopilot_events
from gcbc.rules.effects import fall
from gcbc.rules.equipment.base import Card
from gcbc.rules.equipment.registry import CARDS, CLASSIC
from gcbc.rules.evolve import fold
from gcbc.rules.query import alive, holders, next_living
from gcbc.rules.state import (
    ACTION,
    AFTER_ACTION,
    AIM,
    ARRANGE,
    DECLARED,
    FINISHED,
    LOBBY,
    RESOLVE,
    TURN_END,
    TURN_START,
    WINDOW,
    State,
)
from gcbc.rules.teams import holds_leader, winner
from gcbc_contract import events as E


def fell_this_turn(s: State) -> bool:
    """The turn seat was eliminated during its own turn (a card's shot): its turn ends (RULES
    §4). One that rose as a zombie instead plays on as a zombie (RULES §8: "when you are a
    zombie and you take your turn", Bite or Equip; an action declared before it rose and no
    longer possible is chosen again, §6)."""
    return s.marks.turn_fell or s.seats[s.turn_seat].eliminated


def _resolve_action(s: State) -> list[Any]:
    d = s.declared
    t = s.turn_seat
    assert d is not None
    if fell_this_turn(s):  # the acting seat fell while its action waited: nothing happens
        return [E.ActionResolved(seat=t)]
    return BY_NAME[d.action].resolve(s, t, d)


def _game_over(s: State, won: tuple[tuple[int, ...], str, str]) -> list[Any]:
    seats, team, reason = won
    return [
        E.GameWon(winners=seats, team=team, reason=reason),
        E.AllRevealed(
            identities=s.setup.identities,
            hands=tuple(st.cards for st in s.seats),
            burned=s.setup.burned,
            equipment=tuple(st.hand for st in s.seats),
            random_seed=s.setup.random_seed,
        ),
    ]


# events after which the game may be won (RULES §2: after every shot and card movement)
WIN_EVENTS = frozenset(
    {
        E.CardsDealt,
        E.CardsArranged,
        E.CardsExchanged,
        E.CardsDiscarded,
        E.SeatEliminated,
        E.SeatRevived,
        E.BecameZombie,
        E.ZombieCured,
        E.LeaderWounded,
    }
)


def _wound_falls(s: State) -> list[Any]:
    """``wounds: "card"`` (RULES §4): a wounded seat that no longer holds a Leader card is
    eliminated at once (that alone wins nothing), or rises as a zombie (``fall``)."""
    if s.setup.options.wounds != "card":
        return []
    for i, st in enumerate(s.seats):
        if st.wounded and not st.eliminated and not st.zombie and holds_leader(s, i) is None:
            return fall(s, i, None)
    return []


@cache
def _turn_end_hooks() -> tuple[Card, ...]:
    """The cards that act at the end of a turn (Alarm Clock), found once (every card has
    registered by then: importing any equipment module imports them all)."""
    cards = (*CARDS.values(), *CLASSIC.values())
    return tuple(c for c in cards if type(c).at_turn_end is not Card.at_turn_end)


def _first_turn(s: State) -> E.TurnBegan:
    """The Lead Investigator's turn, or the next living seat's if it fell before (a card). A
    Coffee or Smoke Grenade played in the start-of-game window acts as if played in this turn
    (RULES §7.1): its claim and reversal are kept into it (``evolve``)."""
    first = s.turn_seat
    if not alive(s, first):
        first = next_living(s, first, s.marks.direction)
    return E.TurnBegan(seat=first, turn=1, direction=s.marks.direction)


def _won_or_fell(s: State) -> list[Any]:
    """The end of the game, if it is won; else a wounded seat falling (RULES §2, §4)."""
    won = winner(s)  # first: both Leaders in one hand win at once, before any wound falls
    if won is not None:
        return _game_over(s, won)
    return _wound_falls(s)


def _in_window(s: State) -> list[Any]:
    """Once every seat asked has answered: asked again after a play, or closed (RULES §6)."""
    w = s.window
    assert w is not None
    if w.pending:
        return []
    if w.reask:
        asked = holders(s)
        if asked:
            return [E.WindowReopened(kind=w.kind, asked=asked)]
    return [E.WindowClosed(kind=w.kind)]


def _declared(s: State) -> list[Any]:
    """A declared action opens its window, or resolves at once (RULES §6)."""
    d = s.declared
    assert d is not None
    if BY_NAME[d.action].window:
        return [E.WindowOpened(kind=d.action, asked=holders(s))]
    return _resolve_action(s)


def _waiting_for_turn_seat(s: State) -> list[Any]:
    """The turn's seat acts or aims; eliminated in its own turn, the turn ends (RULES §4)."""
    if fell_this_turn(s):
        return [E.WindowOpened(kind="end_of_turn", asked=holders(s))]
    if s.seats[s.turn_seat].absent:
        return autopilot_events(s, s.turn_seat, missed=False)
    return []


def _turn_ended(s: State) -> list[Any]:
    """The cards acting at the end of a turn, then the next turn (Coffee's seat, or the next
    living seat in the turn's direction, reversed by a Smoke Grenade: RULES §7.1)."""
    for card in _turn_end_hooks():
        events = card.at_turn_end(s)
        if events:
            return events
    m = s.marks
    direction = -m.direction if m.reverse_pending else m.direction
    if m.coffee_seat is not None and alive(s, m.coffee_seat):
        nxt = m.coffee_seat
    else:
        nxt = next_living(s, s.turn_seat, direction)
    return [E.TurnBegan(seat=nxt, turn=s.turn_number + 1, direction=direction)]


def _action_over(s: State) -> list[Any]:
    """After the action, the turn's seat aims its gun or Arms (RULES §3.2), else the turn ends."""
    st = s.seats[s.turn_seat]
    if not fell_this_turn(s) and (st.gun or st.zombie):
        return [E.AimRequested(seat=s.turn_seat)]
    return [E.WindowOpened(kind="end_of_turn", asked=holders(s))]


def _arranging(s: State) -> list[Any]:
    """Once every present seat has arranged its cards, the start-of-game window (RULES §1)."""
    if all(st.arranged or st.absent for st in s.seats):
        return [E.ArrangementClosed(), E.WindowOpened(kind="start_of_game", asked=holders(s))]
    return []


# what follows from each step by itself, once no prompt waits
_FOLLOWS: dict[str, Callable[[State], list[Any]]] = {
    WINDOW: _in_window,
    DECLARED: _declared,
    ACTION: _waiting_for_turn_seat,
    AIM: _waiting_for_turn_seat,
    TURN_END: _turn_ended,
    AFTER_ACTION: _action_over,
    RESOLVE: _resolve_action,
    ARRANGE: _arranging,
    TURN_START: lambda s: [_first_turn(s)],
}


def next_events(s: State, check_win: bool = True) -> list[Any]:
    """The events that follow from ``s`` by itself; empty when the table waits (or is over).
    ``check_win``: whether the events since the last check could have decided the game."""
    if s.step == LOBBY or s.step == FINISHED:
        return []
    if check_win:
        events = _won_or_fell(s)
        if events:
            return events
    if s.prompts:  # a prompt waits for its seat (the autopilot answers for an absent one)
        p = s.prompts[0]
        return autopilot_events(s, p.seat, missed=False) if s.seats[p.seat].absent else []
    follows = _FOLLOWS.get(s.step)
    if follows is None:
        raise AssertionError(f"unknown step {s.step}")
    return follows(s)


def advance(s: State) -> tuple[State, list[Any]]:
    """Fold the automatic consequences of ``s`` until someone must act (the win checked first)."""
    events = next_events(s)
    if not events:
        return s, []
    s, more = settle(s, events)
    return s, [*events, *more]


def settle(
    s: State, events: list[Any], observe: Callable[[State], None] | None = None
) -> tuple[State, list[Any]]:
    """Fold ``events`` into ``s``, then their automatic consequences until someone must act: the
    state, and the events that followed (``advance(fold(events, s))``, the win checked only if
    ``events`` may have won). ``observe`` is called with the state after every event."""
    followed: list[Any] = []
    s = fold(events, s, observe)
    more = next_events(s, _may_win(events))
    while more:
        followed += more
        s = fold(more, s, observe)
        more = next_events(s, _may_win(more))
    return s, followed


def _may_win(events: list[Any]) -> bool:
    """Whether these events may have won the game (``WIN_EVENTS``)."""
    return not WIN_EVENTS.isdisjoint(map(type, events))
