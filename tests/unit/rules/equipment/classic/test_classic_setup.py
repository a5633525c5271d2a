"""The classic edition's setup and wounds: guns (RULES §1), the numbered 16-card deck (§7.2), the
edition's card wordings (§7.2), and the Wounded card on the seat (§4)."""

from __future__ import annotations

from collections import Counter

import pytest

from gcbc.rules import initial_state, public_view, run
from gcbc.rules.equipment.registry import CARDS, card
from gcbc.rules.setup import equipment_deck
from gcbc_contract.cards import CLASSIC_DECK
from gcbc_contract.options import Deal, TableOptions
from tests.support import C, E, act, of_type, pass_window
from tests.unit.rules.equipment.classic import CLASSIC, CLASSIC_ZOMBIES, SIX
from tests.unit.rules.equipment.scenario import (
    EIGHT,
    FIVE,
    FOUR,
    cid,
    deal,
    end_turn,
    one,
    play,
    shot_earlier,
    team,
)

FOURTH_ONLY = ("disguise", "med_kit", "riot_shield", "walkie_talkie")
CLASSIC_ONLY = ("flashbang", "report_audit")
SIZES = {4: 14, 5: 15, 6: 16, 7: 16, 8: 16}
GUNS = {4: 2, 5: 3, 6: 3, 7: 4, 8: 4}
WORDED_DIFFERENTLY = (
    "taser",
    "truth_serum",
    "surveillance_camera",
    "defibrillator",
    "evidence_bag",
    "k9_unit",
    "restraining_order",  # only when another seat shoots (RULES §7.2)
)


def started(n: int, options: TableOptions = CLASSIC, seed: int = 7):
    """A seeded table of ``n`` seats just started (in the arrange step), and its events."""
    s, _ = run(initial_state(), C.OpenTable(table_id="t", seats=n, options=options))
    for i in range(n):
        s, _ = run(s, C.TakeSeat(name=f"seat{i}"))
    return run(s, C.StartGame(random_seed=seed))


def open_with(n: int, integrity, equipment, options: TableOptions = CLASSIC) -> str | None:
    """The refusal of a scenario table dealing ``equipment`` (one list per seat), or None."""
    d = Deal(
        integrity=tuple(tuple(h) for h in integrity),
        equipment=tuple(tuple(h) for h in equipment),
    )
    try:
        run(initial_state(), C.OpenTable(table_id="t", seats=n, deal=d, options=options))
    except Exception as e:  # noqa: BLE001
        return getattr(e, "code", repr(e))
    return None


# --- the deck and the guns ----------------------------------------------------------------------
@pytest.mark.parametrize("n", [4, 5, 6, 7, 8])
def test_the_deck_per_player_count(n):
    """RULES §7.2 (only cards whose number is ≤ the player count: 14 at 4, 15 at 5, 16 at 6–8;
    Defibrillator 5+, Report Audit 6+), none of the fourth edition's own cards."""
    deck = equipment_deck(CLASSIC, n)
    assert len(deck) == SIZES[n]
    assert set(Counter(deck).values()) == {1}
    assert ("defibrillator" in deck) == (n >= 5)
    assert ("report_audit" in deck) == (n >= 6)
    assert "flashbang" in deck and "taser" in deck
    assert not set(FOURTH_ONLY) & set(deck)
    assert set(deck) <= {name for name, _ in CLASSIC_DECK}


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8])
def test_a_seeded_deal_uses_the_classic_deck_and_guns(n):
    """RULES §1 (classic guns: 2 / 3 / 3 / 4 / 4 in the centre; one equipment card each), §7.2."""
    s, events = started(n)
    (dealt,) = of_type(events, E.CardsDealt)
    assert all(len(h) == 1 for h in dealt.equipment)
    everything = [c for h in dealt.equipment for c in h] + list(dealt.deck)
    assert sorted(everything) == sorted(equipment_deck(CLASSIC, n))
    assert s.guns_in_centre == GUNS[n]
    assert public_view(s, log=False).guns_in_centre == GUNS[n]


def test_the_fourth_edition_keeps_one_gun_per_player_and_its_own_deck():
    """RULES §1 (fourth: one gun per player), §7.1 (no Flashbang, no Report Audit)."""
    s, _ = started(6, options=TableOptions())
    assert s.guns_in_centre == 6
    assert not set(CLASSIC_ONLY) & set(equipment_deck(TableOptions(), 8))


@pytest.mark.parametrize("name", FOURTH_ONLY)
def test_a_fourth_edition_card_is_refused_in_a_classic_scenario_deal(name):
    """RULES §7.2 (the classic deck), docs/api.md (a deal that breaks the rules is refused)."""
    assert open_with(4, FOUR, [[name], [], [], []]) == "invalid_deal"
    assert open_with(4, FOUR, [[name], [], [], []], options=TableOptions()) is None


@pytest.mark.parametrize(
    ("name", "n", "integrity"), [("defibrillator", 4, FOUR), ("report_audit", 5, FIVE)]
)
def test_a_card_numbered_above_the_player_count_is_refused(name, n, integrity):
    """RULES §7.2 (Defibrillator 5+, Report Audit 6+)."""
    hands = [[name]] + [[] for _ in range(n - 1)]
    assert open_with(n, integrity, hands) == "invalid_deal"
    bigger = SIX if n == 5 else FIVE
    assert open_with(len(bigger), bigger, [[name]] + [[] for _ in bigger[1:]]) is None


