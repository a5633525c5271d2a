"""Truth Serum, classic wording (RULES §7.2): choose a seat; that seat turns one of its face-down
cards face up, its choice: a prompt to it (§7.3)."""

from __future__ import annotations

import pytest

from gcbc.rules import legal_commands, view
from gcbc_contract import events as E
from tests.support import C, act
from tests.unit.rules.equipment.classic import CLASSIC, CLASSIC_ZOMBIES, revealed_earlier
from tests.unit.rules.equipment.scenario import (
    WINDOWS,
    accept_all,
    accept_all_prompt,
    cid,
    deal,
    known,
    legal_plays,
    of,
    one,
    open_window,
    play,
    refused_unchanged,
    shot_earlier,
)


def test_the_chosen_seat_picks_the_card_it_turns_face_up():
    """RULES §7.2 Truth Serum (that seat turns one of its face-down cards face up, its choice),
    §7.3 (a prompt to that seat), §11: seat 0 chooses seat 1; seat 1 is asked, with its
    face-down positions; it turns up position 2, seen by everyone; seat 0's turn goes on."""
    s = deal({0: "truth_serum"}, options=CLASSIC)
    s, events = act(s, play(0, "truth_serum", target=1))
    assert of(events, E.CardRevealed) == []
    assert one(events, E.PromptOpened) == E.PromptOpened(
        seat=1, kind="truth_serum", options=(1, 2, 3), about=0
    )
    prompt = view(s, None, log=False).prompt
    assert (prompt.seat, prompt.kind, prompt.options, prompt.about) == (
        1,
        "truth_serum",
        [1, 2, 3],
        0,
    )
    assert legal_commands(s, 1)[:3] == [C.Choose(seat=1, position=p) for p in (1, 2, 3)]
    assert legal_commands(s, 0) == [C.SetAutoPass(seat=0, enabled=True)]
    s, events = act(s, C.Choose(seat=1, position=2))
    assert events[:2] == [
        E.PromptAnswered(seat=1, kind="truth_serum", position=2),
        E.CardRevealed(seat=1, position=2, card_id=cid(1, 2), card="crooked"),
    ]
    assert s.seat(1).face_up == (False, True, False)
    for viewer in (None, 0, 2, 3):
        assert known(s, viewer, 1, 2) == "crooked"
    assert s.prompts == () and s.step == "action" and s.turn_seat == 0
    assert s.deck[-1] == "truth_serum"


@pytest.mark.parametrize("window", WINDOWS)
def test_in_a_window(window):
    """RULES §7.2 Truth Serum (any window), §6 (every holder is asked again after a play): seat 2
    chooses seat 3, which turns up its position 3; then the window is asked again."""
    hands = {2: "truth_serum", 1: "coffee"}
    s = open_window(deal(hands, guns={0: 1}, options=CLASSIC), window, avoid=(3,))
    s, _ = act(s, play(2, "truth_serum", target=3))
    assert s.prompts[0].seat == 3 and s.window.kind == window
    s, events = act(s, C.Choose(seat=3, position=3))
    assert one(events, E.CardRevealed).card == "crooked"
    assert s.seat(3).face_up == (False, False, True)
    assert one(events, E.WindowReopened).kind == window


def test_only_face_down_cards_are_offered():
    """RULES §7.2 Truth Serum (one of its face-down cards): seat 2 already shows position 1, so it
    chooses between 2 and 3."""
    s = revealed_earlier(deal({0: "truth_serum"}, options=CLASSIC), 2, 1)
    s, events = act(s, play(0, "truth_serum", target=2))
    assert one(events, E.PromptOpened).options == (2, 3)
    assert refused_unchanged(s, C.Choose(seat=2, position=1)) == "invalid_choice"
    assert accept_all_prompt(s) == 2


def test_may_choose_yourself():
    """RULES §7.2 Truth Serum (choose a seat). Decision: yourself included."""
    s = deal({0: "truth_serum"}, options=CLASSIC)
    s, events = act(s, play(0, "truth_serum", target=0))
    assert one(events, E.PromptOpened).seat == 0
    s, events = act(s, C.Choose(seat=0, position=3))
    assert one(events, E.CardRevealed) == E.CardRevealed(
        seat=0, position=3, card_id=cid(0, 3), card="honest"
    )
    assert s.step == "action" and s.turn_seat == 0


