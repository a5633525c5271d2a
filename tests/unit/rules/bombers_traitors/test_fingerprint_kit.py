"""Fingerprint Kit (RULES §9): investigate one face-down card of another living seat (not
protected by Disguise); then you may turn one of your own face-down cards face up to take the
Fingerprint Kit back into your hand (a prompt to you, §7.3; ``Choose()`` declines)."""

from __future__ import annotations

from gcbc.rules import legal_commands, view
from gcbc_contract import events as E
from tests.support import C, act
from tests.unit.rules.bombers_traitors.givens import HB, HBK, NO_ROLES, bt_deal, face_up
from tests.unit.rules.equipment.scenario import (
    accept_all,
    accept_all_prompt,
    cid,
    known,
    legal_plays,
    of,
    one,
    open_window,
    play,
    refused_unchanged,
    shot_earlier,
)

CARD = "fingerprint_kit"


def given(hands, **kw):
    """No role at the table: seat 0 (A, HB, HK), seat 1 (KP, CB, CK), seat 2 (HB, CK, HBK),
    seat 3 (CB, HK, CBK)."""
    return bt_deal(hands, integrity=NO_ROLES, **kw)


def test_investigate_then_reveal_an_own_card_to_take_the_kit_back():
    """RULES §9 Fingerprint Kit: seat 0 sees seat 2's HBK (it alone); asked, it turns its own
    position 2 (HB) face up and takes the kit back from the bottom of the deck; its turn goes on,
    and it may play the kit again."""
    s = given({0: CARD})
    s, events = act(s, play(0, CARD, target=2, position=3))
    assert events[1:] == [
        E.CardViewed(
            viewer=0, seat=2, position=3, card_id=cid(2, 3), card=HBK, means="fingerprint_kit"
        ),
        E.PromptOpened(seat=0, kind=CARD, options=(1, 2, 3)),
    ]
    assert known(s, 0, 2, 3) == HBK
    assert known(s, None, 2, 3) is None and known(s, 1, 2, 3) is None
    assert [(x.seat, x.by) for x in view(s, None, log=False).seats[2].cards[2].seen] == [
        (0, "fingerprint_kit")
    ]
    assert s.deck[-1] == CARD and s.seat(0).hand == ()
    assert legal_commands(s, 0)[:4] == [
        *(C.Choose(seat=0, position=p) for p in (1, 2, 3)),
        C.Choose(seat=0),
    ]
    s, events = act(s, C.Choose(seat=0, position=2))
    assert events == [
        E.PromptAnswered(seat=0, kind=CARD, position=2),
        E.CardRevealed(seat=0, position=2, card_id=cid(0, 2), card=HB),
        E.EquipmentReturned(seat=0, card=CARD),
    ]
    assert s.seat(0).hand == (CARD,) and CARD not in s.deck
    assert s.seat(0).face_up == (False, True, False) and known(s, None, 0, 2) == HB
    assert s.step == "action" and s.turn_seat == 0
    assert legal_plays(s, 0, CARD)


def test_declining_keeps_the_cards_down_and_the_kit_in_the_deck():
    """RULES §9 Fingerprint Kit ("you may"): ``Choose()`` declines."""
    s = given({0: CARD})
    s, _ = act(s, play(0, CARD, target=1, position=2))
    s, events = act(s, C.Choose(seat=0))
    assert events == [E.PromptAnswered(seat=0, kind=CARD)]
    assert s.seat(0).hand == () and s.deck[-1] == CARD
    assert s.seat(0).face_up == (False, False, False)


def test_no_prompt_without_a_face_down_card_of_your_own():
    """RULES §9 Fingerprint Kit (only by turning a face-down card up): all of seat 0's cards are
    face up: it only investigates."""
    s = face_up(given({0: CARD}), (0, 1), (0, 2), (0, 3))
    s, events = act(s, play(0, CARD, target=1, position=2))
    assert of(events, E.PromptOpened) == [] and s.prompts == ()
    assert one(events, E.CardViewed).means == "fingerprint_kit"
    assert s.deck[-1] == CARD


def test_in_a_window_the_kit_taken_back_may_be_played_again():
    """RULES §9 Fingerprint Kit, §6 (the window asks every holder again after a play): seat 2
    plays it in seat 0's investigate window, takes it back, and is asked again."""
    s = open_window(given({2: CARD}), "investigate")
    s, _ = act(s, play(2, CARD, target=3, position=1))
    s, events = act(s, C.Choose(seat=2, position=1))
    assert one(events, E.EquipmentReturned) == E.EquipmentReturned(seat=2, card=CARD)
    assert one(events, E.WindowReopened).asked == (2,)
    assert legal_plays(s, 2, CARD)
    s, events = act(s, play(2, CARD, target=3, position=2))
    assert one(events, E.PromptOpened).options == (2, 3)


