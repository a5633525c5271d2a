"""Surveillance Camera, classic wording (RULES §7.2): right after an investigation, the investigated
seat turns the card just viewed face up. It does not stay in play. Decision: "right after" is the
first time holders are asked once the investigation has resolved (§6): the window reopened after a
card that investigated (in whatever window it was played, the start-of-game window included), or
the end-of-turn window after an Investigate action; only there. Any investigation counts (the
Investigate action, Metal Detector, Wiretap, Fingerprint Kit); the camera's owner picks which viewed
card when several were (``target`` and ``position``: where it lies now)."""

from __future__ import annotations

import pytest

from gcbc.rules.effects import exchange
from gcbc.rules.evolve import fold
from gcbc_contract import events as E
from gcbc_contract.options import TableOptions
from tests.support import C, act, pass_window, table
from tests.unit.rules.equipment.classic import CLASSIC, revealed_earlier
from tests.unit.rules.equipment.scenario import (
    FOUR,
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
)


def investigated(hands, target=1, position=2, **kw):
    """Seat 0 investigated seat ``target``'s card at ``position``; the end-of-turn window is open."""
    s = deal(hands, options=CLASSIC, **kw)
    s, _ = act(s, C.Investigate(seat=0, target=target, position=position))
    s = pass_current(s)
    assert s.window is not None and s.window.kind == "end_of_turn"
    return s


def test_the_investigated_card_is_turned_face_up():
    """RULES §7.2 Surveillance Camera: seat 0 viewed seat 1's position 2; in the end-of-turn window
    seat 2 plays the camera: that card is turned face up for everyone; the camera goes to the
    bottom of the deck (it does not stay in play)."""
    s = investigated({2: "surveillance_camera"})
    assert s.window.after_investigation == (cid(1, 2),) and s.investigated == ()
    assert legal_plays(s, 2, "surveillance_camera") == [
        play(2, "surveillance_camera", target=1, position=2)
    ]
    s, events = act(s, play(2, "surveillance_camera", target=1, position=2))
    assert one(events, E.EquipmentPlayed).placed_on is None
    assert one(events, E.CardRevealed) == E.CardRevealed(
        seat=1, position=2, card_id=cid(1, 2), card="crooked"
    )
    assert s.seat(1).face_up == (False, True, False)
    for viewer in (None, 2, 3):
        assert known(s, viewer, 1, 2) == "crooked"
    assert s.seat(2).in_play == () and s.deck[-1] == "surveillance_camera"


@pytest.mark.parametrize("holder", [0, 1])
def test_the_investigator_or_the_investigated_seat_may_play_it(holder):
    """RULES §7.2 Surveillance Camera (any holder, in the window)."""
    s = investigated({holder: "surveillance_camera"})
    s, events = act(s, play(holder, "surveillance_camera", target=1, position=2))
    assert one(events, E.CardRevealed).card_id == cid(1, 2)


def test_the_card_is_turned_face_up_where_it_has_moved():
    """RULES §7.2 Surveillance Camera (the card just viewed). Decision: it is the card, wherever it
    is now: given it moved to seat 2's position 1 (an exchange, the engine's event), seat 2 turns
    it face up."""
    s = investigated({2: "surveillance_camera"})
    s = fold([exchange(s, (1, 2), (2, 1))], s)
    assert s.seat(2).cards[0] == cid(1, 2)
    assert legal_plays(s, 2, "surveillance_camera") == [
        play(2, "surveillance_camera", target=2, position=1)
    ]
    assert refused_unchanged(s, play(2, CAMERA, target=1, position=2)) == "invalid_target"
    s, events = act(s, play(2, "surveillance_camera", target=2, position=1))
    assert one(events, E.CardRevealed) == E.CardRevealed(
        seat=2, position=1, card_id=cid(1, 2), card="crooked"
    )


def test_not_when_the_card_is_face_up_already():
    """RULES §7.3 (only when its effect can happen): given the viewed card was turned face up (the
    engine's event) before the camera was played."""
    s = revealed_earlier(investigated({2: "surveillance_camera"}), 1, 2)
    assert s.window is not None and 2 in s.window.pending
    assert legal_plays(s, 2, "surveillance_camera") == []
    assert refused_unchanged(s, play(2, CAMERA, target=1, position=2)) == "no_effect"


