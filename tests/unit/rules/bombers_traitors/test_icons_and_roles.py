"""RULES §9: the icon integrity cards per player count, and the Bomber and Traitor roles, which are
recomputed whenever cards move."""

from __future__ import annotations

from collections import Counter

import pytest

from gcbc.rules import RuleViolation
from gcbc.rules.effects import can_become_zombie
from gcbc.rules.setup import check_deal, integrity_deck, seeded_deal
from gcbc.rules.teams import team_from, true_team
from gcbc_contract.cards import HONEST_CROOKED_PER_SIDE, icons_of, side_of
from gcbc_contract.options import Deal, TableOptions
from tests.support import BOMBERS, KP, A, E, H, K, act
from tests.unit.rules.bombers_traitors.givens import (
    BOMBER_TRAITOR,
    CB,
    CBK,
    CK,
    HB,
    HBK,
    HK,
    NO_ROLES,
    ZOMBIES_BT,
    bt_deal,
    face_up,
)
from tests.unit.rules.equipment.scenario import FOUR, of, one, play, shot_earlier, team

# RULES §9, per player count: every Honest/Crooked card of the deck, cumulated from 4+ up to N
DECKS = {
    4: {HB: 2, HBK: 1, HK: 2, CB: 2, CBK: 1, CK: 2},
    5: {HB: 3, HBK: 1, HK: 2, H: 1, CB: 2, CBK: 1, CK: 3, K: 1},
    6: {HB: 3, HBK: 1, HK: 2, H: 2, CB: 2, CBK: 1, CK: 3, K: 2},
    7: {HB: 3, HBK: 1, HK: 3, H: 3, CB: 3, CBK: 1, CK: 3, K: 3},
    8: {HB: 3, HBK: 1, HK: 4, H: 3, CB: 4, CBK: 1, CK: 3, K: 3},
}


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8])
def test_the_icon_deck_per_player_count(n: int) -> None:
    """RULES §9 (4+: 2 bomb, 1 bomb+knife, 2 knife per side; 5+: Crooked knife + blank, Honest
    bomb + blank; 6+: 1 blank each; 7+: Crooked bomb + blank, Honest knife + blank; 8+: Crooked
    bomb, Honest knife), with the counts of §1 per side."""
    deck = Counter(integrity_deck(BOMBERS, n))
    assert deck == Counter(DECKS[n])
    sides = Counter(side_of(c) for c in deck.elements())
    assert sides == {"honest": HONEST_CROOKED_PER_SIDE[n], "crooked": HONEST_CROOKED_PER_SIDE[n]}


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8])
def test_a_seeded_deal_deals_the_icon_deck_and_plain_leaders(n: int) -> None:
    """RULES §9 with §1: the deal uses the icon cards of that player count, Leaders never carry an
    icon, and the burned count is unchanged (one at 5 and 7)."""
    dealt = seeded_deal(BOMBERS, n, seed=n)
    assert Counter(dealt.identities) == Counter({**DECKS[n], A: 1, KP: 1})
    assert len(dealt.burned) == (1 if n in (5, 7) else 0)
    assert all(icons_of(c) == () for c in (A, KP))


def test_scenario_deals_use_the_icon_names_of_the_option() -> None:
    """RULES §9: with Bombers & Traitors the cards carry icons (a deal of plain cards breaks the
    rules), and without it no card does."""
    icon_deal = Deal(integrity=tuple(tuple(h) for h in BOMBER_TRAITOR))
    plain_deal = Deal(integrity=tuple(tuple(h) for h in FOUR))
    check_deal(BOMBERS, 4, icon_deal)
    check_deal(TableOptions(), 4, plain_deal)
    for options, wrong in ((BOMBERS, plain_deal), (TableOptions(), icon_deal)):
        with pytest.raises(RuleViolation) as refused:
            check_deal(options, 4, wrong)
        assert refused.value.code == "invalid_deal"


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ((HB, CB, HBK), "bomber"),  # three bomb icons, whatever the sides
        ((HB, HBK, CBK), "bomber"),  # bomb+knife counts as a bomb
        ((HK, CK, CBK), "traitor"),
        ((HK, HBK, CBK), "traitor"),  # ... and as a knife
        ((HB, CB, CK), "crooked"),  # two bombs: no role, the majority decides
        ((HB, HK, HBK), "honest"),
        ((A, HB, HBK), "honest"),  # a Leader decides its holder's team: no role
        ((KP, HK, HBK), "crooked"),
        ((H, K, HB), "honest"),  # blank cards
    ],
)
def test_three_bomb_icons_make_a_bomber_three_knife_icons_a_traitor(cards, expected) -> None:
    """RULES §9: three bomb icons and no Leader: a Bomber; three knife icons: a Traitor; a
    bomb+knife card counts for both. Otherwise §2 decides."""
    assert team_from(cards, ()) == expected


