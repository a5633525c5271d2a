"""Setup (RULES §1): the decks for the table's options, and the seeded (or scenario) deal."""

from __future__ import annotations

from collections import Counter

from gcbc.rules.errors import refuse
from gcbc.rules.rng import Rng
from gcbc_contract.cards import (
    AGENT,
    BOMBERS_TRAITORS_CARDS,
    CLASSIC_DECK,
    CLASSIC_GUNS,
    CROOKED,
    EXTRA_CARDS,
    FOURTH_EDITION_DECK,
    HONEST,
    HONEST_CROOKED_PER_SIDE,
    ICON_CARDS,
    KINGPIN,
    MAX_SEATS,
    MIN_SEATS,
    ZOMBIE_CARDS,
    card_name,
)
from gcbc_contract.events import CardsDealt
from gcbc_contract.options import Deal, TableOptions

SETUP_STREAM = 1  # the rng stream of the deal; autopilot draws use others


OFFERED_EDITIONS = ("fourth", "classic")
OFFERED_WOUNDS = (None, "token", "card")


def check_options(options: TableOptions) -> None:
    """Refuse, never ignore, an option the engine does not offer. Every edition combines with
    either expansion, extra equipment and either wound placement (RULES: "they combine"; §4)."""
    if options.edition not in OFFERED_EDITIONS:
        raise refuse("option_not_offered", f"edition '{options.edition}' is not offered")
    if options.wounds not in OFFERED_WOUNDS:
        raise refuse("option_not_offered", f"wounds '{options.wounds}' is not offered")


def check_seat_count(n: int) -> None:
    if not MIN_SEATS <= n <= MAX_SEATS:
        raise refuse("bad_seat_count", f"a table has {MIN_SEATS} to {MAX_SEATS} seats")


def integrity_deck(options: TableOptions, n: int) -> list[str]:
    """The Honest and Crooked cards used with n players (Leaders apart). Bombers & Traitors uses
    the cards with icons (RULES §9): the same counts, by the corner numbers up to n."""
    if options.bombers_traitors:
        return [
            card_name(side, icons) for k in range(MIN_SEATS, n + 1) for side, icons in ICON_CARDS[k]
        ]
    per_side = HONEST_CROOKED_PER_SIDE[n]
    return [HONEST] * per_side + [CROOKED] * per_side


def equipment_deck(options: TableOptions, n: int) -> list[str]:
    """RULES §7: the edition's deck (classic: the numbered cards up to n), then each expansion's
    cards. Extra equipment "adds every expansion card that fits the table" (§8.1): the zombie-free
    cards of §8.1 when Zombies is off, and the four cards of §9 when Bombers & Traitors is off
    (they work without the roles); with both expansions on it adds nothing."""
    if options.edition == "classic":
        deck = [name for name, least in CLASSIC_DECK if least <= n]
    else:
        deck = list(FOURTH_EDITION_DECK)
    if options.bombers_traitors or options.extra_equipment:
        deck += BOMBERS_TRAITORS_CARDS
    if options.zombies:
        deck += ZOMBIE_CARDS
    elif options.extra_equipment:
        deck += EXTRA_CARDS
    return deck


def guns(options: TableOptions, n: int) -> int:
    """RULES §1: guns in the centre at the start."""
    return CLASSIC_GUNS[n] if options.edition == "classic" else n


def arms(options: TableOptions, n: int) -> int:
    """RULES §8: N-2 Arms with Zombies."""
    return n - 2 if options.zombies else 0


