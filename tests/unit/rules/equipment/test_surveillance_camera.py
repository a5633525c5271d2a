"""Surveillance Camera (RULES §7.1): stays in play in front of you; for the rest of the game,
whenever someone investigates one of your cards (Investigate, Metal Detector, Wiretap), you view
one face-down card of theirs, your choice: a prompt to you (§7.3)."""

from __future__ import annotations

import pytest

from gcbc.rules import legal_commands, view
from gcbc_contract import events as E
from tests.support import C, act, pass_window
from tests.unit.rules.equipment.scenario import (
    WINDOWS,
    accept_all,
    accept_all_prompt,
    cid,
    deal,
    known,
    of,
    one,
    open_window,
    play,
    refused_unchanged,
)


def test_own_turn_it_stays_in_play_in_front_of_its_owner():
    """RULES §6, §7.1 Surveillance Camera: played by seat 0, it stays in front of seat 0."""
    s = deal({0: "surveillance_camera"})
    deck = s.deck
    s, events = act(s, play(0, "surveillance_camera"))
    assert one(events, E.EquipmentPlayed).placed_on == 0
    assert s.seat(0).in_play == ("surveillance_camera",) and s.seat(0).hand == ()
    assert s.deck == deck
    assert view(s, None, log=False).seats[0].in_play == ["surveillance_camera"]
    assert s.step == "action" and s.turn_seat == 0


@pytest.mark.parametrize("window", WINDOWS)
def test_in_a_window(window):
    """RULES §7.1 Surveillance Camera (any window): seat 3 puts it in front of itself."""
    s = open_window(deal({3: "surveillance_camera"}, guns={0: 1}), window, avoid=(3,))
    s, events = act(s, play(3, "surveillance_camera"))
    assert one(events, E.EquipmentPlayed).placed_on == 3
    assert s.seat(3).in_play == ("surveillance_camera",)


def given_camera_on_seat_1(hands=None, **kw):
    """Seat 1 put its camera in play before the first turn."""
    hands = {1: "surveillance_camera", **(hands or {})}
    return deal(hands, setup=[play(1, "surveillance_camera")], **kw)


def test_an_investigation_prompts_the_owner_to_view_a_card_of_the_investigator():
    """RULES §7.1 Surveillance Camera: seat 0 investigates seat 1's card; after seat 0 sees it, seat
    1 is asked which face-down card of seat 0 to view; it views the Agent; then the turn goes on."""
    # given
    s = given_camera_on_seat_1(guns={0: 2})
    # when
    s, events = act(s, C.Investigate(seat=0, target=1, position=2))
    # then
    viewed = one(events, E.CardViewed)
    assert (viewed.viewer, viewed.seat, viewed.position, viewed.means) == (0, 1, 2, "investigate")
    assert one(events, E.PromptOpened) == E.PromptOpened(
        seat=1, kind="surveillance_camera", options=(1, 2, 3), about=0
    )
    prompt = view(s, 1, log=False).prompt
    assert (prompt.seat, prompt.kind, prompt.options, prompt.about) == (
        1,
        "surveillance_camera",
        [1, 2, 3],
        0,
    )
    assert legal_commands(s, 1)[:3] == [C.Choose(seat=1, position=p) for p in (1, 2, 3)]
    assert legal_commands(s, 0) == [C.SetAutoPass(seat=0, enabled=True)]
    # when
    s, events = act(s, C.Choose(seat=1, position=1))
    # then
    assert events[:2] == [
        E.PromptAnswered(seat=1, kind="surveillance_camera", position=1),
        E.CardViewed(
            viewer=1,
            seat=0,
            position=1,
            card_id=cid(0, 1),
            card="agent",
            means="surveillance_camera",
        ),
    ]
    assert known(s, 1, 0, 1) == "agent" and known(s, 2, 0, 1) is None
    seen = view(s, None, log=False).seats[0].cards[0].seen
    assert [(x.seat, x.by) for x in seen] == [(1, "surveillance_camera")]
    assert s.step == "aim" and s.turn_seat == 0


def test_only_face_down_cards_of_the_investigator_are_offered():
    """RULES §7.1 Surveillance Camera (one face-down card of theirs): seat 0 turned its position 2
    face up (Truth Serum), so seat 1 may choose position 1 or 3 only."""
    s = given_camera_on_seat_1(hands={0: "truth_serum"})
    s, _ = act(s, play(0, "truth_serum", target=0, position=2))
    s, events = act(s, C.Investigate(seat=0, target=1, position=1))
    assert one(events, E.PromptOpened).options == (1, 3)
    assert refused_unchanged(s, C.Choose(seat=1, position=2)) == "invalid_choice"
    assert accept_all_prompt(s) == 2


