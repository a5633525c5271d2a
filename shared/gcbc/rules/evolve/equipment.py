"""The equipment cards' events: drawn, discarded, played, moved, returned, and what the cards
set going (alarms, the turn order, the next turn)."""

from __future__ import annotations

from msgspec.structs import replace

from gcbc.rules.evolve.base import Handler, Seats, put
from gcbc.rules.state import WINDOW, Prompt, State, Trail
from gcbc_contract import events as E


def _hand_limit(
    s: State, seats: Seats, seat: int, prompts: tuple[Prompt, ...]
) -> tuple[Prompt, ...]:
    """A seat over the hand limit must discard before anything else (RULES §6): the prompts with
    its discard first."""
    holder = seats[seat]
    assert holder is not None
    if len(holder.hand) > 1 and not any(p.seat == seat and p.kind == "discard" for p in prompts):
        return (Prompt(seat=seat, kind="discard", since=s.version), *prompts)
    return prompts


def _equipment_drawn(s: State, e: E.EquipmentDrawn, v: int, log: Trail) -> State:
    st = s.seats[e.seat]
    seats = put(s.seats, e.seat, replace(st, hand=(*st.hand, e.card)))
    declared = d = s.declared
    if d is not None and d.action == "equip" and not d.drawn and e.seat == s.turn_seat:
        declared = replace(d, drawn=True)
    return replace(
        s,
        version=v,
        log=log,
        seats=seats,
        prompts=_hand_limit(s, seats, e.seat, s.prompts),
        deck=s.deck[1:],
        declared=declared,
    )


def _without(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


def _equipment_discarded(s: State, e: E.EquipmentDiscarded, v: int, log: Trail) -> State:
    st = s.seats[e.seat]
    return replace(
        s,
        version=v,
        log=log,
        seats=put(s.seats, e.seat, replace(st, hand=_without(st.hand, e.card))),
        deck=(*s.deck, e.card),
    )


def _equipment_played(s: State, e: E.EquipmentPlayed, v: int, log: Trail) -> State:
    st = s.seats[e.seat]
    seats = put(s.seats, e.seat, replace(st, hand=_without(st.hand, e.card)))
    deck = s.deck
    if e.placed_on is not None:
        on = seats[e.placed_on]
        assert on is not None
        seats = put(seats, e.placed_on, replace(on, in_play=(*on.in_play, e.card)))
    else:
        deck = (*deck, e.card)
    w = s.window
    if w is not None and s.step == WINDOW:
        window = replace(w, pending=(), plays=w.plays + 1, reask=True)
        d = s.declared
        declared = replace(d, reacted=True) if d is not None else None
        return replace(
            s, version=v, log=log, seats=seats, deck=deck, window=window, declared=declared
        )
    return replace(s, version=v, log=log, seats=seats, deck=deck)


def _equipment_moved(s: State, e: E.EquipmentMoved, v: int, log: Trail) -> State:
    giver, receiver = s.seats[e.from_seat], s.seats[e.to_seat]
    if e.in_play:
        seats = put(s.seats, e.from_seat, replace(giver, in_play=_without(giver.in_play, e.card)))
        seats = put(seats, e.to_seat, replace(receiver, in_play=(*receiver.in_play, e.card)))
        return replace(s, version=v, log=log, seats=seats)
    seats = put(s.seats, e.from_seat, replace(giver, hand=_without(giver.hand, e.card)))
    seats = put(seats, e.to_seat, replace(receiver, hand=(*receiver.hand, e.card)))
    prompts = _hand_limit(s, seats, e.to_seat, s.prompts)
    return replace(s, version=v, log=log, seats=seats, prompts=prompts)


def _equipment_returned(s: State, e: E.EquipmentReturned, v: int, log: Trail) -> State:
    i = len(s.deck) - 1 - s.deck[::-1].index(e.card)
    st = s.seats[e.seat]
    seats = put(s.seats, e.seat, replace(st, hand=(*st.hand, e.card)))
    return replace(
        s,
        version=v,
        log=log,
        deck=s.deck[:i] + s.deck[i + 1 :],
        seats=seats,
        prompts=_hand_limit(s, seats, e.seat, s.prompts),
    )


def _alarm_set(s: State, e: E.AlarmSet, v: int, log: Trail) -> State:
    return replace(s, version=v, log=log, alarms=(*s.alarms, (e.seat, e.turn, e.by)))


def _alarm_rang(s: State, e: E.AlarmRang, v: int, log: Trail) -> State:
    # an alarm set on the seat during this very turn waits for its next turn (unless it is out)
    later = not s.seats[e.seat].eliminated
    keep = tuple(a for a in s.alarms if a[0] != e.seat or (later and a[1] >= s.turn_number))
    return replace(s, version=v, log=log, alarms=keep)


def _turn_order_reversed(s: State, e: E.TurnOrderReversed, v: int, log: Trail) -> State:
    marks = replace(s.marks, reverse_pending=not s.marks.reverse_pending)
    return replace(s, version=v, log=log, marks=marks)


def _next_turn_claimed(s: State, e: E.NextTurnClaimed, v: int, log: Trail) -> State:
    return replace(s, version=v, log=log, marks=replace(s.marks, coffee_seat=e.seat))


# the equipment's events -> their handlers
HANDLERS: dict[type, Handler] = {
    E.EquipmentDrawn: _equipment_drawn,
    E.EquipmentDiscarded: _equipment_discarded,
    E.EquipmentPlayed: _equipment_played,
    E.EquipmentMoved: _equipment_moved,
    E.EquipmentReturned: _equipment_returned,
    E.AlarmSet: _alarm_set,
    E.AlarmRang: _alarm_rang,
    E.TurnOrderReversed: _turn_order_reversed,
    E.NextTurnClaimed: _next_turn_claimed,
}
