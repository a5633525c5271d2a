"""RULES §3: a turn — the action (Investigate, Equip, Arm, Shoot), the Aim phase, the end, and the
turn passing on."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from gcbc.rules import legal_commands, run, view
from gcbc.rules.state import State
from tests.support import KP, A, C, E, H, K, act, of_type, pass_window, refused, table, types
from tests.unit.rules.conftest import arm, equip, play_turn

FOUR = [[A, H, H], [KP, K, K], [H, K, H], [K, H, K]]


def seat2_eliminated() -> State:
    """Seat 0 shoots seat 2 (Honest, not a Leader) on turn 5; it is seat 1's turn."""
    s = table(FOUR)
    s = arm(s, 0, 2)
    s = equip(s, 1)
    s = equip(s, 2)
    s = equip(s, 3)
    s, _ = play_turn(s, C.Shoot(seat=0))
    assert s.seat(2).eliminated and s.turn_seat == 1 and s.step == "action"
    return s


def kingpin_face_up() -> State:
    """Seat 0 shoots the Kingpin (seat 1) on turn 5: its cards are all face up; seat 1's turn."""
    s = table(FOUR, deck=["coffee", "wiretap", "k9_unit", "smoke_grenade"])
    s = arm(s, 0, 1)
    s, _ = play_turn(s, C.Investigate(seat=1, target=2, position=1))
    s, _ = play_turn(s, C.Investigate(seat=2, target=3, position=1))
    s, _ = play_turn(s, C.Investigate(seat=3, target=2, position=1))
    s, _ = play_turn(s, C.Shoot(seat=0))
    assert s.seat(1).face_up == (True, True, True) and s.turn_seat == 1
    return s


# --- Investigate ---------------------------------------------------------------------------------
def test_investigate_shows_the_card_to_the_investigator_once_the_window_closes() -> None:
    """RULES §3.1: Investigate one face-down card of another living seat; you alone see it, it
    stays face down. Declaring it opens a reaction window first (§6)."""
    # given seat 0's turn, seat 2 holding equipment
    s = table(FOUR, equipment=[[], [], ["coffee"], []])
    # when seat 0 investigates seat 1's card 2
    s, events = act(s, C.Investigate(seat=0, target=1, position=2))
    # then the window opens first; nothing is seen yet
    assert events == [
        E.ActionDeclared(seat=0, action="investigate", target=1, position=2),
        E.WindowOpened(kind="investigate", asked=(2,)),
    ]
    assert view(s, 0).seats[1].cards[1].card is None
    # when the window closes
    s, events = act(s, C.Pass(seat=2))
    # then seat 0 sees the card, face down
    assert types(events)[:4] == ["ReactionPassed", "WindowClosed", "CardViewed", "ActionResolved"]
    assert of_type(events, E.CardViewed) == [
        E.CardViewed(viewer=0, seat=1, position=2, card_id=4, card=K, means="investigate")
    ]
    assert not of_type(events, E.CardRevealed)
    assert s.seat(1).face_up == (False, False, False)
    assert view(s, 0).seats[1].cards[1].card == K


def test_investigate_target_and_position_refusals() -> None:
    """RULES §3.1: another seat's card, at a position 1-3."""
    s = table(FOUR)
    assert refused(s, C.Investigate(seat=0, target=0, position=1)) == "target_is_self"
    assert refused(s, C.Investigate(seat=0, target=4, position=1)) == "invalid_target"
    assert refused(s, C.Investigate(seat=0, target=-1, position=1)) == "invalid_target"
    assert refused(s, C.Investigate(seat=0, target=1, position=0)) == "invalid_position"
    assert refused(s, C.Investigate(seat=0, target=1, position=4)) == "invalid_position"


def test_investigate_an_eliminated_seat_is_refused() -> None:
    """RULES §3.1: only a living seat's card can be investigated."""
    s = seat2_eliminated()
    assert refused(s, C.Investigate(seat=1, target=2, position=1)) == "target_eliminated"


def test_investigate_a_face_up_card_is_refused() -> None:
    """RULES §3.1: only a face-down card can be investigated."""
    # given seat 0 turned its card 2 face up (Equip)
    s = table(FOUR)
    s, _ = play_turn(s, C.Equip(seat=0, position=2))
    assert s.seat(0).face_up == (False, True, False)
    # then seat 1 may not investigate it, but may investigate another
    assert refused(s, C.Investigate(seat=1, target=0, position=2)) == "card_not_face_down"
    s, events = act(s, C.Investigate(seat=1, target=0, position=1))
    assert of_type(events, E.ActionDeclared)