def test_wiretap_triggers_it():
    """RULES §7.1 Surveillance Camera and Wiretap (an investigation)."""
    s = given_camera_on_seat_1(hands={0: "wiretap"})
    s, events = act(s, play(0, "wiretap", targets=(1, 2), positions=(3, 3)))
    assert one(events, E.PromptOpened) == E.PromptOpened(
        seat=1, kind="surveillance_camera", options=(1, 2, 3), about=0
    )


def test_investigating_another_seat_prompts_nobody():
    """RULES §7.1 Surveillance Camera (one of *your* cards)."""
    s = given_camera_on_seat_1()
    s, events = act(s, C.Investigate(seat=0, target=2, position=1))
    assert of(events, E.PromptOpened) == [] and s.prompts == ()


def test_it_lasts_for_the_rest_of_the_game():
    """RULES §7.1 Surveillance Camera (for the rest of the game): a second investigation of seat 1
    prompts again."""
    s = given_camera_on_seat_1(hands={0: "wiretap"})
    s, _ = act(s, play(0, "wiretap", targets=(1, 2), positions=(3, 3)))
    s, _ = act(s, C.Choose(seat=1, position=2))
    s, events = act(s, C.Investigate(seat=0, target=1, position=1))
    assert one(events, E.PromptOpened).seat == 1
    assert s.seat(1).in_play == ("surveillance_camera",)


def test_prompt_answers_are_checked():
    """RULES §7.1 Surveillance Camera, §7.3: only the owner answers, with a position offered."""
    s = given_camera_on_seat_1(hands={3: "coffee"})
    s, _ = act(s, C.Investigate(seat=0, target=1, position=1))
    s = pass_window(s)  # seat 3 passes: the investigation resolves
    assert s.prompts[0].seat == 1
    assert refused_unchanged(s, C.Choose(seat=1, position=4)) == "invalid_choice"
    assert refused_unchanged(s, C.Choose(seat=1)) == "invalid_choice"
    assert refused_unchanged(s, C.Choose(seat=1, position=1, target=0)) == "invalid_choice"
    assert refused_unchanged(s, C.Choose(seat=1, position=1, card="coffee")) == "invalid_choice"
    assert refused_unchanged(s, C.Discard(seat=1, card="coffee")) == "invalid_choice"
    assert refused_unchanged(s, C.Choose(seat=0, position=1)) == "not_waiting_for_you"
    assert refused_unchanged(s, play(3, "coffee")) == "prompt_pending"
    assert refused_unchanged(s, C.Aim(seat=0, target=2)) == "prompt_pending"


def test_refusals():
    """RULES §6, §7.3: it takes no parameter; from one's own hand, at one's moment."""
    s = deal({0: "surveillance_camera", 2: "coffee"})
    assert refused_unchanged(s, play(0, "surveillance_camera", target=1)) == "bad_parameters"
    assert refused_unchanged(s, play(1, "surveillance_camera")) == "card_not_in_hand"
    t = deal({2: "surveillance_camera"})
    assert refused_unchanged(t, play(2, "surveillance_camera")) == "not_playable_now"


def test_every_listed_play_and_answer_is_accepted():
    """RULES §7.3."""
    assert accept_all(deal({0: "surveillance_camera"}), 0, "surveillance_camera") == 1
    s = given_camera_on_seat_1()
    s, _ = act(s, C.Investigate(seat=0, target=1, position=1))
    assert accept_all_prompt(s) == 3


def test_no_return_look_at_an_investigator_protected_by_disguise():
    """RULES §7.1 Surveillance Camera (the return look is an investigation: it cannot reach a seat
    protected by Disguise, and no prompt opens), Disguise: seat 0, disguised before the first turn,
    investigates seat 1's card; seat 0 sees it, and seat 1 is asked nothing."""
    # given seat 1's camera in play and a Disguise in front of seat 0
    s = deal(
        {1: "surveillance_camera", 2: "disguise"},
        setup=[play(1, "surveillance_camera"), play(2, "disguise", target=0)],
    )
    assert s.seat(0).in_play == ("disguise",)
    # when seat 0 investigates seat 1
    s, events = act(s, C.Investigate(seat=0, target=1, position=2))
    # then seat 0 sees the card, no prompt opens, and the turn goes on to the Aim phase or its end
    assert one(events, E.CardViewed).viewer == 0
    assert of(events, E.PromptOpened) == [] and s.prompts == ()
    assert [known(s, 1, 0, p) for p in (1, 2, 3)] == [None, None, None]


def test_a_disguise_elsewhere_does_not_stop_the_return_look():
    """RULES §7.1 Surveillance Camera, Disguise (only the protected seat's cards): a Disguise in
    front of seat 3 changes nothing when seat 0 investigates seat 1."""
    s = deal(
        {1: "surveillance_camera", 2: "disguise"},
        setup=[play(1, "surveillance_camera"), play(2, "disguise", target=3)],
    )
    s, events = act(s, C.Investigate(seat=0, target=1, position=2))
    assert one(events, E.PromptOpened).seat == 1
