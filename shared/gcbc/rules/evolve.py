"""evolve(state, event) -> state: total over every event, pure, no decisions taken here."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from operator import add
from typing import Any

from msgspec.structs import replace

from gcbc.contract import events as E
from gcbc.contract.cards import AGENT, KINGPIN
from gcbc.rules.effects import INVESTIGATIONS
from gcbc.rules.setup import arms, guns
from gcbc.rules.state import (
    ACTION,
    AFTER_ACTION,
    AIM,
    ARRANGE,
    DECLARED,
    FINISHED,
    RESOLVE,
    TURN_END,
    TURN_START,
    WINDOW,
    Declared,
    Prompt,
    Seat,
    State,
    Window,
    house_bot_name,
    initial_state,
)

Changes = dict[str, Any]  # the fields of the state an event changes, and their new values


def _with(seats: tuple[Seat | None, ...], i: int, **fields: Any) -> tuple[Seat | None, ...]:
    """``seats`` with seat ``i`` changed."""
    out = list(seats)
    out[i] = replace(seats[i], **fields)
    return tuple(out)


def _learn(
    knowledge: tuple[dict[int, str], ...], viewer: int, card_id: int, card: str
) -> tuple[dict[int, str], ...]:
    known = knowledge[viewer]
    if known.get(card_id) == card:
        return knowledge
    k = list(knowledge)
    k[viewer] = {**known, card_id: card}
    return tuple(k)


Seen = dict[int, tuple[tuple[int, str], ...]]


def _saw(seen: Seen, card_id: int, seat: int, means: str) -> Seen:
    prior = seen.get(card_id, ())
    if any(who == seat for who, _ in prior):
        return seen
    return {**seen, card_id: (*prior, (seat, means))}


# --- lobby --------------------------------------------------------------------------------------
def _table_opened(s: State, e: E.TableOpened) -> Changes:
    return {
        "table_id": e.table_id,
        "seat_count": e.seats,
        "options": e.options.with_defaults(),  # older logs: the edition's wounds (RULES §4)
        "deadlines": e.deadlines,
        "deal": e.deal,
        "first_seat_choice": e.first_seat,
        "requested_seed": e.random_seed,
        "chat_per_seat": e.chat_per_seat,
        "house_bots": e.bots,
        "rematch_of": e.rematch_of,
        "held": frozenset(e.held),
        # the house's seats are taken as the table opens; players take the others
        "seats": tuple(
            Seat(name=house_bot_name(i)) if e.bots and i in e.bots.seats else None
            for i in range(e.seats)
        ),
        "unseen": (0,) * (e.seats + 1),
    }


def _seat_taken(s: State, e: E.SeatTaken) -> Changes:
    seats = list(s.seats)
    seats[e.seat] = Seat(name=e.name)
    if e.seat in s.held:  # its player came back for the rematch
        return {"seats": tuple(seats), "held": s.held - {e.seat}}
    return {"seats": tuple(seats)}


def _seat_left(s: State, e: E.SeatLeft) -> Changes:
    seats = list(s.seats)
    seats[e.seat] = None
    return {"seats": tuple(seats)}


def _table_closed(s: State, e: E.TableClosed) -> Changes:
    return {"step": FINISHED, "winners": (), "win_reason": f"closed: {e.reason}"}


def _game_started(s: State, e: E.GameStarted) -> Changes:
    return {"random_seed": e.random_seed, "turn_seat": e.first_seat}


def _cards_dealt(s: State, e: E.CardsDealt) -> Changes:
    seats = []
    knowledge = []
    for i, st in enumerate(s.seats):
        cards = e.hands[i]
        seats.append(replace(st, cards=cards, face_up=(False,) * len(cards), hand=e.equipment[i]))
        knowledge.append({c: e.identities[c] for c in cards})
    return {
        "seats": tuple(seats),
        "knowledge": tuple(knowledge),
        "identities": e.identities,
        "leader_ids": (e.identities.index(AGENT), e.identities.index(KINGPIN)),
        "burned": e.burned,
        "deck": e.deck,
        "guns_in_centre": guns(s.options, len(seats)),
        "arms_in_centre": arms(s.options, len(seats)),
        "step": ARRANGE,
        "arrange_since": s.version,
    }


def _cards_arranged(s: State, e: E.CardsArranged) -> Changes:
    st = s.seat(e.seat)
    cards = tuple(st.cards[p - 1] for p in e.positions)
    face_up = tuple(st.face_up[p - 1] for p in e.positions)
    missed = st.missed + 1 if e.missed else st.missed
    seats = _with(s.seats, e.seat, cards=cards, face_up=face_up, arranged=True, missed=missed)
    return {"seats": seats}


def _arrangement_closed(s: State, e: E.ArrangementClosed) -> Changes:
    return {}


# --- turns, windows, prompts --------------------------------------------------------------------
def _turn_began(s: State, e: E.TurnBegan) -> Changes:
    return {
        "step": ACTION,
        "turn_seat": e.seat,
        "turn_number": e.turn,
        "direction": e.direction,
        "reverse_pending": False,
        "coffee_seat": None,
        "guns_locked": frozenset(),
        "arm_barred": None,
        "investigated": (),
        "turn_fell": False,
        "reaim_from": None,
        "declared": None,
        "standing": None,
        "turn_since": s.version,
    }


def _action_declared(s: State, e: E.ActionDeclared) -> Changes:
    declared = Declared(action=e.action, target=e.target, position=e.position)
    # a shot that stands resolves at once: its window was held already (RULES §6)
    return {"step": RESOLVE if e.stands else DECLARED, "declared": declared, "standing": None}


def _action_cancelled(s: State, e: E.ActionCancelled) -> Changes:
    # the seat chooses again, with a fresh deadline; a reconsidered shot stands if it lets the
    # deadline pass (RULES §6)
    standing = s.declared if e.reason == "reconsider" else None
    return {"step": ACTION, "declared": None, "standing": standing, "turn_since": s.version}


def _action_resolved(s: State, e: E.ActionResolved) -> Changes:
    return {"step": AFTER_ACTION, "declared": None}


def _aim_requested(s: State, e: E.AimRequested) -> Changes:
    return {"step": AIM, "aim_since": s.version}


def _window_opened(s: State, e: E.WindowOpened | E.WindowReopened) -> Changes:
    seats = s.seats
    pending = frozenset(i for i in e.asked if not seats[i].auto_pass and not seats[i].absent)
    plays = s.window.plays if s.window is not None and s.window.kind == e.kind else 0
    window = Window(kind=e.kind, asked=e.asked, pending=pending, since=s.version, plays=plays)
    return {"step": WINDOW, "window": window}


def _reaction_passed(s: State, e: E.ReactionPassed) -> Changes:
    w = s.window
    assert w is not None
    changes: Changes = {"window": replace(w, pending=w.pending - {e.seat})}
    if e.missed:  # a window's deadline counts towards the three in a row (RULES §10)
        changes["seats"] = _with(s.seats, e.seat, missed=s.seat(e.seat).missed + 1)
    return changes


_AFTER_WINDOW = {"start_of_game": TURN_START, "end_of_turn": TURN_END}


def _window_closed(s: State, e: E.WindowClosed) -> Changes:
    return {"step": _AFTER_WINDOW.get(e.kind, RESOLVE), "window": None}


def _prompt_opened(s: State, e: E.PromptOpened) -> Changes:
    prompt = Prompt(seat=e.seat, kind=e.kind, options=e.options, about=e.about, since=s.version)
    return {"prompts": (*s.prompts, prompt)}


def _prompt_answered(s: State, e: E.PromptAnswered) -> Changes:
    prompts = s.prompts[1:]
    if prompts and prompts[0].since < s.version:  # the next prompt's wait starts now
        prompts = (replace(prompts[0], since=s.version), *prompts[1:])
    return {"prompts": prompts}


# --- guns ---------------------------------------------------------------------------------------
def _gun_taken(s: State, e: E.GunTaken) -> Changes:
    seats, centre = s.seats, s.guns_in_centre
    if e.from_seat is None:
        centre -= 1
    else:
        seats = _with(seats, e.from_seat, gun=False, aim=None)
    changes: Changes = {
        "seats": _with(seats, e.seat, gun=True, aim=e.aim),
        "guns_in_centre": centre,
    }
    if e.locked:
        changes["guns_locked"] = s.guns_locked | {e.seat}
    return changes


def _gun_aimed(s: State, e: E.GunAimed) -> Changes:
    return {"seats": _with(s.seats, e.seat, aim=e.target)}


def _gun_dropped(s: State, e: E.GunDropped) -> Changes:
    changes: Changes = {
        "seats": _with(s.seats, e.seat, gun=False, aim=None),
        "guns_in_centre": s.guns_in_centre + 1,
    }
    if e.barred:
        changes["arm_barred"] = e.seat
    return changes


def _arms_aimed(s: State, e: E.ArmsAimed) -> Changes:
    return {"seats": _with(s.seats, e.seat, arms_aim=e.target)}


# --- integrity cards ----------------------------------------------------------------------------
def _card_viewed(s: State, e: E.CardViewed) -> Changes:
    investigated = s.investigated
    if e.means in INVESTIGATIONS and e.card_id not in investigated:  # classic Camera (§7.2)
        investigated = (*investigated, e.card_id)
    return {
        "knowledge": _learn(s.knowledge, e.viewer, e.card_id, e.card),
        "seen": _saw(s.seen, e.card_id, e.viewer, e.means),
        "investigated": investigated,
    }


def _card_revealed(s: State, e: E.CardRevealed) -> Changes:
    face_up = list(s.seat(e.seat).face_up)
    face_up[e.position - 1] = True
    return {
        "seats": _with(s.seats, e.seat, face_up=tuple(face_up)),
        "public_cards": {**s.public_cards, e.card_id: e.card},
    }


def _cards_exchanged(s: State, e: E.CardsExchanged) -> Changes:
    (a, b), (pa, pb) = e.seats, e.positions
    ca, cb = e.card_ids
    sa, sb = s.seat(a), s.seat(b)
    cards_a, up_a = list(sa.cards), list(sa.face_up)
    cards_b, up_b = list(sb.cards), list(sb.face_up)
    cards_a[pa - 1], cards_b[pb - 1] = cb, ca
    up_a[pa - 1], up_b[pb - 1] = sb.face_up[pb - 1], sa.face_up[pa - 1]
    seats = _with(s.seats, a, cards=tuple(cards_a), face_up=tuple(up_a))
    seats = _with(seats, b, cards=tuple(cards_b), face_up=tuple(up_b))
    knowledge = _learn(_learn(s.knowledge, b, ca, e.cards[0]), a, cb, e.cards[1])
    # the seat that gave a card away keeps knowing it, wherever it goes (RULES §11)
    seen = _saw(_saw(s.seen, ca, a, "held"), cb, b, "held")
    return {"seats": seats, "knowledge": knowledge, "seen": seen}


# --- shots, wounds, elimination -----------------------------------------------------------------
def _by_the_action(s: State, seat: int, action: str) -> bool:
    d = s.declared
    return seat == s.turn_seat and d is not None and d.action == action


def _seat_shot(s: State, e: E.SeatShot) -> Changes:
    # RULES §8: the turn's shooter that shot a zombie keeps its gun and must re-aim
    if s.seat(e.target).zombie and _by_the_action(s, e.shooter, "shoot"):
        return {"reaim_from": e.target}
    return {}


def _shot_redirected(s: State, e: E.ShotRedirected) -> Changes:
    d = s.declared
    assert d is not None
    return {"declared": replace(d, forced_target=e.target)}


def _leader_wounded(s: State, e: E.LeaderWounded) -> Changes:
    if s.options.wounds == "card":  # the seat takes the Wounded card (RULES §4)
        return {"seats": _with(s.seats, e.seat, wounded=True)}
    return {"wounds": s.wounds | {e.card_id}}  # a token on the Leader card


def _wound_healed(s: State, e: E.WoundHealed) -> Changes:
    if s.options.wounds == "card":  # the Wounded card leaves the seat (Med Kit, RULES §4)
        return {"seats": _with(s.seats, e.seat, wounded=False)}
    return {"wounds": s.wounds - {e.card_id}}


def _seat_eliminated(s: State, e: E.SeatEliminated) -> Changes:
    st = s.seat(e.seat)
    return {
        "seats": _with(
            s.seats, e.seat, eliminated=True, gun=False, aim=None, hand=(), fallen_by=e.by
        ),
        "deck": s.deck + st.hand,
        "guns_in_centre": s.guns_in_centre + (1 if st.gun else 0),
        "prompts": tuple(p for p in s.prompts if p.seat != e.seat or p.kind != "discard"),
        "turn_fell": s.turn_fell or e.seat == s.turn_seat,
    }


def _seat_revived(s: State, e: E.SeatRevived) -> Changes:
    # classic: a revived seat no longer holds the Wounded card (it fell for lacking a Leader)
    return {"seats": _with(s.seats, e.seat, eliminated=False, fallen_by=None, wounded=False)}


def _seat_bitten(s: State, e: E.SeatBitten) -> Changes:
    # RULES §8: the biter keeps its Arms and must re-aim
    return {"reaim_from": e.target} if _by_the_action(s, e.biter, "bite") else {}


def _became_zombie(s: State, e: E.BecameZombie) -> Changes:
    st = s.seat(e.seat)
    return {
        "guns_in_centre": s.guns_in_centre + (1 if st.gun else 0),
        "arms_in_centre": s.arms_in_centre - 1,
        "guns_locked": s.guns_locked - {e.seat},
        "turn_fell": s.turn_fell or e.seat == s.turn_seat,
        "seats": _with(
            s.seats, e.seat, zombie=True, gun=False, aim=None, arms_aim=e.seat, wounded=False
        ),
    }


def _zombie_cured(s: State, e: E.ZombieCured) -> Changes:
    return {
        "arms_in_centre": s.arms_in_centre + 1,
        "seats": _with(s.seats, e.seat, zombie=False, arms_aim=None),
    }


def _cards_discarded(s: State, e: E.CardsDiscarded) -> Changes:
    st = s.seat(e.seat)
    keep = [p for p in range(len(st.cards)) if p + 1 not in e.positions]
    cards = tuple(st.cards[p] for p in keep)
    face_up = tuple(st.face_up[p] for p in keep)
    return {
        "seats": _with(s.seats, e.seat, cards=cards, face_up=face_up),
        "discarded": s.discarded + e.card_ids,
    }


def _cards_shuffled(s: State, e: E.CardsShuffled) -> Changes:
    st = s.seat(e.seat)
    cards = tuple(st.cards[p - 1] for p in e.positions)
    # nobody else can tell the cards apart any more (RULES §7.2 Flashbang), but for a card that
    # carries a Wounded token: everyone follows the token (RULES §4 "token"; flashbang.py)
    moved = set(cards) - s.wounds
    knowledge = tuple(
        k if i == e.seat or not moved & k.keys() else {c: v for c, v in k.items() if c not in moved}
        for i, k in enumerate(s.knowledge)
    )
    return {
        "seats": _with(s.seats, e.seat, cards=cards, face_up=(False,) * len(cards)),
        "knowledge": knowledge,
        "public_cards": {c: v for c, v in s.public_cards.items() if c not in moved},
        "seen": {c: v for c, v in s.seen.items() if c not in moved},
    }


# --- equipment ----------------------------------------------------------------------------------
def _hand_limit(
    s: State, seats: tuple[Seat | None, ...], seat: int, prompts: tuple[Prompt, ...]
) -> tuple[Prompt, ...]:
    """A seat over the hand limit must discard before anything else (RULES §6): the prompts with
    its discard first."""
    held = seats[seat]
    assert held is not None
    if len(held.hand) > 1 and not any(p.seat == seat and p.kind == "discard" for p in prompts):
        return (Prompt(seat=seat, kind="discard", since=s.version), *prompts)
    return prompts


def _equipment_drawn(s: State, e: E.EquipmentDrawn) -> Changes:
    seats = _with(s.seats, e.seat, hand=(*s.seat(e.seat).hand, e.card))
    changes: Changes = {
        "seats": seats,
        "prompts": _hand_limit(s, seats, e.seat, s.prompts),
        "deck": s.deck[1:],
    }
    d = s.declared
    if d is not None and d.action == "equip" and not d.drawn and e.seat == s.turn_seat:
        changes["declared"] = replace(d, drawn=True)
    return changes


def _without(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


def _equipment_discarded(s: State, e: E.EquipmentDiscarded) -> Changes:
    return {
        "seats": _with(s.seats, e.seat, hand=_without(s.seat(e.seat).hand, e.card)),
        "deck": (*s.deck, e.card),
    }


def _equipment_played(s: State, e: E.EquipmentPlayed) -> Changes:
    seats = _with(s.seats, e.seat, hand=_without(s.seat(e.seat).hand, e.card))
    changes: Changes = {}
    if e.placed_on is not None:
        on = seats[e.placed_on]
        assert on is not None
        seats = _with(seats, e.placed_on, in_play=(*on.in_play, e.card))
    else:
        changes["deck"] = (*s.deck, e.card)
    changes["seats"] = seats
    w = s.window
    if w is not None and s.step == WINDOW:
        changes["window"] = replace(w, pending=frozenset(), plays=w.plays + 1, reask=True)
        d = s.declared
        if d is not None:
            changes["declared"] = replace(d, reacted=True)
    return changes


def _equipment_moved(s: State, e: E.EquipmentMoved) -> Changes:
    giver, receiver = s.seat(e.from_seat), s.seat(e.to_seat)
    if e.in_play:
        seats = _with(s.seats, e.from_seat, in_play=_without(giver.in_play, e.card))
        return {"seats": _with(seats, e.to_seat, in_play=(*receiver.in_play, e.card))}
    seats = _with(s.seats, e.from_seat, hand=_without(giver.hand, e.card))
    seats = _with(seats, e.to_seat, hand=(*receiver.hand, e.card))
    return {"seats": seats, "prompts": _hand_limit(s, seats, e.to_seat, s.prompts)}


def _equipment_returned(s: State, e: E.EquipmentReturned) -> Changes:
    i = len(s.deck) - 1 - s.deck[::-1].index(e.card)
    seats = _with(s.seats, e.seat, hand=(*s.seat(e.seat).hand, e.card))
    return {
        "deck": s.deck[:i] + s.deck[i + 1 :],
        "seats": seats,
        "prompts": _hand_limit(s, seats, e.seat, s.prompts),
    }


def _alarm_set(s: State, e: E.AlarmSet) -> Changes:
    by = e.by
    if by is None:  # a log written before AlarmSet named its setter: the card played just before
        played = s.log.tail(1)
        by = played[0].seat if played and isinstance(played[0], E.EquipmentPlayed) else -1
    return {"alarms": (*s.alarms, (e.seat, e.turn, by))}


def _alarm_rang(s: State, e: E.AlarmRang) -> Changes:
    # an alarm set on the seat during this very turn waits for its next turn (unless it is out)
    later = not s.seat(e.seat).eliminated
    keep = tuple(a for a in s.alarms if a[0] != e.seat or (later and a[1] >= s.turn_number))
    return {"alarms": keep}


def _turn_order_reversed(s: State, e: E.TurnOrderReversed) -> Changes:
    return {"reverse_pending": not s.reverse_pending}


def _next_turn_claimed(s: State, e: E.NextTurnClaimed) -> Changes:
    return {"coffee_seat": e.seat}


# --- deadlines, absence, preferences, talk ------------------------------------------------------
def _autopilot_acted(s: State, e: E.AutopilotActed) -> Changes:
    changes: Changes = {"rng_draws": s.rng_draws + 1}
    if e.missed:
        changes["seats"] = _with(s.seats, e.seat, missed=s.seat(e.seat).missed + 1)
    return changes


def _not_pending(s: State, seat: int, changes: Changes) -> Changes:
    """A seat that no longer answers windows (away, or passing automatically) is not waited for."""
    w = s.window
    if w is not None and seat in w.pending:
        changes["window"] = replace(w, pending=w.pending - {seat})
    return changes


def _seat_absent(s: State, e: E.SeatAbsent) -> Changes:
    return _not_pending(s, e.seat, {"seats": _with(s.seats, e.seat, absent=True)})


def _seat_returned(s: State, e: E.SeatReturned) -> Changes:
    return {"seats": _with(s.seats, e.seat, absent=False, missed=0)}


def _miss_streak_ended(s: State, e: E.MissStreakEnded) -> Changes:
    return {"seats": _with(s.seats, e.seat, missed=0)}


def _auto_pass_set(s: State, e: E.AutoPassSet) -> Changes:
    changes: Changes = {"seats": _with(s.seats, e.seat, auto_pass=e.enabled)}
    return _not_pending(s, e.seat, changes) if e.enabled else changes


def _chat_posted(s: State, e: E.ChatPosted) -> Changes:
    return {"chat": s.chat.append((e.seat, e.text))}


# --- the end ------------------------------------------------------------------------------------
def _game_won(s: State, e: E.GameWon) -> Changes:
    return {
        "step": FINISHED,
        "winners": e.winners,
        "win_team": e.team,
        "win_reason": e.reason,
        "window": None,
        "prompts": (),
    }


def _all_revealed(s: State, e: E.AllRevealed) -> Changes:
    return {"public_cards": {c: e.identities[c] for c in range(len(e.identities))}}


_HANDLERS: dict[type, Callable[[State, Any], Changes]] = {
    E.TableOpened: _table_opened,
    E.SeatTaken: _seat_taken,
    E.SeatLeft: _seat_left,
    E.TableClosed: _table_closed,
    E.GameStarted: _game_started,
    E.CardsDealt: _cards_dealt,
    E.CardsArranged: _cards_arranged,
    E.ArrangementClosed: _arrangement_closed,
    E.TurnBegan: _turn_began,
    E.ActionDeclared: _action_declared,
    E.ActionCancelled: _action_cancelled,
    E.ActionResolved: _action_resolved,
    E.AimRequested: _aim_requested,
    E.WindowOpened: _window_opened,
    E.WindowReopened: _window_opened,
    E.ReactionPassed: _reaction_passed,
    E.WindowClosed: _window_closed,
    E.PromptOpened: _prompt_opened,
    E.PromptAnswered: _prompt_answered,
    E.GunTaken: _gun_taken,
    E.GunAimed: _gun_aimed,
    E.GunDropped: _gun_dropped,
    E.ArmsAimed: _arms_aimed,
    E.CardViewed: _card_viewed,
    E.CardRevealed: _card_revealed,
    E.CardsExchanged: _cards_exchanged,
    E.SeatShot: _seat_shot,
    E.ShotRedirected: _shot_redirected,
    E.LeaderWounded: _leader_wounded,
    E.WoundHealed: _wound_healed,
    E.SeatEliminated: _seat_eliminated,
    E.SeatRevived: _seat_revived,
    E.SeatBitten: _seat_bitten,
    E.BecameZombie: _became_zombie,
    E.ZombieCured: _zombie_cured,
    E.CardsDiscarded: _cards_discarded,
    E.CardsShuffled: _cards_shuffled,
    E.EquipmentDrawn: _equipment_drawn,
    E.EquipmentDiscarded: _equipment_discarded,
    E.EquipmentPlayed: _equipment_played,
    E.EquipmentMoved: _equipment_moved,
    E.EquipmentReturned: _equipment_returned,
    E.AlarmSet: _alarm_set,
    E.AlarmRang: _alarm_rang,
    E.TurnOrderReversed: _turn_order_reversed,
    E.NextTurnClaimed: _next_turn_claimed,
    E.AutopilotActed: _autopilot_acted,
    E.SeatAbsent: _seat_absent,
    E.SeatReturned: _seat_returned,
    E.MissStreakEnded: _miss_streak_ended,
    E.AutoPassSet: _auto_pass_set,
    E.ChatPosted: _chat_posted,
    E.GameWon: _game_won,
    E.AllRevealed: _all_revealed,
}

assert set(_HANDLERS) == set(E.AnyEvent.__args__), "evolve must be total over every event"


def evolve(state: State, event: Any) -> State:
    """The state after ``event``: its changes, the version and the log, in one step."""
    changes = _HANDLERS[type(event)](state, event)
    seen_by = type(event).seen_by
    if seen_by is not None:
        # seen by one seat only: every other seat and the public count one more event unseen
        owner = getattr(event, seen_by.fields[0])
        changes["unseen"] = tuple(map(add, state.unseen, _others(len(state.unseen), owner)))
    return replace(state, version=state.version + 1, log=state.log.append(event), **changes)


@cache
def _others(count: int, owner: int) -> tuple[int, ...]:
    """1 for each of ``count`` viewers but ``owner``, 0 for it."""
    return tuple(int(i != owner) for i in range(count))


def peek(s: State, events: Any) -> State:
    """The state after ``events`` for a look-ahead inside a decision: not logged (so the shared
    log is never branched), version unchanged."""
    for e in events:
        s = replace(s, **_HANDLERS[type(e)](s, e))
    return s


def fold(events: Any, state: State | None = None) -> State:
    s = state if state is not None else initial_state()
    for e in events:
        s = evolve(s, e)
    return s
