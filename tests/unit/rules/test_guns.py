"""RULES §5: guns and aim."""

from __future__ import annotations

from gcbc.rules import legal_commands, public_view, view
from gcbc.rules.state import State
from tests.support import KP, A, C, E, H, K, act, of_type, refused, table
from tests.unit.rules.conftest import arm, equip, play_turn

FOUR = [[A, H, H], [KP, K, K], [H, K, H], [K, H, K]]


def guns_conserved(s: State) -> bool:
    return s.guns_in_centre + sum(1 for st in s.seats if st.gun) == len(s.seats)


def test_guns_start_in_the_centre() -> None:
    """RULES §1/§5 (`fourth`): one gun per player, all in the centre; nobody aims."""
    s = table(FOUR)
    for viewer in (None, 0, 1, 2, 3):
        v = view(s, viewer) if viewer is not None else public_view(s)
        assert v.guns_in_centre == 4
        assert all(sv.gun is None for sv in v.seats)


def test_a_seat_gaining_a_gun_aims_it_at_once_and_the_aim_is_public() -> None:
    """RULES §5: whenever a seat gains a gun it aims it immediately; aims are public."""
    s = table(FOUR)
    s, events = act(s, C.Arm(seat=0, target=2, position=1))
    assert E.GunTaken(seat=0, aim=2) in events
    # already aimed, before its Aim phase is over, and everyone sees it
    assert s.step == "aim"
    for v in (public_view(s), view(s, 1), view(s, 2), view(s, 3)):
        assert v.seats[0].gun is not None and v.seats[0].gun.aimed_at == 2
        assert v.guns_in_centre == 3


def test_a_seat_holds_at_most_one_gun() -> None:
    """RULES §5: at most one gun a seat (Arm and Taser refused with has_gun)."""
    s = table(FOUR, equipment=[["taser"], [], [], []])
    s = arm(s, 0, 1)
    s = arm(s, 1, 2)
    for seat in (2, 3):
        s = equip(s, seat)
    assert s.turn_seat == 0 and s.seat(0).gun
    assert refused(s, C.Arm(seat=0, target=2, position=2)) == "has_gun"
    assert refused(s, C.PlayEquipment(seat=0, card="taser", target=1, aim=2)) == "has_gun"
    assert not [c for c in legal_commands(s, 0) if isinstance(c, C.Arm)]


def test_a_gun_taken_from_another_seat_is_aimed_at_once_never_at_yourself() -> None:
    """RULES §5: a seat gaining a gun (Taser) aims it at once, never at itself."""
    s = table(FOUR, equipment=[[], ["taser"], [], []])
    s = arm(s, 0, 1)
    assert refused(s, C.PlayEquipment(seat=1, card="taser", target=0, aim=1)) == "target_is_self"
    s, events = act(s, C.PlayEquipment(seat=1, card="taser", target=0, aim=3))
    assert of_type(events, E.GunTaken) == [E.GunTaken(seat=1, aim=3, from_seat=0, locked=True)]
    assert s.seat(1).aim == 3 and not s.seat(0).gun
    assert public_view(s).seats[1].gun.aimed_at == 3
    assert guns_conserved(s)


def test_a_seat_changes_aim_only_in_its_own_aim_phase() -> None:
    """RULES §5: otherwise a seat changes aim only in its own Aim phase."""
    # given seat 0 aiming at seat 1
    s = table(FOUR)
    s = arm(s, 0, 1)
    # then during seat 1's action and Aim phase, seat 0 cannot re-aim
    assert refused(s, C.Aim(seat=0, target=2)) == "wrong_phase"
    s, _ = act(s, C.Arm(seat=1, target=0, position=1))
    assert refused(s, C.Aim(seat=0, target=2)) == "not_your_turn"
    assert not [c for c in legal_commands(s, 0) if isinstance(c, C.Aim)]
    s, _ = act(s, C.Aim(seat=1, target=0))
    assert s.turn_seat == 2
    s = equip(s, 2)
    s = equip(s, 3)
    # and its aim has not moved over three turns
    assert s.turn_seat == 0 and s.seat(0).aim == 1
    # when in its own Aim phase it aims elsewhere
    s, events = play_turn(s, C.Investigate(seat=0, target=2, position=2), aim=3)
    assert E.GunAimed(seat=0, target=3) in events and s.seat(0).aim == 3


def test_keeping_the_current_aim_is_an_aim() -> None:
    """RULES §3.2/§5: the seat may keep its current target if still valid."""
    s = table(FOUR)
    s, _ = act(s, C.Arm(seat=0, target=2, position=1))
    s, events = act(s, C.Aim(seat=0, target=2))
    assert events[0] == E.GunAimed(seat=0, target=2) and s.seat(0).aim == 2


def test_an_effect_can_force_an_aim_outside_the_aim_phase() -> None:
    """RULES §5: a seat changes aim in its Aim phase, or when an effect forces it (here the
    Walkie Talkie, played in another seat's window)."""
    s = table(FOUR, equipment=[[], [], ["walkie_talkie"], []])
    s = arm(s, 0, 1)
    s, _ = act(s, C.Investigate(seat=1, target=0, position=2))
    s, events = act(s, C.PlayEquipment(seat=2, card="walkie_talkie", target=3))
    assert of_type(events, E.GunAimed) == [E.GunAimed(seat=0, target=3)]
    assert public_view(s).seats[0].gun.aimed_at == 3


def test_guns_are_conserved_through_taking_shooting_and_elimination() -> None:
    """RULES §5/§3.1/§4: guns move between the centre and seats; none appear or vanish."""
    s = table(FOUR)
    for seat, target in [(0, 2), (1, 2), (2, 3), (3, 2)]:
        s = arm(s, seat, target)
        assert guns_conserved(s)
    assert s.guns_in_centre == 0
    s, _ = play_turn(s, C.Shoot(seat=0))  # seat 2 eliminated: its gun and seat 0's return
    assert s.seat(2).eliminated
    assert s.guns_in_centre == 2 and guns_conserved(s)
    assert [st.gun for st in s.seats] == [False, True, False, True]
