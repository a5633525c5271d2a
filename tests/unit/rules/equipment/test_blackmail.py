"""Blackmail (RULES §7.1): two other living seats exchange the integrity cards you choose, each card
taking the other's position and keeping its face; you see neither, each receiver learns its card.
Needs 3 living seats."""

from __future__ import annotations

import pytest

from gcbc.rules import view
from gcbc_contract import events as E
from tests.support import C, act, pass_window
from tests.unit.rules.equipment.scenario import (
    WINDOWS,
    accept_all,
    cid,
    deal,
    known,
    legal_plays,
    one,
    open_window,
    play,
    refused_unchanged,
    shot_earlier,
    team,
)


def test_own_turn_exchange_moves_cards_and_keeps_the_action():
    """RULES §7.1 Blackmail, §6.1: on its own turn, before its action, seat 0 makes seats 1 and 2
    exchange the chosen cards; each takes the other's position."""
    # given
    s = deal({0: "blackmail"})
    # when
    s, events = act(s, play(0, "blackmail", targets=(1, 2), positions=(2, 1)))
    # then
    assert one(events, E.EquipmentPlayed).card == "blackmail"
    assert one(events, E.CardsExchanged) == E.CardsExchanged(
        seats=(1, 2), positions=(2, 1), card_ids=(cid(1, 2), cid(2, 1)), cards=("crooked", "honest")
    )
    assert s.seat(1).cards == (cid(1, 1), cid(2, 1), cid(1, 3))
    assert s.seat(2).cards == (cid(1, 2), cid(2, 2), cid(2, 3))
    assert s.seat(0).hand == () and s.deck[-1] == "blackmail"
    # not an action: seat 0 still chooses its action
    assert s.step == "action" and s.turn_seat == 0 and s.declared is None


def test_receivers_learn_their_card_and_the_player_learns_neither():
    """RULES §7.1 Blackmail, §11: each receiving seat knows the card it received (and still follows
    the one it gave); the player sees neither; other seats learn nothing."""
    s = deal({0: "blackmail"})
    s, _ = act(s, play(0, "blackmail", targets=(1, 2), positions=(2, 1)))
    # receivers
    assert known(s, 1, 1, 2) == "honest"
    assert known(s, 2, 2, 1) == "crooked"
    # each giver follows the card it gave away
    assert known(s, 1, 2, 1) == "crooked"
    assert known(s, 2, 1, 2) == "honest"
    # the player and a bystander see neither
    for viewer in (0, 3, None):
        assert known(s, viewer, 1, 2) is None
        assert known(s, viewer, 2, 1) is None
    # the log tells each receiver what it received, and nobody else
    entries = {v: view(s, v).log[-1] for v in (0, 1, 2, 3)}
    assert all(e["type"] == "cards_exchanged" for e in entries.values())
    assert entries[1]["received"] == "honest" and entries[2]["received"] == "crooked"
    for v in (0, 3):
        assert "received" not in entries[v] and "cards" not in entries[v]


@pytest.mark.parametrize("window", WINDOWS)
def test_in_a_reaction_window(window):
    """RULES §7.1 Blackmail (any window), §6: seat 2 plays it in the window of seat 0's turn; the
    window is asked again afterwards."""
    s = deal({2: "blackmail", 3: "coffee"}, guns={0: 1})
    s = open_window(s, window, avoid=(1, 3))
    s, events = act(s, play(2, "blackmail", targets=(1, 3), positions=(1, 3)))
    assert one(events, E.CardsExchanged).card_ids == (cid(1, 1), cid(3, 3))
    assert s.seat(1).cards[0] == cid(3, 3) and s.seat(3).cards[2] == cid(1, 1)
    assert one(events, E.WindowReopened).kind == window
    assert s.window.pending == (3,)
    # the Kingpin moved: seat 3 knows it holds it now
    assert known(s, 3, 3, 3) == "kingpin"


def test_each_card_keeps_its_face():
    """RULES §7.1 Blackmail: a face-up card stays face up at its new place, a face-down one stays
    face down."""
    # given seat 3 armed and turned its crooked card (position 1) face up
    s = deal({2: "blackmail"}, first_seat=3)
    s, _ = act(s, C.Arm(seat=3, target=0, position=1))
    s, _ = act(s, C.Aim(seat=3, target=0))
    assert s.window.kind == "end_of_turn" and s.seat(3).face_up == (True, False, False)
    # when seat 2 makes the Kingpin (face down, seat 1) and that face-up card exchange
    s, _ = act(s, play(2, "blackmail", targets=(1, 3), positions=(1, 1)))
    # then
    assert s.seat(1).cards[0] == cid(3, 1) and s.seat(1).face_up == (True, False, False)
    assert s.seat(3).cards[0] == cid(1, 1) and s.seat(3).face_up == (False, False, False)
    assert known(s, None, 1, 1) == "crooked"
    assert known(s, None, 3, 1) is None
    assert known(s, 3, 3, 1) == "kingpin"


def test_teams_are_recomputed():
    """RULES §2, §7.1 Blackmail: seat 3 (crooked majority) receives the Agent and is honest."""
    s = deal({2: "blackmail"}, first_seat=2)
    assert team(s, 3) == "crooked"
    s, _ = act(s, play(2, "blackmail", targets=(0, 3), positions=(1, 1)))
    assert team(s, 3) == "honest"
    assert team(s, 0) == "honest"  # crooked, honest, honest: the honest majority decides now


