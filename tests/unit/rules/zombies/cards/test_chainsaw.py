"""Chainsaw (RULES §8.1): turn face up a face-down integrity card of another living seat
(Disguise does not protect it). If it is a Leader, you choose another non-wounded living seat (a
prompt to you, answered after seeing the card; decision: never yourself, a zombie may be chosen):
it is shot, by you. Otherwise you are shot."""

from __future__ import annotations

import pytest

from gcbc.rules import legal_commands, view
from gcbc.rules.evolve import fold
from gcbc.rules.invariants import violations
from tests.support import EXTRA, ZOMBIES, C, E, act, pass_window, table
from tests.unit.rules.equipment.scenario import (
    WINDOWS,
    accept_all,
    accept_all_prompt,
    deal,
    legal_plays,
    of,
    one,
    open_window,
    play,
    refused_unchanged,
    shot_earlier,
)
from tests.unit.rules.zombies.cards.given import BOTH, CLASSIC_EXTRA, revealed, wrong_moments
from tests.unit.rules.zombies.given import zdeal


@pytest.mark.parametrize(
    ("options", "fell"), [(EXTRA, E.SeatEliminated), (ZOMBIES, E.BecameZombie)]
)
def test_not_a_leader_you_are_shot(options, fell):
    """RULES §8.1 Chainsaw, §4, §8: seat 2 turns up seat 3's first card (Crooked): seat 2 is shot
    (by itself) and eliminated, its turn ending; or it rises as a zombie and plays the rest of its
    turn as one (RULES §8: a zombie's action, Equip here, its Arms aimed at itself)."""
    s = deal({2: "chainsaw"}, first_seat=2, options=options)
    s, events = act(s, play(2, "chainsaw", target=3, position=1))
    assert events[1:3] == [
        E.CardRevealed(seat=3, position=1, card_id=9, card="crooked"),
        E.SeatShot(shooter=2, target=2),
    ]
    assert one(events, fell).seat == 2 and one(events, fell).by == 2
    assert s.seat(3).face_up == (True, False, False) and violations(s) == []
    if fell is E.SeatEliminated:
        assert one(events, E.TurnBegan) == E.TurnBegan(seat=3, turn=2, direction=1)
        return
    assert of(events, E.TurnBegan) == [] and s.turn_seat == 2 and s.step == "action"
    assert C.Equip(seat=2) in legal_commands(s, 2)
    assert refused_unchanged(s, C.Bite(seat=2)) is not None  # its Arms aim at itself
    s, events = act(s, C.Equip(seat=2))
    assert one(events, E.AimRequested) == E.AimRequested(seat=2)


@pytest.mark.parametrize("options", BOTH)
def test_not_a_leader_the_leader_playing_it_is_wounded(options):
    """RULES §8.1 Chainsaw, §4: the Agent turns up an Honest card: the Agent is shot: wounded, it
    draws, and its turn goes on."""
    s = deal({0: "chainsaw"}, options=options)
    s, events = act(s, play(0, "chainsaw", target=2, position=1))
    assert one(events, E.LeaderWounded) == E.LeaderWounded(seat=0, card_id=0)
    assert s.step == "action" and s.turn_seat == 0


@pytest.mark.parametrize("options", BOTH)
def test_a_leader_you_choose_who_is_shot(options):
    """RULES §8.1 Chainsaw, §7.3 (a choice made after seeing the card: a prompt): seat 2 turns up
    the Kingpin; it is asked whom to shoot among the other non-wounded living seats (decision:
    never itself, RULES §8.1); it names seat 3, shot by seat 2."""
    s = deal({2: "chainsaw", 3: "coffee"}, first_seat=2, options=options)
    s, events = act(s, play(2, "chainsaw", target=1, position=1))
    assert events[1:] == [
        E.CardRevealed(seat=1, position=1, card_id=3, card="kingpin"),
        E.PromptOpened(seat=2, kind="chainsaw", options=(0, 1, 3), about=1),
    ]
    assert view(s, None, log=False).prompt.seat == 2
    assert legal_commands(s, 2)[:3] == [C.Choose(seat=2, target=t) for t in (0, 1, 3)]
    assert refused_unchanged(s, C.Choose(seat=2, target=2)) == "invalid_choice"
    s, events = act(s, C.Choose(seat=2, target=3))
    assert events[:2] == [
        E.PromptAnswered(seat=2, kind="chainsaw", target=3),
        E.SeatShot(shooter=2, target=3),
    ]
    assert s.seat(3).zombie if options == ZOMBIES else s.seat(3).eliminated
    assert s.step == "action" and s.turn_seat == 2 and not s.prompts


