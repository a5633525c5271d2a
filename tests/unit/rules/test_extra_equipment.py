"""RULES §8.1: the table option extra equipment "adds every expansion card that fits the table":
without Zombies the cards of §8.1 that need no zombies, and without Bombers & Traitors its four
cards of §9 (Classified Orders, Fake ID, Fingerprint Kit, Holster), which work without the roles."""

from __future__ import annotations

from collections import Counter

import pytest

from gcbc.rules import RuleViolation, run
from gcbc.rules.setup import equipment_deck, seeded_deal
from gcbc.rules.state import initial_state
from gcbc_contract.cards import BOMBERS_TRAITORS_CARDS, EXTRA_CARDS, ZOMBIE_CARDS
from gcbc_contract.options import Deal, TableOptions
from tests.support import EXTRA, C, E, act
from tests.unit.rules.equipment.scenario import FOUR, deal, one, open_window, play

BT_CARDS = Counter(BOMBERS_TRAITORS_CARDS)


@pytest.mark.parametrize("n", [4, 6, 8])
def test_a_base_fourth_edition_table_with_extra_equipment_has_29_cards(n: int) -> None:
    """RULES §8.1: 19 + 6 + 4 = 29 cards, whatever the player count (fourth edition)."""
    deck = Counter(equipment_deck(EXTRA, n))
    assert sum(deck.values()) == 29
    assert deck - Counter(equipment_deck(TableOptions(), n)) == Counter(EXTRA_CARDS) + BT_CARDS


@pytest.mark.parametrize(
    ("options", "added"),
    [
        # Bombers & Traitors on: its cards are there already, once; the six zombie-free cards
        (TableOptions(bombers_traitors=True), Counter(EXTRA_CARDS)),
        # Zombies on: its eight cards already; the four cards of §9
        (TableOptions(zombies=True), BT_CARDS),
        # both expansions on: nothing more is compatible
        (TableOptions(zombies=True, bombers_traitors=True), Counter()),
        # classic edition: the same cards, added to its numbered deck
        (TableOptions(edition="classic"), Counter(EXTRA_CARDS) + BT_CARDS),
    ],
    ids=["bombers_traitors", "zombies", "both", "classic"],
)
def test_extra_equipment_adds_only_what_the_expansions_on_do_not(options, added) -> None:
    """RULES §8.1 (all compatible expansion equipment): what extra equipment adds to a table that
    has these options already, at 4 and 8 players; never a card twice."""
    for n in (4, 8):
        without = Counter(equipment_deck(options, n))
        extra = TableOptions(**_fields(options), extra_equipment=True)
        with_extra = Counter(equipment_deck(extra, n))
        assert with_extra - without == added
        assert without <= with_extra
        assert all(k == 1 for card, k in with_extra.items() if card != "defibrillator")
        # the cards that need zombies come only with the Zombies expansion
        needs_zombies = set(ZOMBIE_CARDS) - set(EXTRA_CARDS)
        assert bool(needs_zombies & set(with_extra)) == options.zombies


def _fields(options: TableOptions) -> dict:
    return {f: getattr(options, f) for f in ("edition", "zombies", "bombers_traitors")}


def test_the_seeded_deal_uses_all_29_cards() -> None:
    """RULES §1, §8.1: one card to each seat, the rest is the deck: 29 cards in all."""
    dealt = seeded_deal(EXTRA, 6, seed=5)
    cards = Counter(c for hand in dealt.equipment for c in hand) + Counter(dealt.deck)
    assert cards == Counter(equipment_deck(EXTRA, 6)) and sum(cards.values()) == 29


def open_with_deal(options: TableOptions, equipment: list[list[str]]) -> str | None:
    """Opening a 4-seat scenario table: None if accepted, else the code it is refused with."""
    d = Deal(integrity=tuple(tuple(h) for h in FOUR), equipment=tuple(tuple(h) for h in equipment))
    try:
        run(initial_state(), C.OpenTable(table_id="t", seats=4, options=options, deal=d))
    except RuleViolation as v:
        return v.code
    return None


@pytest.mark.parametrize("card", BOMBERS_TRAITORS_CARDS)
def test_a_scenario_deal_may_hand_out_the_bombers_traitors_cards(card: str) -> None:
    """RULES §8.1 (deal validation follows the deck): with extra equipment and without Bombers &
    Traitors, its cards may be dealt; without extra equipment they are not in the deck."""
    hands = [[card], [], [], []]
    assert open_with_deal(EXTRA, hands) is None
    assert open_with_deal(TableOptions(), hands) == "invalid_deal"


def test_holster_works_without_the_roles() -> None:
    """RULES §8.1 (its four cards work without the roles), §9 Holster: on a base table with extra
    equipment, seat 0 shoots seat 1 and plays Holster aiming at seat 3: seat 3 is shot (a plain
    Honest/Crooked table: no Bomber, no Traitor)."""
    s = open_window(deal({0: "holster"}, guns={0: 1}, options=EXTRA), "shoot")
    s, events = act(s, play(0, "holster", aim=3))
    assert one(events, E.ShotRedirected) == E.ShotRedirected(target=3)
    while s.step == "window":
        s, events = act(s, C.Pass(seat=min(s.window.pending)))
    assert s.seat(3).eliminated and not s.seat(1).eliminated and s.winners is None


def test_fingerprint_kit_works_without_the_roles() -> None:
    """RULES §8.1, §9 Fingerprint Kit: on a base table with extra equipment, seat 0 investigates
    seat 1's Kingpin with it."""
    s = deal({0: "fingerprint_kit"}, options=EXTRA)
    s, events = act(s, play(0, "fingerprint_kit", target=1, position=1))
    assert one(events, E.CardViewed).card == "kingpin"
