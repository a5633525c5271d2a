"""The integrity cards' events: viewed, revealed, exchanged, discarded, shuffled."""

from __future__ import annotations

from msgspec.structs import replace

from gcbc.rules.effects import INVESTIGATIONS
from gcbc.rules.evolve.base import Handler, put
from gcbc.rules.state import State, Trail
from gcbc_contract import events as E


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
        seats=put(s.seats, e.seat, replace(st, face_up=tuple(face_up))),
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
    seats = put(s.seats, a, replace(sa, cards=tuple(cards_a), face_up=tuple(up_a)))
    seats = put(seats, b, replace(sb, cards=tuple(cards_b), face_up=tuple(up_b)))
    knowledge = _learn(_learn(s.knowledge, b, ca, e.cards[0]), a, cb, e.cards[1])
    # the seat that gave a card away keeps knowing it, wherever it goes (RULES §11)
    seen = _saw(_saw(s.seen, ca, a, "held"), cb, b, "held")
    return replace(s, version=v, log=log, seats=seats, knowledge=knowledge, seen=seen)


def _cards_discarded(s: State, e: E.CardsDiscarded, v: int, log: Trail) -> State:
    st = s.seats[e.seat]
    keep = [p for p in range(len(st.cards)) if p + 1 not in e.positions]
    cards = tuple(st.cards[p] for p in keep)
    face_up = tuple(st.face_up[p] for p in keep)
    return replace(
        s,
        version=v,
        log=log,
        seats=put(s.seats, e.seat, replace(st, cards=cards, face_up=face_up)),
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
        seats=put(s.seats, e.seat, shuffled),
        knowledge=knowledge,
        public_cards={c: x for c, x in s.public_cards.items() if c not in moved},
        seen={c: x for c, x in s.seen.items() if c not in moved},
    )


# the integrity cards' events -> their handlers
HANDLERS: dict[type, Handler] = {
    E.CardViewed: _card_viewed,
    E.CardRevealed: _card_revealed,
    E.CardsExchanged: _cards_exchanged,
    E.CardsDiscarded: _cards_discarded,
    E.CardsShuffled: _cards_shuffled,
}