def test_a_leader_shot_is_wounded():
    """RULES §8.1 Chainsaw, §4: the chosen seat may be the Leader just found: it is wounded."""
    s = deal({2: "chainsaw"}, first_seat=2, options=EXTRA)
    s, _ = act(s, play(2, "chainsaw", target=0, position=1))
    s, events = act(s, C.Choose(seat=2, target=0))
    assert one(events, E.LeaderWounded).seat == 0


def test_wounded_seats_cannot_be_chosen():
    """RULES §8.1 Chainsaw ('pick any seat that is not wounded'): the wounded Agent is not offered,
    and answering it is refused with the state unchanged."""
    s = shot_earlier(deal({2: "chainsaw"}, first_seat=2, options=EXTRA), 0)
    s, events = act(s, play(2, "chainsaw", target=1, position=1))
    assert one(events, E.PromptOpened).options == (1, 3)
    assert refused_unchanged(s, C.Choose(seat=2, target=0)) == "invalid_choice"


def test_prompt_answers_are_checked():
    """RULES §8.1 Chainsaw, §7.3: only the player answers, naming one offered seat; meanwhile
    nobody else may act."""
    s = deal({2: "chainsaw", 3: "coffee"}, first_seat=2, options=EXTRA)
    s = shot_earlier(s, 0, shooter=3)
    s, _ = act(s, play(2, "chainsaw", target=1, position=1))
    assert refused_unchanged(s, C.Choose(seat=2, target=9)) == "invalid_choice"
    assert refused_unchanged(s, C.Choose(seat=2)) == "invalid_choice"
    assert refused_unchanged(s, C.Choose(seat=2, target=3, position=1)) == "invalid_choice"
    assert refused_unchanged(s, C.Choose(seat=2, target=3, card="coffee")) == "invalid_choice"
    assert refused_unchanged(s, C.Choose(seat=3, target=1)) == "not_waiting_for_you"
    assert refused_unchanged(s, play(3, "coffee")) == "prompt_pending"
    assert refused_unchanged(s, C.Investigate(seat=2, target=3, position=1)) == "prompt_pending"


def test_a_zombie_is_offered_and_shot():
    """RULES §8.1 Chainsaw, §8 (shooting a zombie): a zombie is a living, non-wounded seat: shot,
    its Arms turn to aim at itself."""
    s = zdeal({0: "chainsaw"}, zombies={2: 0})
    s, events = act(s, play(0, "chainsaw", target=1, position=1))
    assert 2 in one(events, E.PromptOpened).options
    s, events = act(s, C.Choose(seat=0, target=2))
    assert events[1:3] == [E.SeatShot(shooter=0, target=2), E.ArmsAimed(seat=2, target=2)]


def test_disguise_does_not_protect():
    """RULES §8.1 Chainsaw, §7.1 Disguise (Truth Serum and Chainsaw still reach its cards)."""
    s = deal(
        {0: "chainsaw", 3: "disguise"},
        setup=[play(3, "disguise", target=1)],
        options=EXTRA,
    )
    assert "disguise" in s.seat(1).in_play
    assert play(0, "chainsaw", target=1, position=2) in legal_plays(s, 0, "chainsaw")
    s, events = act(s, play(0, "chainsaw", target=1, position=2))
    assert events[1] == E.CardRevealed(seat=1, position=2, card_id=4, card="crooked")


@pytest.mark.parametrize("window", WINDOWS)
def test_in_a_window(window):
    """RULES §8.1 Chainsaw (any window), §6: seat 3 plays it in seat 0's window; the prompt comes
    first, then the window is asked again."""
    s = deal({3: "chainsaw", 2: "coffee"}, guns={0: 2}, options=EXTRA)
    s = open_window(s, window, avoid=(1,))
    s, events = act(s, play(3, "chainsaw", target=1, position=1))
    assert one(events, E.PromptOpened).seat == 3 and s.window.kind == window
    s, events = act(s, C.Choose(seat=3, target=1))
    assert one(events, E.LeaderWounded).seat == 1
    assert one(events, E.WindowReopened).kind == window


