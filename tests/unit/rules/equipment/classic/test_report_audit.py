"""Report Audit (RULES §7.2, classic only, 6+ players): your own turn, not your action. Every seat
with no face-up integrity card turns one of its own cards face up, its choice: a prompt to each
(§7.3), queued in turn order starting from you."""

from __future__ import annotations

import pytest

from gcbc.rules import legal_commands
from gcbc.rules.evolve import fold
from gcbc_contract import events as E
from gcbc_contract.events import CardsShuffled
from tests.support import C, act
from tests.unit.rules.equipment.classic import CLASSIC, CLASSIC_ZOMBIES, SIX, revealed_earlier
from tests.unit.rules.equipment.scenario import (
    accept_all,
    accept_all_prompt,
    cid,
    deal,
    end_turn,
    legal_plays,
    of,
    open_window,
    play,
    refused_unchanged,
    shot_earlier,
)


def six(hands, **kw):
    return deal(hands, integrity=SIX, options=kw.pop("options", CLASSIC), **kw)


def test_every_seat_showing_no_card_turns_one_face_up_in_seat_order_from_you():
    """RULES §7.2 Report Audit: seat 2 plays it in its turn. Seat 1 (the wounded Kingpin) shows its
    cards and seat 4 is eliminated: seats 2, 3, 5 and 0 are asked, in that order, each choosing its
    own card; then seat 2 still takes its action."""
    s = shot_earlier(shot_earlier(six({2: "report_audit"}, first_seat=2), 1), 4)
    s, events = act(s, play(2, "report_audit"))
    assert of(events, E.PromptOpened) == [
        E.PromptOpened(seat=i, kind="report_audit", options=(1, 2, 3), about=2)
        for i in (2, 3, 5, 0)
    ]
    assert of(events, E.CardRevealed) == []
    answers = {2: 3, 3: 1, 5: 2, 0: 1}
    for seat, position in answers.items():
        assert s.prompts[0].seat == seat
        assert legal_commands(s, seat)[:3] == [C.Choose(seat=seat, position=p) for p in (1, 2, 3)]
        s, events = act(s, C.Choose(seat=seat, position=position))
        assert events[:2] == [
            E.PromptAnswered(seat=seat, kind="report_audit", position=position),
            E.CardRevealed(
                seat=seat,
                position=position,
                card_id=cid(seat, position),
                card=s.identities[cid(seat, position)],
            ),
        ]
    assert s.prompts == () and s.step == "action" and s.turn_seat == 2
    assert s.seat(0).face_up == (True, False, False)  # the Agent, its holder's choice
    assert s.deck[-1] == "report_audit"
    assert any(isinstance(c, C.Investigate) for c in legal_commands(s, 2))


def test_seats_are_asked_in_turn_order_once_a_smoke_grenade_reversed_it():
    """RULES §7.2 Report Audit (decision: in turn order from you, as the Alarm Clock's guns),
    §7.1 Smoke Grenade: seat 0's grenade turned the table counter-clockwise; seat 5 plays the
    audit in its turn, next after seat 0's: seats 5, 4, 3, 2, 1 and 0 are asked, in that order."""
    s = six({5: "report_audit", 0: "smoke_grenade"}, setup=[play(0, "smoke_grenade")])
    s = end_turn(s)
    assert s.turn_seat == 5 and s.marks.direction == -1
    s, events = act(s, play(5, "report_audit"))
    assert [e.seat for e in of(events, E.PromptOpened)] == [5, 4, 3, 2, 1, 0]


def test_you_are_not_asked_when_you_show_a_card():
    """RULES §7.2 Report Audit (every seat with no face-up card): seat 0 shows one, so the queue
    starts after it, at seat 1, and wraps around."""
    s = revealed_earlier(six({0: "report_audit"}), 0, 2)
    s = revealed_earlier(s, 3, 1)
    s, events = act(s, play(0, "report_audit"))
    assert [e.seat for e in of(events, E.PromptOpened)] == [1, 2, 4, 5]


def test_a_zombie_is_not_asked():
    """RULES §8 (a zombie's cards are revealed), §7.2 Report Audit. Decision: even a zombie whose
    cards are face down again (Flashbang) is not asked."""
    s = shot_earlier(six({0: "report_audit"}, options=CLASSIC_ZOMBIES), 3)
    s = fold([CardsShuffled(seat=3, positions=(1, 2, 3))], s)
    assert s.seat(3).zombie and s.seat(3).face_up == (False, False, False)
    s, events = act(s, play(0, "report_audit"))
    assert [e.seat for e in of(events, E.PromptOpened)] == [0, 1, 2, 4, 5]


def test_nobody_to_ask():
    """RULES §7.3 (only when its effect can happen): every seat shows a card."""
    s = six({0: "report_audit"})
    for seat in range(6):
        s = revealed_earlier(s, seat, 1)
    assert legal_plays(s, 0, "report_audit") == []
    assert refused_unchanged(s, play(0, "report_audit")) == "no_effect"


@pytest.mark.parametrize("window", ["investigate", "shoot", "end_of_turn"])
def test_only_in_your_own_turn_before_your_action(window):
    """RULES §7.2 Report Audit (your own turn, not your action): never in a window, even of your
    own turn, nor in another seat's turn."""
    s = open_window(six({0: "report_audit"}, guns={0: 1}), window)
    assert legal_plays(s, 0, "report_audit") == []
    assert refused_unchanged(s, play(0, "report_audit")) == "not_playable_now"
    t = six({3: "report_audit"})
    assert refused_unchanged(t, play(3, "report_audit")) == "not_playable_now"


def test_refusals():
    """RULES §7.3: it takes no parameter; only from one's hand."""
    s = six({0: "report_audit"})
    assert refused_unchanged(s, play(0, "report_audit", target=1)) == "bad_parameters"
    assert refused_unchanged(s, play(0, "report_audit", positions=(1,))) == "bad_parameters"
    assert refused_unchanged(s, play(1, "report_audit")) == "card_not_in_hand"


def test_prompt_answers_are_checked():
    """RULES §7.3 (the choice belongs to that seat): only the seat asked first answers, with one of
    its face-down positions; nothing else meanwhile."""
    s = revealed_earlier(six({0: "report_audit", 4: "coffee"}), 0, 1)
    s = revealed_earlier(s, 1, 1)
    s, _ = act(s, play(0, "report_audit"))
    assert s.prompts[0].seat == 2
    assert refused_unchanged(s, C.Choose(seat=2, position=4)) == "invalid_choice"
    assert refused_unchanged(s, C.Choose(seat=2)) == "invalid_choice"
    assert refused_unchanged(s, C.Choose(seat=2, position=1, target=2)) == "invalid_choice"
    assert refused_unchanged(s, C.Choose(seat=3, position=1)) == "not_waiting_for_you"
    assert refused_unchanged(s, C.Investigate(seat=0, target=2, position=1)) == "prompt_pending"
    assert refused_unchanged(s, play(4, "coffee")) == "prompt_pending"


def test_every_listed_play_and_answer_is_accepted():
    """RULES §7.3: one play; one answer per face-down card of the seat asked."""
    s = six({0: "report_audit"})
    assert accept_all(s, 0, "report_audit") == 1
    s, _ = act(s, play(0, "report_audit"))
    assert accept_all_prompt(s) == 3