def test_not_once_holders_were_asked_again():
    """RULES §7.2 Surveillance Camera (Decision: only the first time holders are asked once the
    investigation resolved): seat 3's classic Truth Serum in the end-of-turn window reopens it; the
    moment has passed."""
    s = investigated({2: "surveillance_camera", 3: "truth_serum"})
    s, _ = act(s, play(3, "truth_serum", target=0))
    s, _ = act(s, C.Choose(seat=0, position=2))
    assert s.window.kind == "end_of_turn" and 2 in s.window.pending
    assert s.window.after_investigation == ()
    assert legal_plays(s, 2, "surveillance_camera") == []
    assert refused_unchanged(s, play(2, CAMERA, target=1, position=2)) == "not_playable_now"


def test_not_after_another_action():
    """RULES §7.2 Surveillance Camera (right after an investigation): after an Equip, nothing was
    investigated."""
    s = deal({2: "surveillance_camera"}, options=CLASSIC)
    s, _ = act(s, C.Equip(seat=0, position=1))
    assert s.window is not None and s.window.kind == "end_of_turn"
    assert s.window.after_investigation == ()
    assert legal_plays(s, 2, "surveillance_camera") == []
    assert refused_unchanged(s, play(2, CAMERA, target=1, position=2)) == "not_playable_now"


def test_not_in_a_later_turn():
    """RULES §7.2 Surveillance Camera (only right after): seat 0's investigation is not answered
    in seat 1's turn, in which seat 1 equips."""
    s = investigated({2: "surveillance_camera"})
    s = pass_window(s)
    assert s.turn_seat == 1 and s.investigated == ()
    s, _ = act(s, C.Equip(seat=1, position=1))
    assert s.window.kind == "end_of_turn" and 2 in s.window.pending
    assert refused_unchanged(s, play(2, CAMERA, target=1, position=2)) == "not_playable_now"


@pytest.mark.parametrize("window", ["investigate", "shoot", "start_of_game", "own_turn"])
def test_not_at_any_other_moment(window):
    """RULES §7.2 Surveillance Camera (right after an investigation), §6: with no investigation
    just resolved, not in the investigate window (the card is not seen yet), the shoot window,
    before the first turn, or in one's turn."""
    if window == "start_of_game":
        s = table(FOUR, [[], [], ["surveillance_camera"], []], start_window=False, options=CLASSIC)
        seat = 2
    elif window == "own_turn":
        s = end_turn(investigated({1: "surveillance_camera"}))
        assert s.turn_seat == 1 and s.step == "action"
        seat = 1
    else:
        s = open_window(deal({2: "surveillance_camera"}, guns={0: 1}, options=CLASSIC), window)
        seat = 2
    assert legal_plays(s, seat, "surveillance_camera") == []
    assert refused_unchanged(s, play(seat, "surveillance_camera")) == "not_playable_now"


def test_refusals():
    """RULES §7.3: it names the viewed card (seat and position); only from one's hand."""
    s = investigated({2: "surveillance_camera", 3: "coffee"})
    assert refused_unchanged(s, play(2, CAMERA)) == "bad_parameters"
    assert refused_unchanged(s, play(2, CAMERA, target=1)) == "bad_parameters"
    assert refused_unchanged(s, play(2, CAMERA, position=2)) == "bad_parameters"
    assert refused_unchanged(s, play(2, CAMERA, target=1, position=1)) == "invalid_target"
    assert refused_unchanged(s, play(2, CAMERA, target=3, position=2)) == "invalid_target"
    assert refused_unchanged(s, play(3, CAMERA, target=1, position=2)) == "card_not_in_hand"


def test_every_listed_play_is_accepted():
    """RULES §7.3: one play per viewed card."""
    assert accept_all(investigated({3: "surveillance_camera"}), 3, "surveillance_camera") == 1


