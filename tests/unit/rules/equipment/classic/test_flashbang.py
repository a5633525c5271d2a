"""Flashbang (RULES §7.2, classic only): shuffle your integrity cards, look at them, and lay them
face down again in the order you like (face-up cards become face down). ``positions``: the new
order (``positions[i]`` is the old position now at i+1)."""

from __future__ import annotations

import pytest

from gcbc.rules import legal_commands, view
from gcbc.rules.log import render
from gcbc_contract import events as E
from gcbc_contract.options import TableOptions
from tests.support import C, act, pass_window
from tests.unit.rules.equipment.classic import CLASSIC, CLASSIC_ZOMBIES, revived_earlier
from tests.unit.rules.equipment.scenario import (
    FIVE,
    WINDOWS,
    accept_all,
    cid,
    deal,
    end_turn,
    known,
    legal_plays,
    one,
    open_window,
    pass_current,
    play,
    refused_unchanged,
    shot_earlier,
)


def test_cards_go_face_down_in_the_new_order_and_others_lose_track():
    """RULES §7.2 Flashbang, §11: seat 0 showed position 2 (it armed) and seat 1 had viewed its
    position 3. Seat 0 plays Flashbang with the order (3, 1, 2): its cards lie face down in that
    order; seat 0 still knows them; nobody else knows any of them, nor who saw what; the new order
    is private to seat 0 (left out of the public play)."""
    s = deal({0: "flashbang"}, options=CLASSIC)
    s, _ = act(s, C.Arm(seat=0, target=1, position=2))
    s, _ = act(s, C.Aim(seat=0, target=1))
    s = pass_window(s)
    s, _ = act(s, C.Investigate(seat=1, target=0, position=3))
    s = pass_current(s)
    assert s.window.kind == "end_of_turn" and known(s, 1, 0, 3) == "honest"
    assert known(s, None, 0, 2) == "honest"
    s, events = act(s, play(0, "flashbang", positions=(3, 1, 2)))
    played = one(events, E.EquipmentPlayed)
    assert played.card == "flashbang" and played.positions == ()
    shuffled = one(events, E.CardsShuffled)
    assert shuffled == E.CardsShuffled(seat=0, positions=(3, 1, 2))
    assert list(render(shuffled, 0)["positions"]) == [3, 1, 2]
    for viewer in (None, 1, 2, 3):
        assert "positions" not in render(shuffled, viewer)
    st = s.seat(0)
    assert st.cards == (cid(0, 3), cid(0, 1), cid(0, 2))
    assert st.face_up == (False, False, False)
    assert [known(s, 0, 0, p) for p in (1, 2, 3)] == ["honest", "agent", "honest"]
    for viewer in (None, 1, 2, 3):
        assert [known(s, viewer, 0, p) for p in (1, 2, 3)] == [None, None, None]
    assert all(cid(0, p) not in s.seen for p in (1, 2, 3))
    assert [c.face_up for c in view(s, 2, log=False).seats[0].cards] == [False] * 3


def test_seen_cards_can_be_investigated_again():
    """RULES §7.2 Flashbang, §3.1 (a card not seen yet): after it, seat 1 may investigate any of
    seat 0's cards again."""
    s = deal({0: "flashbang"}, first_seat=1, options=CLASSIC)
    s, _ = act(s, C.Investigate(seat=1, target=0, position=1))
    s = pass_current(s)
    assert s.window.kind == "end_of_turn"
    s, _ = act(s, play(0, "flashbang", positions=(1, 2, 3)))
    s = pass_window(s)
    while s.turn_seat != 1:
        s = end_turn(s)
    investigations = {
        (c.target, c.position) for c in legal_commands(s, 1) if isinstance(c, C.Investigate)
    }
    assert {(0, 1), (0, 2), (0, 3)} <= investigations


@pytest.mark.parametrize("window", WINDOWS)
def test_in_a_window(window):
    """RULES §7.2 Flashbang (any window): seat 3 lays its cards in the order (2, 3, 1)."""
    s = open_window(deal({3: "flashbang"}, guns={0: 1}, options=CLASSIC), window, avoid=(3,))
    s, events = act(s, play(3, "flashbang", positions=(2, 3, 1)))
    assert one(events, E.CardsShuffled).positions == (2, 3, 1)
    assert s.seat(3).cards == (cid(3, 2), cid(3, 3), cid(3, 1))