def test_a_seat_with_no_face_down_card_cannot_be_chosen():
    """RULES §7.3 (only when its effect can happen): the wounded Kingpin shows all its cards."""
    s = shot_earlier(deal({0: "truth_serum"}, options=CLASSIC), 1)
    assert s.seat(1).face_up == (True, True, True) and not s.seat(1).eliminated
    assert 1 not in {c.target for c in legal_plays(s, 0, "truth_serum")}
    assert refused_unchanged(s, play(0, "truth_serum", target=1)) == "no_effect"


def test_refusals():
    """RULES §7.2 Truth Serum, §7.3: a living seat; one ``target``, no position (the chosen seat
    picks the card)."""
    s = shot_earlier(deal({0: "truth_serum"}, options=CLASSIC), 2)
    assert refused_unchanged(s, play(0, "truth_serum", target=2)) == "target_eliminated"
    assert refused_unchanged(s, play(0, "truth_serum", target=9)) == "invalid_target"
    assert refused_unchanged(s, play(0, "truth_serum", target=-1)) == "invalid_target"
    assert refused_unchanged(s, play(0, "truth_serum")) == "bad_parameters"
    assert refused_unchanged(s, play(0, "truth_serum", target=1, position=1)) == "bad_parameters"
    assert refused_unchanged(s, play(1, "truth_serum", target=1)) == "card_not_in_hand"


def test_prompt_answers_are_checked():
    """RULES §7.3 (the choice belongs to that seat): only seat 1 answers, with a position offered;
    nothing else happens meanwhile."""
    s = deal({0: "truth_serum", 3: "coffee"}, options=CLASSIC)
    s, _ = act(s, play(0, "truth_serum", target=1))
    assert refused_unchanged(s, C.Choose(seat=1, position=4)) == "invalid_choice"
    assert refused_unchanged(s, C.Choose(seat=1)) == "invalid_choice"
    assert refused_unchanged(s, C.Choose(seat=1, position=1, target=1)) == "invalid_choice"
    assert refused_unchanged(s, C.Choose(seat=1, position=1, card="coffee")) == "invalid_choice"
    assert refused_unchanged(s, C.Discard(seat=1, card="coffee")) == "invalid_choice"
    assert refused_unchanged(s, C.Choose(seat=0, position=1)) == "not_waiting_for_you"
    assert refused_unchanged(s, C.Investigate(seat=0, target=2, position=1)) == "prompt_pending"


def test_a_zombie_with_face_up_cards_is_not_offered():
    """RULES §8 (a zombie's cards are revealed), §7.3."""
    s = shot_earlier(deal({0: "truth_serum"}, options=CLASSIC_ZOMBIES), 2)
    assert s.seat(2).zombie
    assert {c.target for c in legal_plays(s, 0, "truth_serum")} == {0, 1, 3}
    assert refused_unchanged(s, play(0, "truth_serum", target=2)) == "no_effect"


def test_played_on_oneself_the_card_to_turn_comes_with_the_play():
    """RULES §7.3 (a choice of one's own is part of the command): seat 0 plays it on itself
    naming position 2, which turns face up at once; on another seat the position is that
    seat's choice (bad_parameters)."""
    s = deal({0: "truth_serum"}, options=CLASSIC)
    t, events = act(s, play(0, "truth_serum", target=0, position=2))
    assert E.PromptAnswered(seat=0, kind="truth_serum", position=2) in events
    assert t.seat(0).face_up[1] and not t.prompts
    assert refused_unchanged(s, play(0, "truth_serum", target=1, position=2)) == "bad_parameters"


def test_every_listed_play_and_answer_is_accepted():
    """RULES §7.3: one play per living seat with a face-down card, and on oneself one per own
    face-down card too (a choice of one's own comes with the play); one answer per such card."""
    s = deal({0: "truth_serum"}, options=CLASSIC)
    plays = [(c.target, c.position) for c in legal_plays(s, 0, "truth_serum")]
    assert plays == [(0, None), (1, None), (2, None), (3, None), (0, 1), (0, 2), (0, 3)]
    assert accept_all(s, 0, "truth_serum") == 7
    s, _ = act(s, play(0, "truth_serum", target=3))
    assert accept_all_prompt(s) == 3


def test_the_fourth_edition_keeps_its_own_wording():
    """RULES §7.1 vs §7.2: on a fourth-edition table Truth Serum names the card itself."""
    s = deal({0: "truth_serum"})
    s, events = act(s, play(0, "truth_serum", target=1, position=1))
    assert one(events, E.CardRevealed).card == "kingpin" and s.prompts == ()
