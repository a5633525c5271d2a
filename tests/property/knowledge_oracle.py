"""An independent knowledge oracle (RULES §11), for the no-leak properties.

It reads nothing of the engine but the event classes: fed the event stream of a table, it tracks
every integrity card (its true identity, where it lies, whether it is face up, which seats have
learned it) and every seat's equipment, and says what each seat, or the public, may know.

- A seat learns a card when it is dealt or receives it (CardsDealt, CardsExchanged: cards[0] is
  learned by seats[1], cards[1] by seats[0]), or views it (CardViewed: the viewer).
- Everyone learns a card turned face up (CardRevealed), and everything at the end (AllRevealed).
- Knowledge follows the cards as they move; nobody forgets, except when a seat lays its cards face
  down in a new order nobody else sees (CardsShuffled, classic Flashbang): then only it knows them,
  but for a card with a Wounded token on it (`wounds: "token"`, RULES §4: the token moves with the
  card, face down or not): everyone keeps following it.
- Cards a classic Defibrillator discards leave the seat (CardsDiscarded).
- An eliminated seat's hand and cards in play go to the deck, but Planted Evidence (RULES §4).
- Every look at a face-down card (CardViewed: Investigate, Metal Detector, Wiretap, Polygraph, a
  Surveillance Camera's return look, Fingerprint Kit) is an investigation, and none reaches a seat
  with a Disguise in front of it (RULES §7.1): not even the Polygraph user's own cards when it is
  disguised, nor a camera's return look at a disguised investigator.

It also checks that each event is consistent with what it tracked (a card viewed or revealed is
where the event says, with the identity it says), so it fails loudly rather than drifting.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from gcbc_contract import events as E

AGENT, KINGPIN, HONEST = "agent", "kingpin", "honest"
PLANTED_EVIDENCE = "planted_evidence"
DISGUISE = "disguise"


class Oracle:
    def __init__(self) -> None:
        self.n = 0
        self.identity: tuple[str, ...] = ()
        self.at: list[list[int]] = []  # seat -> card ids by position (index 0 = position 1)
        self.burned: tuple[int, ...] = ()
        self.face_up: set[int] = set()
        self.learned: dict[int, set[int]] = {}  # card id -> seats that learned it
        self.hands: list[list[str]] = []
        self.in_play: list[list[str]] = []
        self.deck: list[str] = []
        self.eliminated: set[int] = set()
        self.zombies: set[int] = set()
        self.discarded: list[int] = []
        self.token_wounds = True  # RULES §4: the table's `wounds` is "token"
        self.tokens: set[int] = set()  # cards carrying a Wounded token
        self.public: set[int] = set()  # face down, yet known to all (a token followed)
        self.over = False  # the game ended: everything is public

    # --- questions ------------------------------------------------------------------------------
    @property
    def dealt(self) -> bool:
        return bool(self.identity)

    def where(self, card: int) -> tuple[int, int]:
        for seat, cards in enumerate(self.at):
            if card in cards:
                return seat, cards.index(card) + 1
        raise AssertionError(f"card {card} is not in any seat's hand")

    def card_at(self, seat: int, position: int) -> int:
        return self.at[seat][position - 1]

    def knows(self, viewer: int | None, card: int) -> bool:
        """May ``viewer`` (None: the public) know the identity of ``card`` now?"""
        if self.over or card in self.face_up or card in self.public:
            return True
        return viewer is not None and viewer in self.learned.get(card, set())

    def team(self, seat: int) -> str:
        """RULES §2, §8, §9: a zombie is a zombie; a Leader decides; three bomb (knife) icons make
        a Bomber (Traitor); else the majority, flipped by Planted Evidence."""
        if seat in self.zombies:
            return "zombie"
        cards = [self.identity[c] for c in self.at[seat]]
        if AGENT in cards and KINGPIN in cards:
            return "solo"
        if AGENT in cards:
            return "honest"
        if KINGPIN in cards:
            return "crooked"
        if len(cards) == 3:
            if all("bomb" in c.split("_") for c in cards):
                return "bomber"
            if all("knife" in c.split("_") for c in cards):
                return "traitor"
        honest = sum(c.startswith(HONEST) for c in cards) * 2 > len(cards)
        if self.in_play[seat].count(PLANTED_EVIDENCE) % 2:
            honest = not honest
        return "honest" if honest else "crooked"

    # --- the event stream -----------------------------------------------------------------------
    def apply(self, e: Any) -> None:
        handler = getattr(self, "_" + type(e).__name__, None)
        if handler is not None:
            handler(e)

    def _TableOpened(self, e: E.TableOpened) -> None:
        self.n = e.seats
        wounds = e.options.wounds or ("card" if e.options.edition == "classic" else "token")
        self.token_wounds = wounds == "token"

    def _LeaderWounded(self, e: E.LeaderWounded) -> None:
        if self.token_wounds:
            assert self.identity[e.card_id] in (AGENT, KINGPIN), f"{e}: not a Leader card"
            self.tokens.add(e.card_id)

    def _WoundHealed(self, e: E.WoundHealed) -> None:
        self.tokens.discard(e.card_id)

    def _CardsDealt(self, e: E.CardsDealt) -> None:
        assert len(e.hands) == self.n and len(e.equipment) == self.n
        self.identity = tuple(e.identities)
        self.at = [list(h) for h in e.hands]
        self.burned = tuple(e.burned)
        self.hands = [list(h) for h in e.equipment]
        self.in_play = [[] for _ in range(self.n)]
        self.deck = list(e.deck)
        for seat, cards in enumerate(self.at):
            for c in cards:
                self.learned.setdefault(c, set()).add(seat)

    def _CardsArranged(self, e: E.CardsArranged) -> None:
        assert sorted(e.positions) == [1, 2, 3], e
        old = self.at[e.seat]
        # the new position i+1 holds the card that was at old position positions[i]
        self.at[e.seat] = [old[p - 1] for p in e.positions]

    def _CardViewed(self, e: E.CardViewed) -> None:
        assert e.viewer != e.seat, f"a seat views its own card: {e}"
        assert self.card_at(e.seat, e.position) == e.card_id, f"{e}: card is elsewhere"
        assert self.identity[e.card_id] == e.card, f"{e}: wrong identity"
        assert DISGUISE not in self.in_play[e.seat], f"{e}: LEAK, seat {e.seat} is disguised"
        self.learned.setdefault(e.card_id, set()).add(e.viewer)

    def _CardRevealed(self, e: E.CardRevealed) -> None:
        assert self.card_at(e.seat, e.position) == e.card_id, f"{e}: card is elsewhere"
        assert self.identity[e.card_id] == e.card, f"{e}: wrong identity"
        assert e.card_id not in self.face_up, f"{e}: already face up"
        self.face_up.add(e.card_id)

    def _CardsExchanged(self, e: E.CardsExchanged) -> None:
        (a, b), (pa, pb), (ca, cb) = e.seats, e.positions, e.card_ids
        assert a != b, e
        assert self.card_at(a, pa) == ca and self.card_at(b, pb) == cb, f"{e}: cards are elsewhere"
        assert (self.identity[ca], self.identity[cb]) == tuple(e.cards), f"{e}: wrong identities"
        self.at[a][pa - 1], self.at[b][pb - 1] = cb, ca
        self.learned.setdefault(ca, set()).add(b)
        self.learned.setdefault(cb, set()).add(a)

    def _EquipmentDrawn(self, e: E.EquipmentDrawn) -> None:
        assert self.deck and self.deck[0] == e.card, f"{e}: not the deck's top card"
        self.deck.pop(0)
        self.hands[e.seat].append(e.card)

    def _EquipmentDiscarded(self, e: E.EquipmentDiscarded) -> None:
        assert e.card in self.hands[e.seat], f"{e}: not in hand"
        self.hands[e.seat].remove(e.card)
        self.deck.append(e.card)

    def _EquipmentPlayed(self, e: E.EquipmentPlayed) -> None:
        assert e.card in self.hands[e.seat], f"{e}: not in hand"
        self.hands[e.seat].remove(e.card)
        if e.placed_on is None:
            self.deck.append(e.card)
        else:
            self.in_play[e.placed_on].append(e.card)

    def _EquipmentMoved(self, e: E.EquipmentMoved) -> None:
        source = self.in_play if e.in_play else self.hands
        assert e.card in source[e.from_seat], f"{e}: the giver does not have it"
        source[e.from_seat].remove(e.card)
        source[e.to_seat].append(e.card)

    def _SeatEliminated(self, e: E.SeatEliminated) -> None:
        self.eliminated.add(e.seat)
        # RULES §4: its hand, then its cards in play but Planted Evidence, to the deck's bottom
        framed = [c for c in self.in_play[e.seat] if c == PLANTED_EVIDENCE]
        self.deck += self.hands[e.seat] + [c for c in self.in_play[e.seat] if c != PLANTED_EVIDENCE]
        self.hands[e.seat] = []
        self.in_play[e.seat] = framed

    def _SeatRevived(self, e: E.SeatRevived) -> None:
        self.eliminated.discard(e.seat)

    def _BecameZombie(self, e: E.BecameZombie) -> None:
        assert e.seat not in self.eliminated and e.seat not in self.zombies, e
        self.zombies.add(e.seat)

    def _ZombieCured(self, e: E.ZombieCured) -> None:
        assert e.seat in self.zombies, e
        self.zombies.discard(e.seat)

    def _CardsShuffled(self, e: E.CardsShuffled) -> None:
        old = self.at[e.seat]
        assert sorted(e.positions) == list(range(1, len(old) + 1)), e
        self.at[e.seat] = [old[p - 1] for p in e.positions]
        for c in old:  # face down again, in an order only the seat knows
            if c in self.tokens:  # but everyone follows a Wounded token
                if c in self.face_up:
                    self.public.add(c)
                self.face_up.discard(c)
                continue
            self.face_up.discard(c)
            self.public.discard(c)
            self.learned[c] = {e.seat}

    def _CardsDiscarded(self, e: E.CardsDiscarded) -> None:
        for p, c, name in zip(e.positions, e.card_ids, e.cards, strict=True):
            assert self.card_at(e.seat, p) == c and self.identity[c] == name, e
            assert c in self.face_up, f"{e}: a discarded card was face down"
        self.at[e.seat] = [c for c in self.at[e.seat] if c not in e.card_ids]
        self.discarded += e.card_ids

    def _EquipmentReturned(self, e: E.EquipmentReturned) -> None:
        assert e.card in self.deck, f"{e}: not in the deck"
        i = len(self.deck) - 1 - self.deck[::-1].index(e.card)
        self.deck.pop(i)
        self.hands[e.seat].append(e.card)

    def _GameWon(self, e: E.GameWon) -> None:
        self.over = True

    def _AllRevealed(self, e: E.AllRevealed) -> None:
        assert tuple(e.identities) == self.identity, "AllRevealed: identities differ"
        assert [list(h) for h in e.hands] == self.at, "AllRevealed: cards are elsewhere"
        assert tuple(e.burned) == self.burned, "AllRevealed: burned cards differ"
        assert [Counter(h) for h in e.equipment] == [Counter(h) for h in self.hands], (
            "AllRevealed: equipment hands differ"
        )
        self.over = True
