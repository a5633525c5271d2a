"""evolve(state, event) -> state: total over every event, pure, no decisions taken here.

Each event's handler returns the next state in one ``replace``, given the version ``v`` and the
log ``log`` it is to carry: every field an event changes is a keyword of that one call.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import add
from typing import Any

from msgspec.structs import replace

from gcbc.rules.effects import INVESTIGATIONS
from gcbc.rules.equipment.registry import CARDS
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
    Trail,
    TurnMarks,
    Window,
    house_bot_name,
    initial_state,
)
from gcbc_contract import events as E
from gcbc_contract.cards import AGENT, KINGPIN, MAX_SEATS

Seats = tuple[Seat | None, ...]


def _put(seats: Seats, i: int, seat: Seat) -> Seats:
    """``seats`` with seat ``i`` replaced by ``seat``."""
    out = list(seats)
    out[i] = seat
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
def _table_opened(s: State, e: E.TableOpened, v: int, log: Trail) -> State:
    return replace(
        s,
        version=v,
        log=log,
        setup=replace(
            s.setup,
            table_id=e.table_id,
            seat_count=e.seats,
            options=e.options.with_defaults(),  # older logs: the edition's wounds (RULES §4)
            deadlines=e.deadlines,
            deal=e.deal,
            first_seat_choice=e.first_seat,
            requested_seed=e.random_seed,
            chat_per_seat=e.chat_per_seat,
            house_bots=e.bots,
            rematch_of=e.rematch_of,
        ),
        held=frozenset(e.held),
        # the house's seats are taken as the table opens; players take the others
        seats=tuple(
            Seat(name=house_bot_name(i)) if e.bots and i in e.bots.seats else None
            for i in range(e.seats)
        ),
        unseen=(0,) * (e.seats + 1),
    )


def _seat_taken(s: State, e: E.SeatTaken, v: int, log: Trail) -> State:
    seats = _put(s.seats, e.seat, Seat(name=e.name))
    if e.seat in s.held:  # its player came back for the rematch
        return replace(s, version=v, log=log, seats=seats, held=s.held - {e.seat})
    return replace(s, version=v, log=log, seats=seats)


def _seat_left(s: State, e: E.SeatLeft, v: int, log: Trail) -> State:
    seats = list(s.seats)
    seats[e.seat] = None
    return replace(s, version=v, log=log, seats=tuple(seats))


def _table_closed(s: State, e: E.TableClosed, v: int, log: Trail) -> State:
    reason = f"closed: {e.reason}"
    outcome = replace(s.outcome, winners=(), win_reason=reason)
    return replace(s, version=v, log=log, step=FINISHED, outcome=outcome)


def _game_started(s: State, e: E.GameStarted, v: int, log: Trail) -> State:
    setup = replace(s.setup, random_seed=e.random_seed)
    return replace(s, version=v, log=log, setup=setup, turn_seat=e.first_seat)


def _cards_dealt(s: State, e: E.CardsDealt, v: int, log: Trail) -> State:
    seats = []
    knowledge = []
    for i, st in enumerate(s.seats):
        cards = e.hands[i]
        seats.append(replace(st, cards=cards, face_up=(False,) * len(cards), hand=e.equipment[i]))
        knowledge.append({c: e.identities[c] for c in cards})
    return replace(
        s,
        version=v,
        log=log,
        seats=tuple(seats),
        knowledge=tuple(knowledge),
        setup=replace(
            s.setup,
            identities=e.identities,
            leader_ids=(e.identities.index(AGENT), e.identities.index(KINGPIN)),
            burned=e.burned,
        ),
        deck=e.deck,
        guns_in_centre=guns(s.setup.options, len(seats)),
        arms_in_centre=arms(s.setup.options, len(seats)),
        step=ARRANGE,
        arrange_since=s.version,
    )


def _cards_arranged(s: State, e: E.CardsArranged, v: int, log: Trail) -> State:
    st = s.seats[e.seat]
    cards = tuple(st.cards[p - 1] for p in e.positions)
    face_up = tuple(st.face_up[p - 1] for p in e.positions)
    missed = st.missed + 1 if e.missed else st.missed
    arranged = replace(st, cards=cards, face_up=face_up, arranged=True, missed=missed)
    return replace(s, version=v, log=log, seats=_put(s.seats, e.seat, arranged))


def _arrangement_closed(s: State, e: E.ArrangementClosed, v: int, log: Trail) -> State:
    return replace(s, version=v, log=log)


# --- turns, windows, prompts --------------------------------------------------------------------
def _turn_began(s: State, e: E.TurnBegan, v: int, log: Trail) -> State:
    marks = TurnMarks(direction=e.direction)  # none of the last turn's marks
    if e.turn == 1:
        # RULES §7.1: a Coffee or Smoke Grenade played before the first turn acts in it
        m = s.marks
        marks = replace(marks, coffee_seat=m.coffee_seat, reverse_pending=m.reverse_pending)
    return replace(
        s,
        version=v,
        log=log,
        step=ACTION,
        turn_seat=e.seat,
        turn_number=e.turn,
        marks=marks,
        guns_locked=frozenset(),
        investigated=(),
        declared=None,
        turn_since=s.version,
    )


def _action_declared(s: State, e: E.ActionDeclared, v: int, log: Trail) -> State:
    declared = Declared(action=e.action, target=e.target, position=e.position)
    # a shot that stands resolves at once: its window was held already (RULES §6)
    step = RESOLVE if e.stands else DECLARED
    if s.marks.standing is not None:  # a shot declared again: it no longer stands by itself
        marks = replace(s.marks, standing=None)
        return replace(s, version=v, log=log, step=step, declared=declared, marks=marks)
    return replace(s, version=v, log=log, step=step, declared=declared)


def _action_cancelled(s: State, e: E.ActionCancelled, v: int, log: Trail) -> State:
    # the seat chooses again, with a fresh deadline; a reconsidered shot stands if it lets the
    # deadline pass (RULES §6)
    marks = replace(s.marks, standing=s.declared if e.reason == "reconsider" else None)
    return replace(
        s, version=v, log=log, step=ACTION, declared=None, marks=marks, turn_since=s.version
    )


def _action_resolved(s: State, e: E.ActionResolved, v: int, log: Trail) -> State:
    return replace(s, version=v, log=log, step=AFTER_ACTION, declared=None)


def _aim_requested(s: State, e: E.AimRequested, v: int, log: Trail) -> State:
    return replace(s, version=v, log=log, step=AIM, aim_since=s.version)


def _window_opened(s: State, e: E.WindowOpened | E.WindowReopened, v: int, log: Trail) -> State:
    seats = s.seats
    pending = tuple(sorted({i for i in e.asked if not seats[i].auto_pass and not seats[i].absent}))
    plays = s.window.plays if s.window is not None and s.window.kind == e.kind else 0
    # holders asked once investigations resolved: this asking, and no later one, is "right after"
    # them (RULES §7.2)
    window = Window(
        kind=e.kind,
        asked=e.asked,
        pending=pending,
        since=s.version,
        plays=plays,
        after_investigation=s.investigated,
    )
    if s.investigated:
        return replace(s, version=v, log=log, step=WINDOW, window=window, investigated=())
    return replace(s, version=v, log=log, step=WINDOW, window=window)


def _reaction_passed(s: State, e: E.ReactionPassed, v: int, log: Trail) -> State:
    w = s.window
    assert w is not None
    window = replace(w, pending=_less(w.pending, e.seat))
    if e.missed:  # a window's deadline counts towards the three in a row (RULES §10)
        st = s.seats[e.seat]
        seats = _put(s.seats, e.seat, replace(st, missed=st.missed + 1))
        return replace(s, version=v, log=log, window=window, seats=seats)
    return replace(s, version=v, log=log, window=window)


def _less(seats: tuple[int, ...], seat: int) -> tuple[int, ...]:
    """``seats`` without ``seat``."""
    if seat not in seats:
        return seats
    i = seats.index(seat)
    return seats[:i] + seats[i + 1 :]


_AFTER_WINDOW = {"start_of_game": TURN_START, "end_of_turn": TURN_END}


def _window_closed(s: State, e: E.WindowClosed, v: int, log: Trail) -> State:
    step = _AFTER_WINDOW.get(e.kind, RESOLVE)
    return replace(s, version=v, log=log, step=step, window=None)


def _prompt_opened(s: State, e: E.PromptOpened, v: int, log: Trail) -> State:
    prompt = Prompt(seat=e.seat, kind=e.kind, options=e.options, about=e.about, since=s.version)
    return replace(s, version=v, log=log, prompts=(*s.prompts, prompt))


def _prompt_answered(s: State, e: E.PromptAnswered, v: int, log: Trail) -> State:
    prompts = s.prompts[1:]
    if prompts and prompts[0].since < s.version:  # the next prompt's wait starts now
        prompts = (replace(prompts[0], since=s.version), *prompts[1:])
    return replace(s, version=v, log=log, prompts=prompts)


# --- guns ---------------------------------------------------------------------------------------
def _gun_taken(s: State, e: E.GunTaken, v: int, log: Trail) -> State:
    seats, centre = s.seats, s.guns_in_centre
    if e.from_seat is None:
        centre -= 1
    else:
        seats = _put(seats, e.from_seat, replace(seats[e.from_seat], gun=False, aim=None))
    seats = _put(seats, e.seat, replace(seats[e.seat], gun=True, aim=e.aim))
    locked = s.guns_locked | {e.seat} if e.locked else s.guns_locked
    return replace(s, version=v, log=log, seats=seats, guns_in_centre=centre, guns_locked=locked)


def _gun_aimed(s: State, e: E.GunAimed, v: int, log: Trail) -> State:
    seats = _put(s.seats, e.seat, replace(s.seats[e.seat], aim=e.target))
    return replace(s, version=v, log=log, seats=seats)


def _gun_dropped(s: State, e: E.GunDropped, v: int, log: Trail) -> State:
    seats = _put(s.seats, e.seat, replace(s.seats[e.seat], gun=False, aim=None))
    marks = replace(s.marks, arm_barred=e.seat) if e.barred else s.marks
    return replace(
        s,
        version=v,
        log=log,
        seats=seats,
        guns_in_centre=s.guns_in_centre + 1,
        marks=marks,
    )


def _arms_aimed(s: State, e: E.ArmsAimed, v: int, log: Trail) -> State:
    seats = _put(s.seats, e.seat, replace(s.seats[e.seat], arms_aim=e.target))
    return replace(s, version=v, log=log, seats=seats)


# --- integrity cards ----------------------------------------------------------------------------
def _card_viewed(s: State, e: E.CardViewed, v: int, log: Trail) -> State:
    investigated = s.investigated
    if e.means in INVESTIGATIONS and e.card_id not in investigated:  # classic Camera (§7.2)
        investigated = (*investigated, e.card_id)
    return replace(
        s,
        version=v,
        log=log,
        knowledge=_learn(s.knowledge, e.viewer, e.card_id, e.card),
        seen=_saw(s.seen, e.card_id, e.viewer, e.means),
        investigated=investigated,
    )


def _card_revealed(s: State, e: E.CardRevealed, v: int, log: Trail) -> State:
    st = s.seats[e.seat]
    face_up = list(st.face_up)
    face_up[e.position - 1] = True
    return replace(
        s,
        version=v,
        log=log,
        seats=_put(s.seats, e.seat, replace(st, face_up=tuple(face_up))),
        public_cards={**s.public_cards, e.card_id: e.card},
    )


def _cards_exchanged(s: State, e: E.CardsExchanged, v: int, log: Trail) -> State:
    (a, b), (pa, pb) = e.seats, e.positions
    ca, cb = e.card_ids
    sa, sb = s.seats[a], s.seats[b]
    cards_a, up_a = list(sa.cards), list(sa.face_up)
    cards_b, up_b = list(sb.cards), list(sb.face_up)
    cards_a[pa - 1], cards_b[pb - 1] = cb, ca
    up_a[pa - 1], up_b[pb - 1] = sb.face_up[pb - 1], sa.face_up[pa - 1]
    seats = _put(s.seats, a, replace(sa, cards=tuple(cards_a), face_up=tuple(up_a)))
    seats = _put(seats, b, replace(sb, cards=tuple(cards_b), face_up=tuple(up_b)))
    knowledge = _learn(_learn(s.knowledge, b, ca, e.cards[0]), a, cb, e.cards[1])
    # the seat that gave a card away keeps knowing it, wherever it goes (RULES §11)
    seen = _saw(_saw(s.seen, ca, a, "held"), cb, b, "held")
    return replace(s, version=v, log=log, seats=seats, knowledge=knowledge, seen=seen)


# --- shots, wounds, elimination -----------------------------------------------------------------
def _by_the_action(s: State, seat: int, action: str) -> bool:
    d = s.declared
    return seat == s.turn_seat and d is not None and d.action == action


def _seat_shot(s: State, e: E.SeatShot, v: int, log: Trail) -> State:
    # RULES §8: the turn's shooter that shot a zombie keeps its gun and must re-aim
    if s.seats[e.target].zombie and _by_the_action(s, e.shooter, "shoot"):
        return replace(s, version=v, log=log, marks=replace(s.marks, reaim_from=e.target))
    return replace(s, version=v, log=log)


def _shot_redirected(s: State, e: E.ShotRedirected, v: int, log: Trail) -> State:
    d = s.declared
    assert d is not None
    return replace(s, version=v, log=log, declared=replace(d, forced_target=e.target))


def _leader_wounded(s: State, e: E.LeaderWounded, v: int, log: Trail) -> State:
    if s.setup.options.wounds == "card":  # the seat takes the Wounded card (RULES §4)
        seats = _put(s.seats, e.seat, replace(s.seats[e.seat], wounded=True))
        return replace(s, version=v, log=log, seats=seats)
    return replace(s, version=v, log=log, wounds=s.wounds | {e.card_id})  # a token on the card


def _wound_healed(s: State, e: E.WoundHealed, v: int, log: Trail) -> State:
    if s.setup.options.wounds == "card":  # the Wounded card leaves the seat (Med Kit, RULES §4)
        seats = _put(s.seats, e.seat, replace(s.seats[e.seat], wounded=False))
        return replace(s, version=v, log=log, seats=seats)
    return replace(s, version=v, log=log, wounds=s.wounds - {e.card_id})


def _fell(s: State, seat: int) -> TurnMarks:
    """The turn's marks once ``seat`` is eliminated or made a zombie: the turn's seat fell?"""
    m = s.marks
    return m if m.turn_fell or seat != s.turn_seat else replace(m, turn_fell=True)


def _seat_eliminated(s: State, e: E.SeatEliminated, v: int, log: Trail) -> State:
    # RULES §4: its equipment goes to the bottom of the deck, and so do its cards in play but
    # Planted Evidence, which still flips the team it wins with
    st = s.seats[e.seat]
    stays = tuple(c for c in st.in_play if CARDS[c].flips_majority)
    leaves = tuple(c for c in st.in_play if not CARDS[c].flips_majority)
    fallen = replace(
        st, eliminated=True, gun=False, aim=None, hand=(), in_play=stays, fallen_by=e.by
    )
    marks = _fell(s, e.seat)
    if marks.coffee_seat == e.seat:
        # RULES §7.1: a Coffee whose player is eliminated before the turn ends does nothing,
        # even if it is brought back before then
        marks = replace(marks, coffee_seat=None)
    return replace(
        s,
        version=v,
        log=log,
        seats=_put(s.seats, e.seat, fallen),
        deck=s.deck + st.hand + leaves,
        guns_in_centre=s.guns_in_centre + (1 if st.gun else 0),
        prompts=tuple(p for p in s.prompts if p.seat != e.seat or p.kind != "discard"),
        marks=marks,
    )


def _seat_revived(s: State, e: E.SeatRevived, v: int, log: Trail) -> State:
    # RULES §4: a revived seat gives its Wounded card back (wounds "card": it fell for lacking a
    # Leader card, and would fall again at once)
    revived = replace(s.seats[e.seat], eliminated=False, fallen_by=None, wounded=False)
    return replace(s, version=v, log=log, seats=_put(s.seats, e.seat, revived))


def _seat_bitten(s: State, e: E.SeatBitten, v: int, log: Trail) -> State:
    # RULES §8: the biter keeps its Arms and must re-aim
    if _by_the_action(s, e.biter, "bite"):
        return replace(s, version=v, log=log, marks=replace(s.marks, reaim_from=e.target))
    return replace(s, version=v, log=log)


def _became_zombie(s: State, e: E.BecameZombie, v: int, log: Trail) -> State:
    st = s.seats[e.seat]
    zombie = replace(st, zombie=True, gun=False, aim=None, arms_aim=e.seat, wounded=False)
    return replace(
        s,
        version=v,
        log=log,
        guns_in_centre=s.guns_in_centre + (1 if st.gun else 0),
        arms_in_centre=s.arms_in_centre - 1,
        guns_locked=s.guns_locked - {e.seat},
        marks=_fell(s, e.seat),
        seats=_put(s.seats, e.seat, zombie),
    )


def _zombie_cured(s: State, e: E.ZombieCured, v: int, log: Trail) -> State:
    cured = replace(s.seats[e.seat], zombie=False, arms_aim=None)
    return replace(
        s,
        version=v,
        log=log,
        arms_in_centre=s.arms_in_centre + 1,
        seats=_put(s.seats, e.seat, cured),
    )


def _cards_discarded(s: State, e: E.CardsDiscarded, v: int, log: Trail) -> State:
    st = s.seats[e.seat]
    keep = [p for p in range(len(st.cards)) if p + 1 not in e.positions]
    cards = tuple(st.cards[p] for p in keep)
    face_up = tuple(st.face_up[p] for p in keep)
    return replace(
        s,
        version=v,
        log=log,
        seats=_put(s.seats, e.seat, replace(st, cards=cards, face_up=face_up)),
        discarded=s.discarded + e.card_ids,
    )


def _cards_shuffled(s: State, e: E.CardsShuffled, v: int, log: Trail) -> State:
    st = s.seats[e.seat]
    cards = tuple(st.cards[p - 1] for p in e.positions)
    # nobody else can tell the cards apart any more (RULES §7.2 Flashbang), but for a card that
    # carries a Wounded token: everyone follows the token (RULES §4 "token"; flashbang.py)
    moved = set(cards) - s.wounds
    knowledge = tuple(
        k if i == e.seat or not moved & k.keys() else {c: x for c, x in k.items() if c not in moved}
        for i, k in enumerate(s.knowledge)
    )
    shuffled = replace(st, cards=cards, face_up=(False,) * len(cards))
    return replace(
        s,
        version=v,
        log=log,
        seats=_put(s.seats, e.seat, shuffled),
        knowledge=knowledge,
        public_cards={c: x for c, x in s.public_cards.items() if c not in moved},
        seen={c: x for c, x in s.seen.items() if c not in moved},
    )


# --- equipment ----------------------------------------------------------------------------------
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
    seats = _put(s.seats, e.seat, replace(st, hand=(*st.hand, e.card)))
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
        seats=_put(s.seats, e.seat, replace(st, hand=_without(st.hand, e.card))),
        deck=(*s.deck, e.card),
    )


def _equipment_played(s: State, e: E.EquipmentPlayed, v: int, log: Trail) -> State:
    st = s.seats[e.seat]
    seats = _put(s.seats, e.seat, replace(st, hand=_without(st.hand, e.card)))
    deck = s.deck
    if e.placed_on is not None:
        on = seats[e.placed_on]
        assert on is not None
        seats = _put(seats, e.placed_on, replace(on, in_play=(*on.in_play, e.card)))
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
        seats = _put(s.seats, e.from_seat, replace(giver, in_play=_without(giver.in_play, e.card)))
        seats = _put(seats, e.to_seat, replace(receiver, in_play=(*receiver.in_play, e.card)))
        return replace(s, version=v, log=log, seats=seats)
    seats = _put(s.seats, e.from_seat, replace(giver, hand=_without(giver.hand, e.card)))
    seats = _put(seats, e.to_seat, replace(receiver, hand=(*receiver.hand, e.card)))
    prompts = _hand_limit(s, seats, e.to_seat, s.prompts)
    return replace(s, version=v, log=log, seats=seats, prompts=prompts)


def _equipment_returned(s: State, e: E.EquipmentReturned, v: int, log: Trail) -> State:
    i = len(s.deck) - 1 - s.deck[::-1].index(e.card)
    st = s.seats[e.seat]
    seats = _put(s.seats, e.seat, replace(st, hand=(*st.hand, e.card)))
    return replace(
        s,
        version=v,
        log=log,
        deck=s.deck[:i] + s.deck[i + 1 :],
        seats=seats,
        prompts=_hand_limit(s, seats, e.seat, s.prompts),
    )


def _alarm_set(s: State, e: E.AlarmSet, v: int, log: Trail) -> State:
    by = e.by
    if by is None:  # a log written before AlarmSet named its setter: the card played just before
        played = s.log.tail(1)
        by = played[0].seat if played and isinstance(played[0], E.EquipmentPlayed) else -1
    return replace(s, version=v, log=log, alarms=(*s.alarms, (e.seat, e.turn, by)))


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


# --- deadlines, absence, preferences, talk ------------------------------------------------------
def _autopilot_acted(s: State, e: E.AutopilotActed, v: int, log: Trail) -> State:
    draws = s.rng_draws + 1
    if e.missed:
        st = s.seats[e.seat]
        seats = _put(s.seats, e.seat, replace(st, missed=st.missed + 1))
        return replace(s, version=v, log=log, rng_draws=draws, seats=seats)
    return replace(s, version=v, log=log, rng_draws=draws)


def _not_pending(w: Window | None, seat: int) -> Window | None:
    """The window without ``seat``: a seat that no longer answers windows (away, or passing
    automatically) is not waited for."""
    if w is not None and seat in w.pending:
        return replace(w, pending=_less(w.pending, seat))
    return w


def _seat_absent(s: State, e: E.SeatAbsent, v: int, log: Trail) -> State:
    seats = _put(s.seats, e.seat, replace(s.seats[e.seat], absent=True))
    return replace(s, version=v, log=log, seats=seats, window=_not_pending(s.window, e.seat))


def _seat_returned(s: State, e: E.SeatReturned, v: int, log: Trail) -> State:
    seats = _put(s.seats, e.seat, replace(s.seats[e.seat], absent=False, missed=0))
    return replace(s, version=v, log=log, seats=seats)


def _miss_streak_ended(s: State, e: E.MissStreakEnded, v: int, log: Trail) -> State:
    seats = _put(s.seats, e.seat, replace(s.seats[e.seat], missed=0))
    return replace(s, version=v, log=log, seats=seats)


def _auto_pass_set(s: State, e: E.AutoPassSet, v: int, log: Trail) -> State:
    seats = _put(s.seats, e.seat, replace(s.seats[e.seat], auto_pass=e.enabled))
    window = _not_pending(s.window, e.seat) if e.enabled else s.window
    return replace(s, version=v, log=log, seats=seats, window=window)


def _chat_posted(s: State, e: E.ChatPosted, v: int, log: Trail) -> State:
    return replace(s, version=v, log=log, chat=s.chat.append((e.seat, e.text)))


# --- the end ------------------------------------------------------------------------------------
def _game_won(s: State, e: E.GameWon, v: int, log: Trail) -> State:
    return replace(
        s,
        version=v,
        log=log,
        step=FINISHED,
        outcome=replace(s.outcome, winners=e.winners, win_team=e.team, win_reason=e.reason),
        window=None,
        prompts=(),
    )


def _all_revealed(s: State, e: E.AllRevealed, v: int, log: Trail) -> State:
    public = {c: e.identities[c] for c in range(len(e.identities))}
    return replace(s, version=v, log=log, public_cards=public)


# one per event: (state, event, the version after it, the log with it) -> the next state
Handler = Callable[[State, Any, int, Trail], State]
_HANDLERS: dict[type, Handler] = {
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


def _seen_only_by(event: type) -> str | None:
    """The field of ``event`` naming the one seat that sees it happen (None: seen by all)."""
    return None if event.seen_by is None else event.seen_by.fields[0]


def seen_only_by(event: Any) -> int | None:
    """The one seat that sees ``event`` happen (None: every viewer sees it)."""
    field = _seen_only_by(type(event))
    return None if field is None else getattr(event, field)


# UNSEEN_BY_OTHERS[count][owner]: 1 for each of ``count`` viewers (the seats, then the public)
# but ``owner``, 0 for it: what an event only ``owner`` sees adds to the unseen counts
UNSEEN_BY_OTHERS = tuple(
    tuple(tuple(int(i != owner) for i in range(count)) for owner in range(count))
    for count in range(MAX_SEATS + 2)
)


def _unseen_by_others(handler: Handler, field: str) -> Handler:
    """``handler`` of an event only the seat in its ``field`` sees: every other seat and the
    public count one more event unseen."""

    def fold_private(s: State, e: Any, v: int, log: Trail) -> State:
        others = UNSEEN_BY_OTHERS[len(s.unseen)][getattr(e, field)]
        return replace(handler(s, e, v, log), unseen=tuple(map(add, s.unseen, others)))

    return fold_private


# event type -> how it is folded: its handler, and for an event one seat only sees, the counts of
# the events the others have not seen
_FOLDS: dict[type, Handler] = {
    t: handler if _seen_only_by(t) is None else _unseen_by_others(handler, _seen_only_by(t))
    for t, handler in _HANDLERS.items()
}


def evolve(s: State, event: Any) -> State:
    """The state after ``event``: its changes, the version and the log."""
    return _FOLDS[type(event)](s, event, s.version + 1, s.log.append(event))


def peek(s: State, events: Any) -> State:
    """The state after ``events`` for a look-ahead inside a decision: not logged (so the shared
    log is never branched), version unchanged."""
    for e in events:
        s = _HANDLERS[type(e)](s, e, s.version, s.log)
    return s


def fold(
    events: Any, state: State | None = None, observe: Callable[[State], None] | None = None
) -> State:
    """The state after ``events``, each folded by ``evolve``; ``observe`` is called with the state
    after each."""
    s = state if state is not None else initial_state()
    for event in events:
        s = evolve(s, event)
        if observe is not None:
            observe(s)
    return s