def test_each_seat_sees_its_own_role() -> None:
    """RULES §9, §11: a seat's own team (its role included) is in its view."""
    s = bt_deal()
    assert [team(s, i) for i in range(4)] == ["honest", "crooked", "bomber", "traitor"]
    assert [true_team(s, i) for i in range(4)] == ["honest", "crooked", "bomber", "traitor"]


def test_blackmail_makes_a_bomber_and_a_traitor() -> None:
    """RULES §9 (roles are recomputed as cards move): seat 2 (HB, CK, HBK) and seat 3 (CB, HK, CBK)
    have no role; a Blackmail exchanging seat 2's CK with seat 3's CB makes seat 2 a Bomber
    (HB, CB, HBK) and seat 3 a Traitor (CK, HK, CBK)."""
    s = bt_deal({0: "blackmail"}, integrity=NO_ROLES)
    assert (team(s, 2), team(s, 3)) == ("honest", "crooked")
    s, events = act(s, play(0, "blackmail", targets=(2, 3), positions=(2, 1)))
    assert one(events, E.CardsExchanged).cards == (CK, CB)
    assert (team(s, 2), team(s, 3)) == ("bomber", "traitor")
    assert (true_team(s, 2), true_team(s, 3)) == ("bomber", "traitor")
    assert of(events, E.GameWon) == []


def test_fake_id_unmakes_a_bomber_and_a_traitor() -> None:
    """RULES §9 (roles are recomputed as cards move): the Bomber's face-up HB and the Traitor's
    face-up HK exchanged by Fake ID leave seat 2 (HK, CB, HBK) honest and seat 3 (HB, CK, CBK)
    crooked."""
    s = face_up(bt_deal({0: "fake_id"}), (2, 1), (3, 1))
    s, _ = act(s, play(0, "fake_id", targets=(2, 3), positions=(1, 1)))
    assert (team(s, 2), team(s, 3)) == ("honest", "crooked")
    assert (true_team(s, 2), true_team(s, 3)) == ("honest", "crooked")


@pytest.mark.parametrize(
    ("integrity", "seat", "before", "after"),
    [
        (NO_ROLES, 2, "honest", "crooked"),  # two bombs: flipped majority, not a Bomber
        (BOMBER_TRAITOR, 2, "bomber", "bomber"),
        (BOMBER_TRAITOR, 3, "traitor", "traitor"),
    ],
)
def test_planted_evidence_flips_a_majority_but_makes_or_unmakes_no_role(
    integrity, seat, before, after
) -> None:
    """RULES §9 with §2: Planted Evidence flips Honest and Crooked; it changes no icon, so it
    neither makes nor unmakes a Bomber or a Traitor."""
    s = bt_deal({0: "planted_evidence"}, integrity=integrity)
    assert team(s, seat) == before
    s, _ = act(s, play(0, "planted_evidence", target=seat))
    assert s.seat(seat).in_play == ("planted_evidence",)
    assert team(s, seat) == after and true_team(s, seat) == after


def test_a_bomber_never_becomes_a_zombie() -> None:
    """RULES §9 (a Bomber never becomes a zombie), §8: shot (here by itself, which wins nothing),
    the Bomber is eliminated; the Traitor, shot the same way, rises as a zombie and leaves its
    role."""
    s = bt_deal(options=ZOMBIES_BT)
    assert not can_become_zombie(s, 2) and can_become_zombie(s, 3)
    s = shot_earlier(s, 2, shooter=2)
    assert s.seat(2).eliminated and not s.seat(2).zombie and s.seat(2).fallen_by == 2
    s = shot_earlier(s, 3, shooter=3)
    assert s.seat(3).zombie and not s.seat(3).eliminated
    assert true_team(s, 3) == "zombie" and team(s, 3) == "zombie"


def test_a_bomber_made_by_a_card_movement_no_longer_rises() -> None:
    """RULES §9: the role counts as it is when the seat falls (roles are recomputed): after a
    Blackmail makes seat 2 a Bomber, it can no longer become a zombie."""
    s = bt_deal({0: "blackmail"}, integrity=NO_ROLES, options=ZOMBIES_BT)
    assert can_become_zombie(s, 2)
    s, _ = act(s, play(0, "blackmail", targets=(2, 3), positions=(2, 1)))
    assert not can_become_zombie(s, 2)
    s = shot_earlier(s, 2, shooter=2)
    assert s.seat(2).eliminated and not s.seat(2).zombie
