"""RULES §8 (Zombies): shooting a zombie does not eliminate it: its Arms turn to aim at itself;
the shooter keeps the gun and must re-aim. A zombie whose Arms aim at itself cannot bite."""

from __future__ import annotations

from gcbc.rules import legal_commands, public_view
from gcbc.rules.invariants import violations
from tests.support import C, E, act, pass_window
from tests.unit.rules.equipment.scenario import end_turn, of, one, refused_unchanged
from tests.unit.rules.zombies.given import zdeal


def test_a_shot_zombie_turns_its_arms_on_itself_and_the_shooter_keeps_its_gun():
    """RULES §8: seat 0 shoots the zombie (seat 2, Arms at seat 1): not eliminated, no card moves;
    its Arms aim at itself; seat 0 keeps its gun (none returns to the centre) and re-aims."""
    s = zdeal({1: "coffee"}, zombies={2: 1}, guns={0: 2})
    centre, arms = s.guns_in_centre, s.arms_in_centre
    s, events = act(s, C.Shoot(seat=0))
    assert events == [
        E.ActionDeclared(seat=0, action="shoot", target=2),
        E.WindowOpened(kind="shoot", asked=(1,)),
    ]
    s, events = act(s, C.Pass(seat=1))
    assert events[1:] == [
        E.WindowClosed(kind="shoot"),
        E.SeatShot(shooter=0, target=2),
        E.ArmsAimed(seat=2, target=2),
        E.ActionResolved(seat=0),
        E.AimRequested(seat=0),
    ]
    assert of(events, E.GunDropped) == [] and of(events, E.SeatEliminated) == []
    assert s.seat(2).zombie and not s.seat(2).eliminated and s.seat(2).arms_aim == 2
    assert s.seat(0).gun and s.guns_in_centre == centre and s.arms_in_centre == arms
    assert s.step == "aim" and s.turn_seat == 0 and violations(s) == []
    assert public_view(s, log=False).seats[2].arms.aimed_at == 2


def test_the_shooter_re_aims_at_another_living_seat():
    """RULES §8 (the shooter keeps its gun and must re-aim; the publisher's help: "choose a new
    target in the Aim phase"), §5: at any living seat but itself and the zombie just shot."""
    s = zdeal(zombies={2: 1}, guns={0: 2})
    s, _ = act(s, C.Shoot(seat=0))
    assert [c.target for c in legal_commands(s, 0) if isinstance(c, C.Aim)] == [1, 3]
    assert refused_unchanged(s, C.Aim(seat=0, target=0)) == "target_is_self"
    assert refused_unchanged(s, C.Aim(seat=0, target=2)) == "must_reaim"
    s, events = act(s, C.Aim(seat=0, target=3))
    assert events[0] == E.GunAimed(seat=0, target=3)
    assert s.seat(0).aim == 3 and s.seat(0).gun


def test_a_zombie_whose_arms_aim_at_itself_cannot_bite_on_its_turn():
    """RULES §8: its next turn it may only Equip, then aim its Arms elsewhere."""
    s = zdeal(zombies={2: 1}, guns={0: 2})
    s, _ = act(s, C.Shoot(seat=0))
    s, _ = act(s, C.Aim(seat=0, target=1))
    s = end_turn(s)
    assert s.turn_seat == 2
    assert [type(c).__name__ for c in legal_commands(s, 2)] == ["Equip", "SetAutoPass"]
    assert refused_unchanged(s, C.Bite(seat=2)) == "not_aimed_to_bite"
    s, _ = act(s, C.Equip(seat=2))
    s, events = act(s, C.Aim(seat=2, target=0))
    assert events[0] == E.ArmsAimed(seat=2, target=0)


def test_shooting_a_zombie_again_changes_nothing_more():
    """RULES §8: a zombie is never eliminated by a shot; its Arms already at itself stay there."""
    s = zdeal(zombies={2: 2}, guns={0: 2})
    s, events = act(s, C.Shoot(seat=0))
    assert events[3:5] == [E.SeatShot(shooter=0, target=2), E.ArmsAimed(seat=2, target=2)]
    assert s.seat(2).zombie and s.winners is None


def test_a_zombie_that_just_aimed_is_shot_on_the_next_turn():
    """RULES §8: the zombie (seat 2) aims its Arms at seat 0 in its turn; seat 3 shoots it in the
    next: its Arms turn on itself, seat 3 keeps its gun and re-aims."""
    s = zdeal(zombies={2: 0}, guns={3: 2}, first_seat=2)
    s, _ = act(s, C.Equip(seat=2))
    s, _ = act(s, C.Aim(seat=2, target=0))
    s = pass_window(s)  # the zombie drew a card: it is asked at the end of its turn
    assert s.turn_seat == 3
    s, _ = act(s, C.Shoot(seat=3))
    s, events = act(s, C.Pass(seat=2))
    assert one(events, E.ArmsAimed) == E.ArmsAimed(seat=2, target=2)
    assert s.seat(3).gun and s.step == "aim"