def test_a_seat_down_to_one_card():
    """RULES §7.2 Flashbang, Defibrillator (single remaining card): seat 2, revived with one face-up
    card, draws Flashbang and turns its card face down: the one order is (1,)."""
    s = deal(
        {1: "defibrillator"}, integrity=FIVE, first_seat=1, deck=["flashbang"], options=CLASSIC
    )
    s = revived_earlier(shot_earlier(s, 2), 2, 1)
    s = end_turn(s)
    assert s.turn_seat == 2 and s.seat(2).face_up == (True,)
    s, _ = act(s, C.Equip(seat=2))
    assert s.seat(2).hand == ("flashbang",) and s.window.kind == "end_of_turn"
    assert legal_plays(s, 2, "flashbang") == [play(2, "flashbang", positions=(1,))]
    assert refused_unchanged(s, play(2, "flashbang", positions=(1, 2, 3))) == (
        "invalid_arrangement"
    )
    s, events = act(s, play(2, "flashbang", positions=(1,)))
    assert s.seat(2).face_up == (False,) and known(s, None, 2, 1) is None
    assert known(s, 2, 2, 1) == "honest"


def test_a_zombie_cannot_play_it():
    """RULES §7.2 Flashbang, §8 (a zombie's cards are revealed), §7.3 (only when its effect can
    happen); the publisher's online help, seeds/000_1b3acf3376692be6.txt line 679 (revision of
    2023-03-23, unchanged in the latest): "you can no longer move the Integrity Cards of zombies".
    The zombie at seat 2 is refused (state unchanged) and no play is listed for it."""
    s = deal({2: "flashbang"}, first_seat=2, options=CLASSIC_ZOMBIES)
    s = shot_earlier(s, 2)
    assert s.seat(2).zombie and s.seat(2).face_up == (True, True, True)
    assert legal_plays(s, 2, "flashbang") == []
    assert refused_unchanged(s, play(2, "flashbang", positions=(1, 2, 3))) == "zombie_cannot"


@pytest.mark.parametrize(
    ("kw", "code"),
    [
        ({"positions": (1, 2)}, "invalid_arrangement"),
        ({"positions": (1, 1, 2)}, "invalid_arrangement"),
        ({"positions": (1, 2, 4)}, "invalid_arrangement"),
        ({"positions": (0, 1, 2)}, "invalid_arrangement"),
        ({"positions": (1, 2, 3, 1)}, "invalid_arrangement"),
        ({}, "bad_parameters"),
        ({"positions": (1, 2, 3), "target": 0}, "bad_parameters"),
    ],
)
def test_refusals(kw, code):
    """RULES §7.2 Flashbang: the new order is an order of your own positions."""
    s = deal({0: "flashbang"}, options=CLASSIC)
    assert refused_unchanged(s, play(0, "flashbang", **kw)) == code


def test_only_from_ones_hand_and_only_at_ones_moment():
    """RULES §6."""
    s = deal({2: "flashbang"}, options=CLASSIC)
    assert refused_unchanged(s, play(0, "flashbang", positions=(1, 2, 3))) == "card_not_in_hand"
    assert refused_unchanged(s, play(2, "flashbang", positions=(1, 2, 3))) == "not_playable_now"


def test_every_listed_play_is_accepted():
    """RULES §7.3: every order of your three cards: 6 plays."""
    s = deal({0: "flashbang"}, options=CLASSIC)
    assert len(legal_plays(s, 0, "flashbang")) == 6
    assert accept_all(s, 0, "flashbang") == 6


@pytest.mark.parametrize("wounds", ["token", "card"])
def test_a_wounded_token_stays_on_its_card_through_the_shuffle(wounds):
    """RULES §4 (`wounds: "token"`: the token sits on the Leader card and moves with it), §7.2
    Flashbang (Decision, flashbang.py: everyone follows the token, so that one card stays known
    to all, though face down; the others are hidden): the wounded Kingpin (seat 1, every card face
    up) lays its cards face down as (3, 1, 2). With the Wounded card on the seat instead, every
    card is hidden."""
    options = TableOptions(edition="classic", wounds=wounds)
    s = shot_earlier(deal({1: "flashbang"}, first_seat=1, options=options), 1)
    s, _ = act(s, C.Discard(seat=1, card=s.seat(1).hand[-1]))  # the card it drew when shot
    s, _ = act(s, play(1, "flashbang", positions=(3, 1, 2)))
    assert s.seat(1).face_up == (False, False, False)
    for viewer in (None, 0, 2):
        seat1 = view(s, viewer, log=False).seats[1]
        if wounds == "token":
            assert [c.card for c in seat1.cards] == [None, "kingpin", None]
            assert [c.wounded for c in seat1.cards] == [False, True, False]
        else:
            assert [c.card for c in seat1.cards] == [None, None, None]
            assert not any(c.wounded for c in seat1.cards) and seat1.wounded