def test_a_surveillance_camera_reacts_first():
    """RULES §9 Fingerprint Kit with §7.1 Surveillance Camera (decision: it is an investigation):
    seat 1's camera prompt comes before the kit's own prompt."""
    s = given({0: CARD, 1: "surveillance_camera"}, setup=[play(1, "surveillance_camera")])
    s, events = act(s, play(0, CARD, target=1, position=2))
    assert of(events, E.PromptOpened) == [
        E.PromptOpened(seat=1, kind="surveillance_camera", options=(1, 2, 3), about=0),
        E.PromptOpened(seat=0, kind=CARD, options=(1, 2, 3)),
    ]
    s, _ = act(s, C.Choose(seat=1, position=1))
    assert known(s, 1, 0, 1) == "agent"
    assert s.prompts[0].seat == 0 and s.prompts[0].kind == CARD


def test_disguise_protects_from_it():
    """RULES §9 Fingerprint Kit with §7.1 Disguise (cannot be investigated)."""
    s = given({0: CARD, 2: "disguise"}, setup=[play(2, "disguise", target=1)])
    assert {p.target for p in legal_plays(s, 0, CARD)} == {2, 3}
    assert refused_unchanged(s, play(0, CARD, target=1, position=2)) == "target_disguised"


def test_bad_targets_and_parameters():
    """RULES §9 Fingerprint Kit (a face-down card of another living seat), §7.3."""
    s = face_up(given({0: CARD, 3: "coffee"}), (1, 2))
    s = shot_earlier(s, 3, shooter=1)
    assert refused_unchanged(s, play(0, CARD, target=0, position=2)) == "target_is_self"
    assert refused_unchanged(s, play(0, CARD, target=1, position=2)) == "card_not_face_down"
    assert refused_unchanged(s, play(0, CARD, target=3, position=1)) == "target_eliminated"
    assert refused_unchanged(s, play(0, CARD, target=9, position=1)) == "invalid_target"
    for position in (0, 4):
        assert refused_unchanged(s, play(0, CARD, target=1, position=position)) == (
            "invalid_position"
        )
    assert refused_unchanged(s, play(0, CARD, target=1)) == "bad_parameters"
    assert refused_unchanged(s, play(0, CARD, target=1, position=1, aim=2)) == "bad_parameters"
    assert refused_unchanged(s, play(1, CARD, target=2, position=1)) == "card_not_in_hand"


def test_prompt_answers_are_checked():
    """RULES §9 Fingerprint Kit, §7.3: only its player answers, with one of its face-down cards or
    nothing."""
    s = face_up(given({0: CARD, 1: "coffee"}), (0, 3))
    s, events = act(s, play(0, CARD, target=1, position=2))
    assert one(events, E.PromptOpened).options == (1, 2)
    assert refused_unchanged(s, C.Choose(seat=0, position=3)) == "invalid_choice"  # face up
    assert refused_unchanged(s, C.Choose(seat=0, position=4)) == "invalid_choice"
    assert refused_unchanged(s, C.Choose(seat=0, target=1)) == "invalid_choice"
    assert refused_unchanged(s, C.Choose(seat=0, position=1, card=CARD)) == "invalid_choice"
    assert refused_unchanged(s, C.Discard(seat=0, card=CARD)) == "invalid_choice"
    assert refused_unchanged(s, C.Choose(seat=1, position=1)) == "not_waiting_for_you"
    assert refused_unchanged(s, play(1, "coffee")) == "prompt_pending"


def test_every_listed_play_and_answer_is_accepted():
    """RULES §7.3: exactly the face-down cards of the other living seats are listed, each play is
    accepted, and so is each listed answer."""
    s = face_up(given({0: CARD}), (2, 2))
    assert legal_plays(s, 0, CARD) == [
        play(0, CARD, target=t, position=p)
        for t, positions in ((1, (1, 2, 3)), (2, (1, 3)), (3, (1, 2, 3)))
        for p in positions
    ]
    assert accept_all(s, 0, CARD) == 8
    s, _ = act(s, play(0, CARD, target=3, position=3))
    assert accept_all_prompt(s) == 4