def test_a_card_already_seen_may_be_investigated_again() -> None:
    """RULES §3.1 (Decision: a card you have already seen may be investigated again): it is
    listed, accepted, and viewed again; the investigation shows nothing new."""
    # given seat 0 investigated seat 1's card 2 on turn 1
    s = table(FOUR)
    s, _ = play_turn(s, C.Investigate(seat=0, target=1, position=2))
    for seat in (1, 2, 3):
        s = equip(s, seat)
    assert s.turn_seat == 0 and view(s, 0).seats[1].cards[1].card == K
    # then on turn 5 it may look at it again: listed with the cards it has not seen
    again = C.Investigate(seat=0, target=1, position=2)
    assert again in legal_commands(s, 0)
    assert C.Investigate(seat=0, target=1, position=3) in legal_commands(s, 0)
    # when it does
    s, events = play_turn(s, again)
    # then it views the same card again; nobody else learns it, and it is still face down
    assert of_type(events, E.CardViewed) == [
        E.CardViewed(viewer=0, seat=1, position=2, card_id=4, card=K, means="investigate")
    ]
    assert view(s, 0).seats[1].cards[1].card == K
    assert [x.seat for x in view(s, None).seats[1].cards[1].seen] == [0]
    assert view(s, 2).seats[1].cards[1].card is None and not s.seat(1).face_up[1]


def test_a_seat_that_knows_every_face_down_card_still_investigates() -> None:
    """RULES §3.1 (a seat that knows every face-down card left still has an action that reveals
    nothing): seat 0 has seen every face-down card of the table; Investigate is still listed for
    each of them."""
    s = table(FOUR)
    s = fold_views(s, 0, [(1, 1), (1, 2), (1, 3), (2, 1), (2, 2), (2, 3), (3, 1), (3, 2), (3, 3)])
    listed = {(c.target, c.position) for c in legal_commands(s, 0) if isinstance(c, C.Investigate)}
    assert listed == {(t, p) for t in (1, 2, 3) for p in (1, 2, 3)}


def fold_views(s: State, viewer: int, cards: list[tuple[int, int]]) -> State:
    """Given: ``viewer`` viewed these cards earlier (the engine's own events, folded)."""
    from gcbc.rules.effects import view_card
    from gcbc.rules.evolve import fold

    for seat, position in cards:
        s = fold(view_card(s, viewer, seat, position, "wiretap"), s)
    return s


# --- whose turn, which phase ---------------------------------------------------------------------
def test_actions_out_of_turn_are_refused() -> None:
    """RULES §3: only the seat whose turn it is takes an action."""
    s = table(FOUR)
    assert s.turn_seat == 0
    assert refused(s, C.Investigate(seat=1, target=0, position=1)) == "not_your_turn"
    assert refused(s, C.Equip(seat=2, position=1)) == "not_your_turn"
    assert refused(s, C.Arm(seat=3, target=0, position=1)) == "not_your_turn"
    assert refused(s, C.Shoot(seat=1)) == "not_your_turn"
    assert refused(s, C.Aim(seat=1, target=0)) == "wrong_phase"  # nobody aims in an action phase


def test_actions_in_the_wrong_phase_are_refused() -> None:
    """RULES §3: one action a turn; no action while a window is open or in the Aim phase."""
    s = table(FOUR, equipment=[[], [], ["coffee"], []])
    # given an action declared: its window is open
    s, _ = act(s, C.Investigate(seat=0, target=1, position=1))
    assert s.step == "window"
    assert refused(s, C.Equip(seat=0, position=1)) == "wrong_phase"
    assert refused(s, C.Investigate(seat=0, target=1, position=2)) == "wrong_phase"
    assert refused(s, C.Investigate(seat=1, target=0, position=2)) == "wrong_phase"
    assert refused(s, C.Aim(seat=0, target=1)) == "wrong_phase"
    # given seat 1 armed, now in its Aim phase
    s, _ = play_turn(s, C.Pass(seat=2))
    s, _ = act(s, C.Arm(seat=1, target=0, position=1))
    assert s.step == "aim"
    assert refused(s, C.Investigate(seat=1, target=0, position=1)) == "wrong_phase"
    assert refused(s, C.Shoot(seat=1)) == "wrong_phase"
    # and the Aim phase belongs to seat 1 alone
    assert refused(s, C.Aim(seat=0, target=2)) == "not_your_turn"