@pytest.mark.parametrize("name", CLASSIC_ONLY)
def test_a_classic_card_is_refused_in_a_fourth_edition_deal(name):
    """RULES §7.1 (the fourth edition's 18 cards)."""
    hands = [[name]] + [[] for _ in EIGHT[1:]]
    assert open_with(8, EIGHT, hands, options=TableOptions()) == "invalid_deal"
    assert open_with(8, EIGHT, hands) is None


def test_each_table_uses_its_editions_wording():
    """RULES §7.2: six cards are worded differently in the classic edition; the others are the
    same cards at both editions."""
    classic = deal({}, options=CLASSIC)
    fourth = deal({})
    for name in WORDED_DIFFERENTLY:
        assert card(classic, name).edition == "classic"
        assert card(fourth, name) is CARDS[name] and CARDS[name].edition is None
    for name, _ in CLASSIC_DECK:
        if name not in WORDED_DIFFERENTLY:
            assert card(classic, name) is CARDS[name]


# --- wounds on the seat (RULES §4, classic) -----------------------------------------------------
def test_a_shot_leader_takes_the_wounded_card_on_its_seat():
    """RULES §4 (a Leader not wounded: not eliminated, takes a Wounded token and draws; classic:
    the seat takes the Wounded card)."""
    s = deal({}, guns={0: 1}, options=CLASSIC)
    s, _ = act(s, C.Shoot(seat=0))
    s = pass_window(s)
    st = s.seat(1)
    assert st.wounded and not st.eliminated and st.face_up == (True, True, True)
    assert s.wounds == frozenset() and len(st.hand) == 1
    seat1 = public_view(s, log=False).seats[1]
    assert seat1.wounded and not any(c.wounded for c in seat1.cards)
    assert s.winners is None


def test_a_wounded_seat_that_loses_its_leader_card_is_eliminated_and_that_wins_nothing():
    """RULES §4 (classic: a wounded seat that no longer holds a Leader card is eliminated at once;
    that alone wins nothing: the Leader card's new holder is alive, and not wounded). Blackmail
    moves the wounded seat 1's Kingpin to seat 3; seat 1 is eliminated; the game goes on; seat 3,
    shot later, is only wounded."""
    s = shot_earlier(deal({2: "blackmail"}, guns={0: 3}, options=CLASSIC), 1, shooter=0)
    s = open_window_investigate(s)
    s, events = act(s, play(2, "blackmail", targets=(1, 3), positions=(1, 2)))
    assert one(events, E.SeatEliminated) == E.SeatEliminated(seat=1)
    assert s.seat(1).eliminated and s.winners is None and s.step != "finished"
    assert s.seat(3).cards[1] == cid(1, 1)
    assert not s.seat(3).wounded and not s.seat(3).eliminated and team(s, 3) == "crooked"
    # seat 1's equipment went to the deck; the game goes on, seat 1 skipped
    assert s.seat(1).hand == ()
    s = end_turn(s)
    assert s.turn_seat == 2
    # later, the new Kingpin holder shot for the first time is only wounded
    s2 = shot_earlier(s, 3, shooter=0)
    assert s2.seat(3).wounded and not s2.seat(3).eliminated and s2.winners is None


def open_window_investigate(s):
    s, _ = act(s, C.Investigate(seat=0, target=2, position=1))
    assert s.window is not None and s.window.kind == "investigate"
    return s


def test_a_wounded_seat_that_swaps_its_leader_for_the_other_stays_wounded():
    """RULES §4 (classic: eliminated only when it no longer holds a Leader card): seat 1 (wounded
    Kingpin) receives the Agent for its Kingpin; it still holds a Leader card, wounded."""
    s = shot_earlier(deal({2: "blackmail"}, first_seat=2, options=CLASSIC), 1)
    s, events = act(s, play(2, "blackmail", targets=(0, 1), positions=(1, 1)))
    assert of_type(events, E.SeatEliminated) == []
    assert s.seat(1).wounded and not s.seat(1).eliminated and team(s, 1) == "honest"
    assert not s.seat(0).wounded and team(s, 0) == "crooked"


def test_a_wounded_leader_shot_again_is_eliminated_and_the_game_ends():
    """RULES §4 (Leader, already wounded: eliminated, the game ends), §2 (Honest wins when the
    Kingpin is eliminated)."""
    s = shot_earlier(deal({}, guns={0: 1}, options=CLASSIC), 1, shooter=0)
    s, _ = act(s, C.Shoot(seat=0))
    s = pass_window(s)
    assert s.seat(1).eliminated
    assert s.step == "finished" and s.win_team == "honest"
    assert s.win_reason == "kingpin_eliminated" and set(s.winners) == {0, 2}


@pytest.mark.parametrize("options", [CLASSIC, CLASSIC_ZOMBIES], ids=["classic", "zombies"])
def test_both_leaders_in_one_hand_win_before_the_wounded_seat_falls(options):
    """RULES §2 (anyone who holds both Agent and Kingpin wins alone at once), §4: the wounded
    Kingpin seat 1 hands its Kingpin to seat 0, the Agent's holder: seat 0 wins alone; seat 1 does
    not fall (nor rise as a zombie) first."""
    s = shot_earlier(deal({2: "blackmail"}, first_seat=2, options=options), 1)
    s, events = act(s, play(2, "blackmail", targets=(0, 1), positions=(2, 1)))
    assert one(events, E.GameWon) == E.GameWon(winners=(0,), team="solo", reason="both_leaders")
    assert of_type(events, E.SeatEliminated) == [] and of_type(events, E.BecameZombie) == []
    assert s.step == "finished"