# --- any investigation, where it is answered, and the owner's pick (RULES §7.2) -----------------
CAMERA = "surveillance_camera"


def test_a_wiretap_counts_and_the_owner_picks_which_viewed_card():
    """RULES §7.2 Surveillance Camera (any investigation counts: Wiretap; the owner of the camera
    picks which viewed card when several were): seat 0 wiretaps seat 1's position 3 and seat 2's
    position 1 in its own turn, then equips; the end-of-turn window is the first asking after it,
    and there seat 3 picks seat 2's card."""
    s = deal({0: "wiretap", 3: CAMERA}, options=CLASSIC)
    s, _ = act(s, play(0, "wiretap", targets=(1, 2), positions=(3, 1)))
    s, _ = act(s, C.Equip(seat=0, position=1))
    assert s.window is not None and s.window.kind == "end_of_turn"
    assert legal_plays(s, 3, CAMERA) == [
        play(3, CAMERA, target=1, position=3),
        play(3, CAMERA, target=2, position=1),
    ]
    s, events = act(s, play(3, CAMERA, target=2, position=1))
    assert one(events, E.CardRevealed) == E.CardRevealed(
        seat=2, position=1, card_id=cid(2, 1), card="honest"
    )
    assert s.seat(1).face_up == (False, False, False)
    assert known(s, None, 1, 3) is None


def test_a_metal_detector_counts_in_the_window_reopened_after_it():
    """RULES §7.2 Surveillance Camera (any investigation counts: Metal Detector; the window reopened
    after it, then the end-of-turn window after the Investigate action): seat 2 plays it in seat
    0's investigate window, viewing seat 0's position 3 (seat 0 holds a gun): the reopened window
    offers that card; seat 0 then views seat 1's position 1: the end-of-turn window offers that
    one alone."""
    s = deal({2: "metal_detector", 3: CAMERA}, guns={0: 1}, options=CLASSIC)
    s, _ = act(s, C.Investigate(seat=0, target=1, position=1))
    s, _ = act(s, play(2, "metal_detector", targets=(0,), positions=(3,)))
    assert s.window.kind == "investigate" and s.window.pending == (3,)
    assert [(c.target, c.position) for c in legal_plays(s, 3, CAMERA)] == [(0, 3)]
    _, events = act(s, play(3, CAMERA, target=0, position=3))
    assert one(events, E.CardRevealed).card_id == cid(0, 3)
    s = pass_current(s)
    if s.step == "aim":
        s, _ = act(s, C.Aim(seat=0, target=1))
    assert s.window.kind == "end_of_turn"
    assert [(c.target, c.position) for c in legal_plays(s, 3, CAMERA)] == [(1, 1)]


@pytest.mark.parametrize("card", ["wiretap", "metal_detector"])
def test_a_card_that_investigated_in_a_shoot_window_is_answered_there_not_at_the_turns_end(card):
    """RULES §7.2 Surveillance Camera (Decision: the window reopened after a card that investigated,
    in whatever window it was played; only there): seat 2 investigates seat 0's position 1 in seat
    0's shoot window; the reopened shoot window offers it; seat 3 passes; seat 0 reconsiders and
    equips: the end-of-turn window does not."""
    s = deal({2: card, 3: CAMERA}, guns={0: 1}, options=CLASSIC)
    s, _ = act(s, C.Shoot(seat=0))
    if card == "wiretap":
        s, _ = act(s, play(2, card, targets=(0, 1), positions=(1, 2)))
        offered = [(0, 1), (1, 2)]
    else:
        s, _ = act(s, play(2, card, targets=(0,), positions=(1,)))
        offered = [(0, 1)]
    assert s.window.kind == "shoot" and s.window.pending == (3,)
    assert [(c.target, c.position) for c in legal_plays(s, 3, CAMERA)] == offered
    assert accept_all(s, 3, CAMERA) == len(offered)
    s, _ = act(s, C.Pass(seat=3))
    assert s.step == "action" and s.turn_seat == 0  # the shooter reconsiders (RULES §6)
    s, _ = act(s, C.Equip(seat=0, position=3))
    if s.step == "aim":
        s, _ = act(s, C.Aim(seat=0, target=1))
    assert s.window.kind == "end_of_turn" and 3 in s.window.pending
    assert legal_plays(s, 3, CAMERA) == []
    assert refused_unchanged(s, play(3, CAMERA, target=0, position=1)) == "not_playable_now"