# --- Equip ---------------------------------------------------------------------------------------
def test_equip_draws_a_card_then_turns_one_own_card_face_up() -> None:
    """RULES §3.1: Equip draws an equipment card, then turns one own face-down card face up."""
    s = table(FOUR, deck=["wiretap", "coffee"])
    s, events = act(s, C.Equip(seat=0, position=3))
    assert events[:4] == [
        E.ActionDeclared(seat=0, action="equip", position=3),
        E.EquipmentDrawn(seat=0, card="wiretap"),
        E.CardRevealed(seat=0, position=3, card_id=2, card=H),
        E.ActionResolved(seat=0),
    ]
    assert s.seat(0).hand == ("wiretap",)
    assert s.seat(0).face_up == (False, False, True)
    assert s.deck[0] == "coffee"
    # no gun: no Aim phase, straight to the end-of-turn window
    assert events[4] == E.WindowOpened(kind="end_of_turn", asked=(0,))


def test_equip_over_the_hand_limit_draws_then_discards_then_reveals() -> None:
    """RULES §3.1/§6: over the hand limit, the seat discards down to 1 (to the bottom of the
    deck) before its card is turned face up; meanwhile it may use no equipment."""
    # given seat 0 holding Coffee
    s = table(FOUR, equipment=[["coffee"], [], [], []], deck=["wiretap", "k9_unit"])
    # when it equips
    s, events = act(s, C.Equip(seat=0, position=1))
    # then it drew and must discard first
    assert events == [
        E.ActionDeclared(seat=0, action="equip", position=1),
        E.EquipmentDrawn(seat=0, card="wiretap"),
    ]
    assert s.seat(0).hand == ("coffee", "wiretap")
    assert s.seat(0).face_up == (False, False, False)
    assert refused(s, C.PlayEquipment(seat=0, card="coffee")) == "must_discard"
    assert refused(s, C.Discard(seat=0, card="taser")) == "card_not_in_hand"
    assert legal_commands(s, 0)[:2] == [
        C.Discard(seat=0, card="coffee"),
        C.Discard(seat=0, card="wiretap"),
    ]
    # when it discards the Coffee
    s, events = act(s, C.Discard(seat=0, card="coffee"))
    # then the Coffee goes to the bottom of the deck, then the card is turned face up
    assert events[:4] == [
        E.EquipmentDiscarded(seat=0, card="coffee"),
        E.PromptAnswered(seat=0, kind="discard"),
        E.CardRevealed(seat=0, position=1, card_id=0, card=A),
        E.ActionResolved(seat=0),
    ]
    assert s.seat(0).hand == ("wiretap",)
    assert s.deck[0] == "k9_unit" and s.deck[-1] == "coffee"


def test_equip_from_an_empty_deck_draws_nothing_and_is_allowed() -> None:
    """RULES §3.1 (Decision: with an empty deck Equip draws nothing and is still allowed): seat 0,
    which could investigate, equips from an empty deck: its card is turned face up, nothing
    drawn."""
    s = replace(table(FOUR), deck=())
    assert C.Investigate(seat=0, target=1, position=1) in legal_commands(s, 0)
    assert C.Equip(seat=0, position=2) in legal_commands(s, 0)
    s, events = act(s, C.Equip(seat=0, position=2))
    assert events[:3] == [
        E.ActionDeclared(seat=0, action="equip", position=2),
        E.CardRevealed(seat=0, position=2, card_id=1, card=H),
        E.ActionResolved(seat=0),
    ]
    assert s.seat(0).hand == () and s.deck == ()


def test_equip_names_a_face_down_card_to_turn() -> None:
    """RULES §3.1: the card turned face up is one of the seat's own face-down cards."""
    s = table(FOUR)
    s, _ = play_turn(s, C.Equip(seat=0, position=2))
    for seat in (1, 2, 3):
        s = equip(s, seat)
    assert refused(s, C.Equip(seat=0)) == "invalid_position"
    assert refused(s, C.Equip(seat=0, position=2)) == "card_not_face_down"
    assert refused(s, C.Equip(seat=0, position=5)) == "invalid_position"


def test_equip_and_arm_with_no_face_down_card_turn_nothing() -> None:
    """RULES §3.1: the card is turned face up only if the seat has any face-down card."""
    # given seat 1 (the Kingpin, shot once) with every card face up
    s = kingpin_face_up()
    assert refused(s, C.Equip(seat=1, position=1)) == "invalid_position"
    assert refused(s, C.Arm(seat=1, target=0, position=1)) == "invalid_position"
    # when it arms without naming a card
    s, events = act(s, C.Arm(seat=1, target=0))
    # then it takes a gun and nothing is revealed
    assert types(events) == ["ActionDeclared", "GunTaken", "ActionResolved", "AimRequested"]