def seeded_deal(options: TableOptions, n: int, seed: int) -> CardsDealt:
    rng = Rng(seed, SETUP_STREAM)
    rest = integrity_deck(options, n)
    rng.shuffle(rest)
    leaders = [AGENT, KINGPIN, *rest[: n - 2]]
    rest = rest[n - 2 :]
    rng.shuffle(leaders)
    identities: list[str] = []
    hands: list[tuple[int, ...]] = []
    for i in range(n):
        cards = [leaders[i], rest[2 * i], rest[2 * i + 1]]
        rng.shuffle(cards)  # the order is random at the deal (RULES §1)
        hands.append(tuple(range(len(identities), len(identities) + 3)))
        identities += cards
    burned = list(range(len(identities), len(identities) + len(rest) - 2 * n))
    identities += rest[2 * n :]
    deck = equipment_deck(options, n)
    rng.shuffle(deck)
    equipment = tuple((deck[i],) for i in range(n))
    return CardsDealt(
        identities=tuple(identities),
        hands=tuple(hands),
        burned=tuple(burned),
        equipment=equipment,
        deck=tuple(deck[n:]),
    )


def check_deal(options: TableOptions, n: int, deal: Deal) -> None:
    """A scenario deal must be one the real deal could produce (docs/api.md: else 422)."""
    if len(deal.integrity) != n or any(len(h) != 3 for h in deal.integrity):
        raise refuse("invalid_deal", f"integrity needs {n} lists of 3 cards")
    dealt = Counter(c for h in deal.integrity for c in h)
    allowed = Counter(integrity_deck(options, n) + [AGENT, KINGPIN])
    unknown = set(dealt) - set(allowed)
    if unknown:
        raise refuse("invalid_deal", f"unknown integrity card(s): {sorted(unknown)}")
    if dealt[AGENT] != 1 or dealt[KINGPIN] != 1:
        raise refuse("invalid_deal", "exactly one agent and one kingpin must be dealt")
    if any(AGENT in h and KINGPIN in h for h in deal.integrity):
        raise refuse("invalid_deal", "agent and kingpin never start in the same hand")
    if dealt - allowed:
        raise refuse("invalid_deal", f"too many cards for {n} players: {dict(dealt - allowed)}")
    if deal.equipment and len(deal.equipment) != n:
        raise refuse("invalid_deal", f"equipment needs {n} lists")
    if any(len(h) > 1 for h in deal.equipment):
        raise refuse("invalid_deal", "a seat starts with at most one equipment card")
    used = Counter(c for h in deal.equipment for c in h) + Counter(deal.equipment_deck)
    full = Counter(equipment_deck(options, n))
    if set(used) - set(full):
        raise refuse("invalid_deal", f"unknown equipment card(s): {sorted(set(used) - set(full))}")
    if used - full:
        raise refuse("invalid_deal", f"more copies than the deck has: {dict(used - full)}")
    if deal.first_seat is not None and not 0 <= deal.first_seat < n:
        raise refuse("invalid_deal", "first_seat is not a seat")


def scenario_deal(options: TableOptions, n: int, deal: Deal, seed: int) -> CardsDealt:
    """The deal as given; what it leaves open (burned cards, the deck's rest) is seeded."""
    rng = Rng(seed, SETUP_STREAM)
    identities: list[str] = []
    hands = []
    for h in deal.integrity:
        hands.append(tuple(range(len(identities), len(identities) + 3)))
        identities += h
    left = Counter(integrity_deck(options, n) + [AGENT, KINGPIN]) - Counter(identities)
    burned_cards = sorted(left.elements())
    rng.shuffle(burned_cards)
    burned = tuple(range(len(identities), len(identities) + len(burned_cards)))
    identities += burned_cards
    full = Counter(equipment_deck(options, n))
    equipment = deal.equipment or tuple(() for _ in range(n))
    rest = sorted(
        (full - Counter(c for h in equipment for c in h) - Counter(deal.equipment_deck)).elements()
    )
    rng.shuffle(rest)
    return CardsDealt(
        identities=tuple(identities),
        hands=tuple(hands),
        burned=burned,
        equipment=tuple(tuple(h) for h in equipment),
        deck=(*deal.equipment_deck, *rest),
    )


def first_seat(n: int, seed: int, named: int | None) -> int:
    if named is not None:
        return named
    return Rng(seed, SETUP_STREAM + 1).below(n)