def test_a_wiretap_in_the_start_of_game_window_is_answered_there():
    """RULES §7.2 Surveillance Camera (Decision: the start-of-game window included): seat 0's
    Wiretap before the first turn; the reopened start-of-game window offers both cards; seat 3
    turns seat 1's face up. Passed instead, it is not offered in the first turn's windows."""
    s = table(FOUR, [["wiretap"], [], [], [CAMERA]], start_window=False, options=CLASSIC)
    s, _ = act(s, play(0, "wiretap", targets=(1, 2), positions=(3, 1)))
    assert s.window.kind == "start_of_game" and s.window.pending == (3,)
    assert [(c.target, c.position) for c in legal_plays(s, 3, CAMERA)] == [(1, 3), (2, 1)]
    _, events = act(s, play(3, CAMERA, target=1, position=3))
    assert one(events, E.CardRevealed).card_id == cid(1, 3)
    s = pass_window(s)
    s, _ = act(s, C.Investigate(seat=0, target=3, position=1))
    assert s.window.kind == "investigate" and s.window.after_investigation == ()
    assert legal_plays(s, 3, CAMERA) == []


def test_a_wiretap_in_ones_turn_is_answered_in_the_next_window():
    """RULES §7.2 Surveillance Camera (the first time holders are asked once the investigation has
    resolved), §3.1 (a card may be investigated again): seat 0 wiretaps in its own turn, then
    investigates one of those cards: the investigate window answers the Wiretap, the end-of-turn
    window the Investigate action (the card viewed twice offered once each time)."""
    s = deal({0: "wiretap", 3: CAMERA}, options=CLASSIC)
    s, _ = act(s, play(0, "wiretap", targets=(1, 2), positions=(2, 1)))
    s, _ = act(s, C.Investigate(seat=0, target=1, position=2))
    assert s.window.kind == "investigate"
    assert [(c.target, c.position) for c in legal_plays(s, 3, CAMERA)] == [(1, 2), (2, 1)]
    s = pass_current(s)
    assert s.window.kind == "end_of_turn"
    assert [(c.target, c.position) for c in legal_plays(s, 3, CAMERA)] == [(1, 2)]


def test_a_fingerprint_kit_counts():
    """RULES §9 Fingerprint Kit (a Surveillance Camera answers it), §7.2 (the window reopened after
    a card that investigated): on a classic table with extra equipment, seat 2 fingerprints seat
    1's position 2 in seat 0's investigate window and declines to take the kit back; the reopened
    window offers that card."""
    options = TableOptions(edition="classic", extra_equipment=True)
    s = deal({2: "fingerprint_kit", 3: CAMERA}, options=options)
    s, _ = act(s, C.Investigate(seat=0, target=3, position=1))
    s, _ = act(s, play(2, "fingerprint_kit", target=1, position=2))
    assert legal_plays(s, 3, CAMERA) == []  # its prompt first
    s, _ = act(s, C.Choose(seat=2))
    assert s.window.kind == "investigate" and s.window.pending == (3,)
    assert legal_plays(s, 3, CAMERA) == [play(3, CAMERA, target=1, position=2)]


def test_a_polygraph_does_not_count():
    """RULES §7.1/§7.2 (Decision: Polygraph is not an investigation a camera answers): seat 0 uses
    a Polygraph on seat 1, then equips: nothing to turn face up."""
    s = deal({0: "polygraph", 3: CAMERA}, options=CLASSIC)
    s, _ = act(s, play(0, "polygraph", target=1))
    s, _ = act(s, C.Equip(seat=0, position=1))
    assert s.window.kind == "end_of_turn" and s.window.after_investigation == ()
    assert legal_plays(s, 3, CAMERA) == []