# --- Arm -----------------------------------------------------------------------------------------
def test_arm_takes_a_gun_aims_it_and_turns_a_card_face_up() -> None:
    """RULES §3.1: Arm takes a gun from the centre and aims it at once, then turns one own
    face-down card face up; the Aim phase follows (§3.2)."""
    s = table(FOUR)
    s, events = act(s, C.Arm(seat=0, target=2, position=1))
    assert events == [
        E.ActionDeclared(seat=0, action="arm", target=2, position=1),
        E.GunTaken(seat=0, aim=2),
        E.CardRevealed(seat=0, position=1, card_id=0, card=A),
        E.ActionResolved(seat=0),
        E.AimRequested(seat=0),
    ]
    assert s.seat(0).gun and s.seat(0).aim == 2
    assert s.guns_in_centre == 3
    assert s.step == "aim"


def test_arm_refusals() -> None:
    """RULES §3.1/§5: Arm only without a gun; never aimed at yourself or an eliminated seat."""
    s = table(FOUR)
    assert refused(s, C.Arm(seat=0, target=0, position=1)) == "target_is_self"
    assert refused(s, C.Arm(seat=0, target=9, position=1)) == "invalid_target"
    assert refused(s, C.Arm(seat=0, target=1)) == "invalid_position"
    s = arm(s, 0, 1)
    for seat in (1, 2, 3):
        s = equip(s, seat)
    assert refused(s, C.Arm(seat=0, target=2, position=2)) == "has_gun"
    assert not [c for c in legal_commands(s, 0) if isinstance(c, C.Arm)]
    e = seat2_eliminated()
    assert refused(e, C.Arm(seat=1, target=2, position=1)) == "target_eliminated"


# --- Shoot ---------------------------------------------------------------------------------------
def test_shoot_needs_a_gun() -> None:
    """RULES §3.1: Shoot only if holding a gun."""
    s = table(FOUR)
    assert refused(s, C.Shoot(seat=0)) == "no_gun"
    assert C.Shoot(seat=0) not in legal_commands(s, 0)


def test_shoot_needs_a_gun_aimed_at_a_living_seat() -> None:
    """RULES §3.1/§4: a gun aimed at a seat that has since been eliminated cannot shoot."""
    # given seat 3 aiming at seat 2, and seat 2 eliminated by seat 0 before seat 3's turn
    s = table(FOUR)
    s = arm(s, 0, 2)
    s = equip(s, 1)
    s = equip(s, 2)
    s = arm(s, 3, 2)
    s, _ = play_turn(s, C.Shoot(seat=0))
    s = equip(s, 1)
    assert s.turn_seat == 3 and s.seat(3).aim == 2 and s.seat(2).eliminated
    # then
    assert refused(s, C.Shoot(seat=3)) == "not_aimed"
    assert C.Shoot(seat=3) not in legal_commands(s, 3)


def test_a_gun_taken_with_a_taser_cannot_shoot_this_turn() -> None:
    """RULES §3.1/§7.1 Taser: the gun is locked for the rest of the turn (gun_locked)."""
    s = table(FOUR, equipment=[[], ["taser"], [], []])
    s = arm(s, 0, 1)
    s, events = act(s, C.PlayEquipment(seat=1, card="taser", target=0, aim=2))
    assert of_type(events, E.GunTaken) == [E.GunTaken(seat=1, aim=2, from_seat=0, locked=True)]
    assert refused(s, C.Shoot(seat=1)) == "gun_locked"
    assert C.Shoot(seat=1) not in legal_commands(s, 1)


def test_shoot_returns_the_shooters_gun_to_the_centre_and_skips_the_aim_phase() -> None:
    """RULES §3.1: the target is shot; the shooter's gun returns to the centre (so no Aim)."""
    s = table(FOUR)
    s = arm(s, 0, 2)
    for seat in (1, 2, 3):
        s = equip(s, seat)
    s, events = play_turn(s, C.Shoot(seat=0))
    assert events[0] == E.ActionDeclared(seat=0, action="shoot", target=2)
    assert E.SeatShot(shooter=0, target=2) in events
    assert E.GunDropped(seat=0) in events
    assert not of_type(events, E.AimRequested)
    assert not s.seat(0).gun and s.guns_in_centre == 4
    assert s.turn_seat == 1


