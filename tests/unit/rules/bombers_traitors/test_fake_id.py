"""Fake ID (RULES §9): exchange one face-up Honest/Crooked card (any icons, never a Leader) with
another face-up Honest/Crooked card, of two different living seats (``targets`` in increasing
order, ``positions`` one card of each). Each card takes the other's place and stays face up."""

from __future__ import annotations

from gcbc.rules.legal import is_template
from gcbc.rules.setup import equipment_deck
from gcbc_contract import events as E
from gcbc_contract.options import TableOptions
from tests.support import BOMBERS, KP, A, H, K, act
from tests.unit.rules.bombers_traitors.givens import (
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
from tests.unit.rules.equipment.scenario import (
    accept_all,
    cid,
    known,
    legal_plays,
    one,
    open_window,
    play,
    refused_unchanged,
    shot_earlier,
)

CARD = "fake_id"


def given(hands, *up, **kw):
    """No role at the table: seat 0 (A, HB, HK), seat 1 (KP, CB, CK), seat 2 (HB, CK, HBK),
    seat 3 (CB, HK, CBK); the cards ``up`` (seat, position) face up."""
    return face_up(bt_deal(hands, integrity=NO_ROLES, **kw), *up)


def test_two_face_up_cards_change_places():
    """RULES §9 Fake ID: seat 1's face-up CB and seat 3's face-up CBK change places, each staying
    face up, in view of everyone."""
    s = given({2: CARD}, (1, 2), (3, 3), first_seat=2)
    s, events = act(s, play(2, CARD, targets=(1, 3), positions=(2, 3)))
    assert one(events, E.CardsExchanged) == E.CardsExchanged(
        seats=(1, 3), positions=(2, 3), card_ids=(cid(1, 2), cid(3, 3)), cards=(CB, CBK)
    )
    assert s.seat(1).cards[1] == cid(3, 3) and s.seat(3).cards[2] == cid(1, 2)
    assert s.seat(1).face_up[1] and s.seat(3).face_up[2]
    for viewer in (None, 0, 1, 2, 3):
        assert known(s, viewer, 1, 2) == CBK and known(s, viewer, 3, 3) == CB
    assert s.seat(2).hand == () and s.deck[-1] == CARD


def test_one_of_the_cards_may_be_your_own():
    """RULES §9 Fake ID (decision: any living seat, yourself included), in a window too."""
    s = open_window(given({0: CARD, 3: "coffee"}, (0, 3), (2, 1)), "investigate")
    s, events = act(s, play(0, CARD, targets=(0, 2), positions=(3, 1)))
    assert one(events, E.CardsExchanged).cards == (HK, HB)
    assert known(s, None, 0, 3) == HB and known(s, None, 2, 1) == HK


def test_a_zombie_s_card_is_never_exchanged():
    """RULES §9 Fake ID with §8 (silent beyond Blackmail); the publisher's online help,
    seeds/000_1b3acf3376692be6.txt line 679 (revision of 2023-03-23, unchanged in the latest):
    "you can no longer move the Integrity Cards of zombies". The zombie at seat 3 (all its cards
    face up) cannot give its HK for seat 0's HB: refused, state unchanged, and no listed play
    names it; the face-up cards of two living non-zombies still may be exchanged."""
    s = given({0: CARD}, (0, 2), (2, 1), options=ZOMBIES_BT)
    s = shot_earlier(s, 3, shooter=0)
    assert s.seat(3).zombie and s.seat(3).face_up == (True, True, True)
    assert refused_unchanged(s, play(0, CARD, targets=(0, 3), positions=(2, 2))) == (
        "target_is_zombie"
    )
    plays = legal_plays(s, 0, CARD)
    assert plays == [play(0, CARD, targets=(0, 2), positions=(2, 1))]
    s, events = act(s, plays[0])
    assert one(events, E.CardsExchanged).cards == (HB, HB)


def test_the_cards_must_be_face_up_honest_or_crooked_cards_of_two_living_seats():
    """RULES §9 Fake ID (face-up Honest/Crooked cards; Leaders never), §7.3."""
    s = given({0: CARD, 3: "coffee"}, (0, 1), (1, 2), (2, 1), (2, 2))
    s = shot_earlier(s, 3, shooter=1)
    assert refused_unchanged(s, play(0, CARD, targets=(1, 2), positions=(3, 1))) == (
        "card_not_face_up"
    )
    assert refused_unchanged(s, play(0, CARD, targets=(0, 2), positions=(1, 1))) == (
        "card_is_leader"
    )
    assert refused_unchanged(s, play(0, CARD, targets=(2, 3), positions=(1, 1))) == (
        "target_eliminated"
    )
    assert refused_unchanged(s, play(0, CARD, targets=(2, 2), positions=(1, 2))) == (
        "invalid_target"
    )
    assert refused_unchanged(s, play(0, CARD, targets=(1, 9), positions=(2, 1))) == (
        "invalid_target"
    )
    # in the other order each card goes with its seat: seat 2's card 3 is not face up
    assert refused_unchanged(s, play(0, CARD, targets=(2, 1), positions=(3, 2))) == (
        "card_not_face_up"
    )
    for positions in ((0, 1), (2, 4)):
        assert refused_unchanged(s, play(0, CARD, targets=(1, 2), positions=positions)) == (
            "invalid_position"
        )
    assert refused_unchanged(s, play(0, CARD, targets=(1, 2))) == "bad_parameters"
    assert refused_unchanged(s, play(0, CARD, targets=(1,), positions=(2,))) == "bad_parameters"
    assert refused_unchanged(s, play(0, CARD, target=1, targets=(1, 2), positions=(2, 1))) == (
        "bad_parameters"
    )
    assert refused_unchanged(s, play(1, CARD, targets=(1, 2), positions=(2, 1))) == (
        "card_not_in_hand"
    )


def test_nothing_is_listed_without_two_face_up_honest_or_crooked_cards():
    """RULES §7.3 (only when its effect can happen): one face-up Honest/Crooked card and a face-up
    Leader are not enough."""
    s = given({0: CARD}, (0, 1), (1, 2))
    assert legal_plays(s, 0, CARD) == []
    assert refused_unchanged(s, play(0, CARD, targets=(1, 2), positions=(2, 1))) == (
        "card_not_face_up"
    )


def test_every_listed_play_is_accepted():
    """RULES §7.3: exactly the pairs of face-up Honest/Crooked cards of two living seats are
    listed (seats in increasing order), and each is accepted."""
    s = given({1: CARD}, (0, 1), (0, 2), (1, 3), (3, 1), (3, 2), first_seat=1)
    expected = [
        play(1, CARD, targets=targets, positions=positions)
        for targets, positions in [
            ((0, 1), (2, 3)),
            ((0, 3), (2, 1)),
            ((0, 3), (2, 2)),
            ((1, 3), (3, 1)),
            ((1, 3), (3, 2)),
        ]
    ]
    assert legal_plays(s, 1, CARD) == expected
    assert accept_all(s, 1, CARD) == 5
    # Decision (RULES §7.3: a pair is a pair): either order of the two seats is the same play
    swapped = play(1, CARD, targets=(3, 1), positions=(2, 3))
    assert act(s, swapped) == act(s, expected[4])


# 8 seats (RULES §9, 8+): 11 Honest and 11 Crooked icon cards, all dealt with the Leaders
EIGHT = [
    [A, HB, HB],
    [KP, CB, CB],
    [HB, HBK, HK],
    [HK, HK, HK],
    [H, H, H],
    [CB, CB, CBK],
    [CK, CK, CK],
    [K, K, K],
]


def test_many_choices_are_listed_as_one_template_per_pair_of_seats():
    """RULES §7.3 (legal plays; a template past 200 choices): at 8 seats with every card face up,
    211 exchanges are possible: one template per pair of seats lists them, and each expands to an
    accepted play."""
    s = bt_deal({0: CARD}, integrity=EIGHT)
    s = face_up(s, *((i, p) for i in range(8) for p in (1, 2, 3)))
    plays = legal_plays(s, 0, CARD)
    assert len(plays) == 28 and all(is_template(p) for p in plays)
    assert plays[0]["targets"] == (0, 1) and plays[0]["choose"] == {"positions": [[2, 3], [2, 3]]}
    assert sum(len(a) * len(b) for a, b in (p["choose"]["positions"] for p in plays)) == 211
    assert accept_all(s, 0, CARD) == 56


def test_the_card_comes_with_the_expansion():
    """RULES §9: Fake ID is in the equipment deck only with Bombers & Traitors."""
    assert CARD in equipment_deck(BOMBERS, 4)
    assert CARD not in equipment_deck(TableOptions(), 4)