def test_holding_both_leaders_wins_alone_at_once():
    """RULES §2, §7.1 Blackmail: seat 0 (Agent) receives the Kingpin and wins alone at once."""
    s = deal({2: "blackmail"}, first_seat=2)
    s, events = act(s, play(2, "blackmail", targets=(0, 1), positions=(2, 1)))
    assert one(events, E.GameWon) == E.GameWon(winners=(0,), team="solo", reason="both_leaders")
    assert s.step == "finished" and s.winners == (0,)


def test_needs_three_living_seats():
    """RULES §7.1 Blackmail (needs 3 living seats), §7.3: with only the player and one other seat
    alive, Blackmail is neither listed nor accepted."""
    s = deal({0: "blackmail"})
    s = shot_earlier(s, 2)
    s = shot_earlier(s, 3)
    assert legal_plays(s, 0, "blackmail") == []
    assert refused_unchanged(s, play(0, "blackmail", targets=(1, 2), positions=(1, 1))) == (
        "not_enough_seats"
    )


@pytest.mark.parametrize(
    ("kw", "code"),
    [
        ({"targets": (0, 1), "positions": (1, 1)}, "target_is_self"),
        ({"targets": (1, 2), "positions": (1, 1)}, "target_eliminated"),
        ({"targets": (1, 1), "positions": (1, 2)}, "invalid_target"),
        ({"targets": (1, 9), "positions": (1, 1)}, "invalid_target"),
        ({"targets": (1,), "positions": (1,)}, "bad_parameters"),
        ({"targets": (1, 3), "positions": (1,)}, "bad_parameters"),
        ({"targets": (1, 3)}, "bad_parameters"),
        ({"positions": (1, 1)}, "bad_parameters"),
        ({"targets": (1, 3), "positions": (1, 1), "target": 1}, "bad_parameters"),
        ({"targets": (1, 3), "positions": (1, 1), "choice": "hand"}, "bad_parameters"),
        ({"targets": (1, 3), "positions": (1, 4)}, "invalid_position"),
        ({"targets": (1, 3), "positions": (0, 1)}, "invalid_position"),
    ],
)
def test_bad_targets_are_refused(kw, code):
    """RULES §7.3, §7.1 Blackmail: two different other living seats, with one position (1-3)
    each, and nothing else."""
    s = shot_earlier(deal({0: "blackmail"}), 2)
    assert refused_unchanged(s, play(0, "blackmail", **kw)) == code


def test_wrong_moments_and_hands_are_refused():
    """RULES §6: equipment is played from one's own hand, in one's own turn before the action or
    when asked in a window; not in another seat's turn, not in the Aim phase, not after passing."""
    s = deal({1: "blackmail", 2: "coffee"}, guns={0: 1})
    cmd = play(1, "blackmail", targets=(2, 3), positions=(1, 1))
    # another seat's action phase
    assert refused_unchanged(s, cmd) == "not_playable_now"
    # not in hand
    assert refused_unchanged(s, play(0, "blackmail", targets=(2, 3), positions=(1, 1))) == (
        "card_not_in_hand"
    )
    # seat 1 passed in the window while seat 2 is still asked
    w = open_window(s, "investigate")
    w, _ = act(w, C.Pass(seat=1))
    assert refused_unchanged(w, cmd) == "not_playable_now"
    # the Aim phase
    a, _ = act(s, C.Investigate(seat=0, target=2, position=1))
    a = pass_window(a)
    assert a.step == "aim"
    assert refused_unchanged(a, cmd) == "not_playable_now"


def test_every_listed_play_is_accepted():
    """RULES §7.3: every play listed in legal_commands is accepted (3 pairs x 9 positions)."""
    s = deal({0: "blackmail"})
    assert accept_all(s, 0, "blackmail") == 27
    w = open_window(deal({2: "blackmail"}, guns={0: 1}), "shoot")
    assert accept_all(w, 2, "blackmail") == 27
    # the player is never one of the two seats
    assert all(0 not in c.targets for c in legal_plays(s, 0, "blackmail"))


@pytest.mark.parametrize(
    ("card", "holder", "pair"),
    [
        ("blackmail", {0: "blackmail"}, ((1, 3), (1, 2))),
        ("wiretap", {0: "wiretap"}, ((1, 3), (1, 2))),
    ],
)
def test_a_pair_of_seats_may_be_named_in_either_order(card, holder, pair):
    """RULES §7.3 (the choices a card needs are part of the command), §7.1: Blackmail's and
    Wiretap's two seats are a pair. Decision: named in either order, each with its own card,
    they are the same play, with the same events and the same state as the order the options
    list them in (increasing seats)."""
    (a, b), (pa, pb) = pair
    s = deal(holder)
    listed, listed_events = act(s, play(0, card, targets=(a, b), positions=(pa, pb)))
    other, other_events = act(s, play(0, card, targets=(b, a), positions=(pb, pa)))
    assert other_events == listed_events and other == listed
    assert refused_unchanged(s, play(0, card, targets=(b, a), positions=(pb,))) == (
        "bad_parameters"
    )