# --- Aim -----------------------------------------------------------------------------------------
def test_a_seat_holding_a_gun_aims_after_any_action() -> None:
    """RULES §3.2: a seat still holding a gun must aim it (it may keep its target)."""
    # given seat 0 armed on turn 1, aiming at seat 1
    s = table(FOUR)
    s = arm(s, 0, 1)
    for seat in (1, 2, 3):
        s = equip(s, seat)
    # when on turn 5 it investigates
    s, events = play_turn(s, C.Investigate(seat=0, target=2, position=2), aim=1)
    # then it was asked to aim after the action, kept its aim, and the turn ended
    i = events.index(E.AimRequested(seat=0))
    assert events[i + 1 : i + 3] == [
        E.GunAimed(seat=0, target=1),
        E.WindowOpened(kind="end_of_turn", asked=(1, 2, 3)),  # they drew on their turns
    ]
    assert s.seat(0).aim == 1 and s.turn_seat == 1


def test_aim_phase_changes_the_aim_then_opens_the_end_of_turn_window() -> None:
    """RULES §3.2/§3.3: the Aim phase, then the end-of-turn window, then the next turn."""
    s = table(FOUR, equipment=[[], [], ["coffee"], []])
    s, _ = act(s, C.Arm(seat=0, target=1, position=1))
    assert refused(s, C.Aim(seat=0, target=0)) == "target_is_self"
    assert refused(s, C.Aim(seat=0, target=7)) == "invalid_target"
    assert [c for c in legal_commands(s, 0) if isinstance(c, C.Aim)] == [
        C.Aim(seat=0, target=t) for t in (1, 2, 3)
    ]
    s, events = act(s, C.Aim(seat=0, target=3))
    assert events == [
        E.GunAimed(seat=0, target=3),
        E.WindowOpened(kind="end_of_turn", asked=(2,)),
    ]
    assert s.seat(0).aim == 3
    s, events = act(s, C.Pass(seat=2))
    assert events[-2:] == [
        E.WindowClosed(kind="end_of_turn"),
        E.TurnBegan(seat=1, turn=2, direction=1),
    ]


def test_aim_at_an_eliminated_seat_is_refused() -> None:
    """RULES §3.2: aim at a living seat."""
    s = seat2_eliminated()
    s, _ = act(s, C.Arm(seat=1, target=3, position=2))
    assert refused(s, C.Aim(seat=1, target=2)) == "target_eliminated"
    assert C.Aim(seat=1, target=2) not in legal_commands(s, 1)


# --- the turn passes -----------------------------------------------------------------------------
def test_the_turn_passes_clockwise() -> None:
    """RULES §3: then the Lead Investigator passes to the next seat clockwise."""
    s = table(FOUR, first_seat=2)
    began = []
    for _ in range(4):
        seat = s.turn_seat
        s, events = play_turn(s, C.Investigate(seat=seat, target=(seat + 1) % 4, position=1))
        began += of_type(events, E.TurnBegan)
    assert began == [
        E.TurnBegan(seat=3, turn=2, direction=1),
        E.TurnBegan(seat=0, turn=3, direction=1),
        E.TurnBegan(seat=1, turn=4, direction=1),
        E.TurnBegan(seat=2, turn=5, direction=1),
    ]


def test_the_turn_skips_eliminated_seats() -> None:
    """RULES §3: the next living seat clockwise."""
    s = seat2_eliminated()
    s, events = play_turn(s, C.Investigate(seat=1, target=0, position=2))
    assert of_type(events, E.TurnBegan) == [E.TurnBegan(seat=3, turn=7, direction=1)]


@pytest.mark.parametrize("first", [0, 1, 2, 3])
def test_every_legal_action_is_accepted(first: int) -> None:
    """RULES §3.1: the actions listed as legal are exactly accepted ones."""
    s = table(FOUR, first_seat=first)
    cmds = legal_commands(s, first)
    kinds = {type(c).__name__ for c in cmds}
    assert kinds == {"Investigate", "Equip", "Arm", "SetAutoPass"}
    assert all(c.target != first for c in cmds if isinstance(c, (C.Investigate, C.Arm)))
    assert len([c for c in cmds if isinstance(c, C.Investigate)]) == 9
    for c in cmds:
        run(s, c)  # raises if refused
    for other in range(4):
        if other != first:
            assert legal_commands(s, other) == [C.SetAutoPass(seat=other, enabled=True)]


def test_one_action_per_turn() -> None:
    """RULES §3.1: exactly one action; after it, the turn moves on."""
    s = table(FOUR)
    s, _ = act(s, C.Equip(seat=0, position=1))
    s = pass_window(s)
    assert s.turn_seat == 1
    assert refused(s, C.Equip(seat=0, position=2)) == "not_your_turn"
