"""What follows from a state by itself: windows closing, actions resolving, turns passing, the
hand limit, wins. ``advance`` emits those events until the table waits for someone (or ends)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, partial
from typing import Any

from gcbc.rules.actions import BY_NAME
from gcbc.rules.autopilot import autopilot_events
from gcbc.rules.effects import fall
from gcbc.rules.equipment.base import Card
from gcbc.rules.equipment.registry import CARDS, CLASSIC
from gcbc.rules.evolve import FOLDS, fold_following
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
    """The turn seat was eliminated, or became a zombie, during its own turn (a card's shot):
    its turn ends (RULES §4, §8)."""
    return s.marks.turn_fell or s.seats[s.turn_seat].eliminated


def _resolve_action(s: State) -> list[Any]:
    d = s.declared
    t = s.turn_seat
    assert d is not None
    if s.marks.turn_fell or s.seats[t].eliminated:  # fell_this_turn(s): the acting seat fell while
        # its action waited: nothing happens
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
# how the flow folds each event: as ``fold`` does, marking those that may win (``WIN_EVENTS``):
# one lookup per event for both
STEPS = {t: (handler, seen_by, t in WIN_EVENTS) for t, (handler, seen_by, _) in FOLDS.items()}


def _wound_falls(s: State) -> list[Any]:
    """``wounds: "card"`` (RULES §4): a wounded seat that no longer holds a Leader card is
    eliminated at once (that alone wins nothing)."""
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


def next_events(s: State, check_win: bool = True) -> list[Any]:
    """The events that follow from ``s`` by itself; empty when the table waits (or is over).
    ``check_win``: whether the events since the last check could have decided the game."""
    step = s.step
    if step == WINDOW and not check_win and not s.prompts and s.window.pending:  # type: ignore[union-attr]
        return []  # a window still waiting (after most passes): asked first
    if step == LOBBY or step == FINISHED:
        return []
    if check_win:
        won = winner(s)  # first: both Leaders in one hand win at once, before any wound falls
        if won is not None:
            return _game_over(s, won)
        falls = _wound_falls(s)
        if falls:
            return falls
    if s.prompts:
        p = s.prompts[0]
        if s.seats[p.seat].absent:
            return autopilot_events(s, p.seat, missed=False)
        return []
    # the steps by how often the table is found in them (windows first)
    if step == WINDOW:
        w = s.window
        assert w is not None
        if w.pending:
            return []
        if w.reask:
            asked = holders(s)
            if asked:
                return [E.WindowReopened(kind=w.kind, asked=asked)]
        return [E.WindowClosed(kind=w.kind)]
    if step == DECLARED:
        d = s.declared
        assert d is not None
        if BY_NAME[d.action].window:
            return [E.WindowOpened(kind=d.action, asked=holders(s))]
        return _resolve_action(s)
    if step == ACTION or step == AIM:
        if s.marks.turn_fell or s.seats[s.turn_seat].eliminated:  # fell_this_turn(s): in its own
            # turn (a card): the turn ends
            return [E.WindowOpened(kind="end_of_turn", asked=holders(s))]
        if s.seats[s.turn_seat].absent:
            return autopilot_events(s, s.turn_seat, missed=False)
        return []
    if step == TURN_END:
        for card in _turn_end_hooks():
            events = card.at_turn_end(s)
            if events:
                return events
        direction = -s.marks.direction if s.marks.reverse_pending else s.marks.direction
        if s.marks.coffee_seat is not None and alive(s, s.marks.coffee_seat):
            nxt = s.marks.coffee_seat
        else:
            nxt = next_living(s, s.turn_seat, direction)
        return [E.TurnBegan(seat=nxt, turn=s.turn_number + 1, direction=direction)]
    if step == AFTER_ACTION:
        t = s.turn_seat
        st = s.seats[t]
        if not (s.marks.turn_fell or st.eliminated) and (st.gun or st.zombie):  # not fell_this_turn
            return [E.AimRequested(seat=t)]
        return [E.WindowOpened(kind="end_of_turn", asked=holders(s))]
    if step == RESOLVE:
        return _resolve_action(s)
    if step == ARRANGE:
        if all(st.arranged or st.absent for st in s.seats):
            return [E.ArrangementClosed(), E.WindowOpened(kind="start_of_game", asked=holders(s))]
        return []
    if step == TURN_START:
        return [_first_turn(s)]
    raise AssertionError(f"unknown step {step}")


def advance(
    s: State,
    observe: Callable[[State], None] | None = None,
    after: list[Any] | None = None,
    won: bool | None = None,
) -> tuple[State, list[Any]]:
    """Fold the automatic consequences of ``s`` until someone must act. ``won``: whether the
    events just folded into ``s`` may have won; else ``after``, those events, says (None:
    unknown, so the win is checked)."""
    check_win = won if won is not None else after is None or _may_win(after)
    events = next_events(s, check_win)
    if not events:
        return s, []
    s, more = settle(s, events, observe)
    return s, [*events, *more]


# settle(s, events, observe=None) -> (state, the events that followed): fold ``events`` into
# ``s``, then their automatic consequences until someone must act (``advance(fold(events, s),
# after=events)`` in one loop, each event's type looked up once for its fold and for whether it
# may win). A partial, not a function calling it: a frame less per command
settle: Callable[..., tuple[State, list[Any]]] = partial(fold_following, STEPS, next_events)


def _may_win(events: list[Any]) -> bool:
    """Whether these events may have won the game (``WIN_EVENTS``)."""
    for e in events:  # a loop, not isdisjoint(map(...)): no map object
        if type(e) in WIN_EVENTS:
            return True
    return False