@pytest.mark.parametrize(
    ("kw", "code"),
    [
        ({"target": 0, "position": 1}, "target_is_self"),
        ({"target": 2, "position": 1}, "target_eliminated"),
        ({"target": 9, "position": 1}, "invalid_target"),
        ({"target": 3, "position": 1}, "card_not_face_down"),
        ({"target": 3, "position": 4}, "invalid_position"),
        ({"target": 3, "position": 0}, "invalid_position"),
        ({"target": 3}, "bad_parameters"),
        ({"position": 2}, "bad_parameters"),
        ({"target": 3, "position": 2, "choice": "agent"}, "bad_parameters"),
    ],
)
def test_bad_targets_are_refused(kw, code):
    """RULES §8.1 Chainsaw, §7.3: a face-down card (position 1-3) of another living seat."""
    s = revealed(shot_earlier(deal({0: "chainsaw"}, options=EXTRA), 2), 3, 1)
    assert refused_unchanged(s, play(0, "chainsaw", **kw)) == code


def test_a_zombie_has_no_face_down_card():
    """RULES §8.1 Chainsaw, §8 (a zombie's cards are all revealed)."""
    s = zdeal({0: "chainsaw"}, zombies={2: 0})
    assert all(c.target != 2 for c in legal_plays(s, 0, "chainsaw"))
    assert refused_unchanged(s, play(0, "chainsaw", target=2, position=1)) == "card_not_face_down"


def test_wrong_moments_are_refused():
    """RULES §6: from one's own hand, in one's own turn or when asked in a window."""
    s = deal({1: "chainsaw"}, guns={0: 1}, options=EXTRA)
    wrong_moments(s, play(1, "chainsaw", target=2, position=1))


@pytest.mark.parametrize("options", BOTH)
def test_every_listed_play_and_answer_is_accepted(options):
    """RULES §7.3: one play per face-down card of another living seat, and each offered answer."""
    s = revealed(deal({0: "chainsaw"}, options=options), 3, 2)
    assert len(legal_plays(s, 0, "chainsaw")) == 8
    assert accept_all(s, 0, "chainsaw") == 8
    s, _ = act(s, play(0, "chainsaw", target=1, position=1))
    assert accept_all_prompt(s) == 3
    assert of(legal_plays(s, 0), C.PlayEquipment) == []


def test_a_leader_found_when_every_other_living_seat_is_wounded_shoots_nobody():
    """RULES §8.1 Chainsaw (decision: no other non-wounded seat to choose, no prompt). Classic with extra
    equipment: seats 2 and 3 are out, both Leaders wounded, and the Kingpin's seat shuffled its
    cards face down again (classic Flashbang, RULES §7.2)."""
    s = deal({0: "chainsaw"}, options=CLASSIC_EXTRA)
    for seat in (2, 3, 0, 1):
        s = shot_earlier(s, seat, shooter=(seat + 1) % 4)
    s, _ = act(s, C.Discard(seat=0, card=s.seat(0).hand[-1]))  # the card drawn when wounded
    s = fold([E.CardsShuffled(seat=1, positions=(1, 2, 3))], s)
    assert s.seat(0).wounded and s.seat(1).wounded and violations(s) == []
    s, events = act(s, play(0, "chainsaw", target=1, position=1))
    assert events[1:] == [E.CardRevealed(seat=1, position=1, card_id=3, card="kingpin")]
    assert not s.prompts and s.step == "action" and s.turn_seat == 0


@pytest.mark.parametrize(
    ("options", "fell"), [(EXTRA, E.SeatEliminated), (ZOMBIES, E.BecameZombie)]
)
def test_lead_investigator_shot_before_the_first_turn(options, fell):
    """RULES §1 (the Lead Investigator takes the first turn), §3, §8.1 Chainsaw: the Lead
    Investigator (seat 2) shoots itself in the start-of-game window; eliminated, the first turn
    goes to the next living seat; risen as a zombie, it still takes the first turn, as a zombie."""
    integrity = [["agent", "honest", "honest"], ["kingpin", "crooked", "crooked"]]
    integrity += [["honest", "crooked", "honest"], ["crooked", "honest", "crooked"]]
    s = table(
        integrity, [[], [], ["chainsaw"], []], first_seat=2, start_window=False, options=options
    )
    s, events = act(s, play(2, "chainsaw", target=3, position=1))
    assert of(events, fell)[0].seat == 2
    s = pass_window(s)
    assert s.step == "action" and s.turn_number == 1
    assert s.turn_seat == (3 if fell is E.SeatEliminated else 2)
    assert violations(s) == []
