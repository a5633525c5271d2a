"""RULES §8 (Zombies), a zombie's turn: the action is Bite (the seat its Arms aim at, a living
seat other than itself) or Equip (draw; no card is revealed); zombies cannot Investigate, Arm or
steal a gun. A bite opens a bite window like a shot (§6) and resolves like a shot by the zombie;
the biter keeps its Arms and must re-aim in its Aim phase, at any living seat but itself.
Decision: after any other action the aim is optional: a zombie may keep its Arms where they are,
even on itself."""

from __future__ import annotations

from msgspec.structs import replace

from gcbc.rules import current_wait, legal_commands, public_view
from gcbc.rules.autopilot import choose
from gcbc.rules.effects import get_shot
from gcbc.rules.evolve import fold
from gcbc.rules.invariants import violations
from gcbc.rules.rng import Rng
from tests.support import C, E, H, K, act, types
from tests.unit.rules.equipment.scenario import deal, end_turn, of, one, play, refused_unchanged
from tests.unit.rules.zombies.given import BOMBER_DEAL, BOTH, arms_at, earlier, risen, zdeal


def zombie_turn(hands=None, arms=3, deck=None, **kw):
    """Seat 2 is a zombie whose Arms aim at ``arms``, and it is its turn."""
    return zdeal(hands, zombies={2: arms}, first_seat=2, deck=deck, **kw)


def test_a_zombie_may_bite_or_equip_only():
    """RULES §8: Bite or Equip; Equip names no card to reveal; no Investigate, Arm or Shoot."""
    s = zombie_turn()
    assert legal_commands(s, 2)[:2] == [C.Bite(seat=2), C.Equip(seat=2)]
    assert {type(c).__name__ for c in legal_commands(s, 2)} == {"Bite", "Equip", "SetAutoPass"}
    assert public_view(s).seats[2].zombie


def test_a_bite_is_declared_and_opens_a_bite_window():
    """RULES §8 ('A bite opens a bite window, as a shot opens a shoot window'), §6: every living
    holder is asked (the biter too), and the bite waits for the window to close."""
    s = zombie_turn({0: "coffee", 2: "wiretap"})
    s, events = act(s, C.Bite(seat=2))
    assert events == [
        E.ActionDeclared(seat=2, action="bite", target=3),
        E.WindowOpened(kind="bite", asked=(0, 2)),
    ]
    v = public_view(s, log=False)
    assert v.phase == "reaction" and v.window.kind == "bite"
    assert v.declared.action == "bite" and v.declared.target == 3
    assert of(events, E.SeatBitten) == []


def test_a_bitten_non_leader_becomes_a_zombie_and_the_biter_keeps_its_arms():
    """RULES §8: the bite resolves like a shot by the zombie: seat 3 (no Leader) is revealed and
    becomes a zombie (by seat 2); the biter keeps its Arms (still aimed at seat 3) and must re-aim
    in its Aim phase."""
    s = zombie_turn({0: "coffee"})
    s, _ = act(s, C.Bite(seat=2))
    s, events = act(s, C.Pass(seat=0))
    assert events[1:] == [
        E.WindowClosed(kind="bite"),
        E.SeatBitten(biter=2, target=3),
        E.CardRevealed(seat=3, position=1, card_id=9, card=K),
        E.CardRevealed(seat=3, position=2, card_id=10, card=H),
        E.CardRevealed(seat=3, position=3, card_id=11, card=K),
        E.BecameZombie(seat=3, by=2),
        E.ActionResolved(seat=2),
        E.AimRequested(seat=2),
    ]
    assert s.seat(3).zombie and s.seat(3).arms_aim == 3 and not s.seat(3).eliminated
    assert s.seat(2).zombie and s.seat(2).arms_aim == 3  # kept, no longer able to bite seat 3
    assert s.arms_in_centre == 0 and violations(s) == []
    assert s.step == "aim" and s.turn_seat == 2


def test_the_biter_re_aims_its_arms_in_its_aim_phase():
    """RULES §8 ('After its action a zombie may aim its Arms at any seat'; the biter 'must aim them
    again'; the publisher's help: 'You must choose a new target in the Aim phase'), §5 (never at
    itself nor at an eliminated seat): not at the seat just bitten (seat 3, now a zombie); then the
    end-of-turn window."""
    s = zombie_turn()
    s, _ = act(s, C.Bite(seat=2))
    assert s.step == "aim"
    aims = [c for c in legal_commands(s, 2) if isinstance(c, C.Aim)]
    assert [c.target for c in aims] == [0, 1]
    assert refused_unchanged(s, C.Aim(seat=2, target=3)) == "must_reaim"
    # its Arms aim at seat 3: naming itself is no keeping (409: it may, once they are on itself)
    assert refused_unchanged(s, C.Aim(seat=2, target=2)) == "invalid_target"
    assert refused_unchanged(s, C.Aim(seat=2, target=7)) == "invalid_target"
    assert refused_unchanged(s, C.Aim(seat=0, target=1)) == "not_your_turn"
    s, events = act(s, C.Aim(seat=2, target=0))
    assert events[:2] == [
        E.ArmsAimed(seat=2, target=0),
        E.WindowOpened(kind="end_of_turn", asked=()),
    ]
    assert s.seat(2).arms_aim == 0 and s.seat(2).aim is None and not s.seat(2).gun
    assert public_view(s, log=False).seats[2].arms.aimed_at == 0
    assert s.turn_seat == 3  # nobody holds equipment: the turn passed


def test_a_zombie_may_not_bite_or_aim_at_an_eliminated_seat():
    """RULES §8 (Bite: a living seat; Arms at a non-eliminated seat), §5: with Bombers & Traitors
    too, the Bomber (seat 3) shot itself earlier (eliminated, nobody wins, §9.2); the zombie
    (seat 2) whose Arms aimed at it cannot bite, and must aim elsewhere."""
    s = deal({}, integrity=BOMBER_DEAL, options=BOTH, first_seat=2)
    s = arms_at(risen(s, 2), 2, 3)
    s = earlier(fold(get_shot(s, 3, 3), s))
    assert s.seat(3).eliminated and s.winners is None
    assert refused_unchanged(s, C.Bite(seat=2)) == "not_aimed_to_bite"
    assert [type(c).__name__ for c in legal_commands(s, 2)] == ["Equip", "SetAutoPass"]
    s, _ = act(s, C.Equip(seat=2))
    assert refused_unchanged(s, C.Aim(seat=2, target=3)) == "target_eliminated"
    assert [c.target for c in legal_commands(s, 2) if isinstance(c, C.Aim)] == [0, 1]


def test_a_bitten_leader_is_wounded_and_draws():
    """RULES §8 (unwounded Leader → wounded, and draws), §4: no zombie, no win."""
    s = zombie_turn(arms=1, deck=["wiretap"])
    s, events = act(s, C.Bite(seat=2))
    assert events[2:4] == [E.WindowClosed(kind="bite"), E.SeatBitten(biter=2, target=1)]
    assert one(events, E.LeaderWounded) == E.LeaderWounded(seat=1, card_id=3)
    assert one(events, E.EquipmentDrawn) == E.EquipmentDrawn(seat=1, card="wiretap")
    assert of(events, E.BecameZombie) == [] and of(events, E.SeatEliminated) == []
    assert s.seat(1).face_up == (True, True, True) and s.winners is None
    assert s.seat(2).arms_aim == 1  # keeps its Arms, and must aim them at another seat
    assert refused_unchanged(s, C.Aim(seat=2, target=1)) == "must_reaim"
    s, events = act(s, C.Aim(seat=2, target=0))
    assert events[0] == E.ArmsAimed(seat=2, target=0)


def test_a_bitten_zombie_turns_its_arms_on_itself():
    """RULES §8 (Bite: the living seat other than itself its Arms aim at; a bite resolves like a
    shot); the publisher's online help, seeds/000_1b3acf3376692be6.txt lines 617-618 (latest
    revision, 2023-08-01): "GETTING SHOT/BITTEN — If you are already a Zombie, you aim your Arms
    at yourself." Zombie seat 2 bites zombie seat 3 (Arms at seat 0): seat 3's Arms turn on
    itself; nobody falls; the biter keeps its Arms."""
    s = zdeal({0: "coffee"}, zombies={2: 3, 3: 0}, first_seat=2)
    assert C.Bite(seat=2) in legal_commands(s, 2)
    s, _ = act(s, C.Bite(seat=2))
    s, events = act(s, C.Pass(seat=0))
    assert events[1:] == [
        E.WindowClosed(kind="bite"),
        E.SeatBitten(biter=2, target=3),
        E.ArmsAimed(seat=3, target=3),
        E.ActionResolved(seat=2),
        E.AimRequested(seat=2),
    ]
    assert s.seat(3).zombie and s.seat(3).arms_aim == 3 and not s.seat(3).eliminated
    assert s.seat(2).arms_aim == 3 and s.winners is None and violations(s) == []


def test_bite_refusals_leave_the_state_unchanged():
    """RULES §8: only a zombie bites, on its turn, the living seat its Arms aim at."""
    assert refused_unchanged(zombie_turn(arms=2), C.Bite(seat=2)) == "not_aimed_to_bite"
    s = zombie_turn()
    assert refused_unchanged(s, C.Bite(seat=0)) == "not_your_turn"
    s = zdeal(zombies={2: 3}, guns={0: 1})
    assert refused_unchanged(s, C.Bite(seat=0)) == "not_a_zombie"
    s, _ = act(zombie_turn(), C.Bite(seat=2))
    assert refused_unchanged(s, C.Bite(seat=2)) == "wrong_phase"


def test_a_zombie_cannot_investigate_arm_or_shoot():
    """RULES §8 ('Zombies cannot Investigate, Arm or take a gun'): refused with zombie_cannot (a
    zombie holds no gun: Shoot is refused with no_gun); the state is unchanged."""
    s = zombie_turn()
    assert refused_unchanged(s, C.Investigate(seat=2, target=0, position=1)) == "zombie_cannot"
    assert refused_unchanged(s, C.Arm(seat=2, target=0)) == "zombie_cannot"
    assert refused_unchanged(s, C.Shoot(seat=2)) == "no_gun"


def test_a_zombie_equips_without_revealing():
    """RULES §8 (Equip: draw; no card is revealed): it draws and goes to its Aim phase."""
    s = zombie_turn(deck=["wiretap", "coffee"])
    assert refused_unchanged(s, C.Equip(seat=2, position=1)) == "invalid_position"
    s, events = act(s, C.Equip(seat=2))
    assert events == [
        E.ActionDeclared(seat=2, action="equip"),
        E.EquipmentDrawn(seat=2, card="wiretap"),
        E.ActionResolved(seat=2),
        E.AimRequested(seat=2),
    ]
    assert s.seat(2).hand == ("wiretap",) and s.seat(2).arms_aim == 3
    s, events = act(s, C.Aim(seat=2, target=3))  # may keep its aim
    assert events[0] == E.ArmsAimed(seat=2, target=3)


def test_a_zombie_over_the_hand_limit_discards():
    """RULES §8 (keeps its equipment), §6 (hand limit 1)."""
    s = zombie_turn({2: "coffee"}, deck=["wiretap"])
    s, events = act(s, C.Equip(seat=2))
    assert s.seat(2).hand == ("coffee", "wiretap") and s.prompts[0].kind == "discard"
    s, events = act(s, C.Discard(seat=2, card="coffee"))
    assert types(events)[:3] == ["EquipmentDiscarded", "PromptAnswered", "ActionResolved"]


def test_an_empty_deck_zombie_that_can_bite_may_still_equip():
    """RULES §3.1 (Decision: with an empty deck Equip draws nothing and is still allowed), §8:
    a zombie that could bite may Equip instead, drawing nothing."""
    s = replace(zombie_turn(), deck=())
    assert [type(c).__name__ for c in legal_commands(s, 2)] == ["Bite", "Equip", "SetAutoPass"]
    s, events = act(s, C.Equip(seat=2))
    assert types(events) == ["ActionDeclared", "ActionResolved", "AimRequested"]
    assert s.seat(2).hand == ()


def test_an_empty_deck_zombie_that_cannot_bite_equips_nothing():
    """RULES §3.1 (Decision: with an empty deck Equip draws nothing and is still allowed, a seat
    always has an action): a zombie whose Arms aim at itself Equips, drawing nothing."""
    s = replace(zombie_turn(arms=2), deck=())
    assert legal_commands(s, 2)[0] == C.Equip(seat=2)
    s, events = act(s, C.Equip(seat=2))
    assert types(events) == ["ActionDeclared", "ActionResolved", "AimRequested"]


def test_equipment_played_in_the_bite_window_lets_the_zombie_reconsider():
    """RULES §6 (equipment changed the situation: the acting seat may choose again unless the
    bite is forced), §8 (a bite window like a shoot window)."""
    s = zombie_turn({0: "coffee"})
    s, _ = act(s, C.Bite(seat=2))
    s, events = act(s, play(0, "coffee"))
    assert one(events, E.ActionCancelled) == E.ActionCancelled(seat=2, reason="reconsider")
    assert of(events, E.SeatBitten) == []
    assert s.step == "action" and s.turn_seat == 2
    s, events = act(s, C.Bite(seat=2))
    assert one(events, E.SeatBitten) == E.SeatBitten(biter=2, target=3)


def test_a_reconsidered_bite_stands_when_the_zombie_lets_its_deadline_pass():
    """RULES §6 (the declared shot stands if the deadline passes), §8 (a bite resolves like a
    shot; equipment that affects shooting affects biting the same way): the Coffee in the bite
    window; the zombie lets its turn deadline pass: it bites seat 3, without a new window."""
    s = zombie_turn({0: "coffee"})
    s, _ = act(s, C.Bite(seat=2))
    s, _ = act(s, play(0, "coffee"))
    assert s.step == "action" and s.standing is not None
    s, events = act(s, C.DeadlinePassed(wait=current_wait(s).id))
    assert events[:3] == [
        E.AutopilotActed(seat=2, missed=True),
        E.ActionDeclared(seat=2, action="bite", target=3, stands=True),
        E.SeatBitten(biter=2, target=3),
    ]
    assert not [e for e in events if isinstance(e, E.WindowOpened) and e.kind == "bite"]


def test_the_zombie_plays_in_turn_order():
    """RULES §3, §8: a zombie is a living seat: it takes its turn in order."""
    s = zdeal(zombies={2: 3})
    s = end_turn(s)
    s = end_turn(s)
    assert s.turn_seat == 2 and s.step == "action"
    assert legal_commands(s, 2)[0] == C.Bite(seat=2)


def test_the_autopilot_takes_a_zombie_action_and_keeps_a_valid_aim():
    """RULES §10 (the autopilot makes a legal choice), §8: it keeps Arms aimed at another seat;
    Arms on itself (which it may keep, but which cannot bite) it turns to another seat."""
    s = zombie_turn()
    for draw in range(6):
        cmd = choose(s, 2, Rng(draw, 3))
        assert cmd in (C.Bite(seat=2), C.Equip(seat=2))
    s, _ = act(s, C.Equip(seat=2))
    assert choose(s, 2, Rng(0, 3)) == C.Aim(seat=2, target=3)
    s = replace(
        s, seats=tuple(replace(st, arms_aim=2) if i == 2 else st for i, st in enumerate(s.seats))
    )
    assert C.Aim(seat=2, target=2) in legal_commands(s, 2)
    for k in range(20):
        assert choose(s, 2, Rng(k, 3)).target in (0, 1, 3)


def test_the_autopilot_re_aims_after_a_bite():
    """RULES §8 (must re-aim), §10 (the autopilot plays a legal choice): a biter on autopilot does
    not keep its Arms on the seat it just bit."""
    s = zombie_turn(arms=1, deck=["wiretap"])
    s, _ = act(s, C.Bite(seat=2))
    assert s.step == "aim" and s.seat(2).arms_aim == 1
    for k in range(20):
        aim = choose(s, 2, Rng(k, 1))
        assert isinstance(aim, C.Aim) and aim.target in (0, 3)


def test_a_zombie_may_keep_its_arms_on_itself():
    """RULES §8 (Decision: the aim after a zombie's action is optional: it may keep its Arms where
    they are, even on itself; a new aim is a living seat other than itself, zombies included):
    zombie seat 2, Arms on itself, equips; it is offered to keep them (``Aim`` at its own seat)
    or to aim at any other living seat, zombie seat 3 included; it keeps them."""
    s = zdeal(zombies={2: 2, 3: 3}, first_seat=2, deck=["wiretap"])
    s, _ = act(s, C.Equip(seat=2))
    assert s.step == "aim"
    assert [c.target for c in legal_commands(s, 2) if isinstance(c, C.Aim)] == [0, 1, 2, 3]
    s, events = act(s, C.Aim(seat=2, target=2))
    assert events[:2] == [
        E.ArmsAimed(seat=2, target=2),
        E.WindowOpened(kind="end_of_turn", asked=(2,)),
    ]
    assert s.seat(2).arms_aim == 2 and violations(s) == []


def test_a_zombie_whose_arms_aim_elsewhere_cannot_turn_them_on_itself():
    """RULES §8 (Decision: a new aim is a living seat other than itself): zombie seat 2, Arms on
    seat 3, equips: it may keep them on seat 3 or aim at seat 0 or 1, not at itself (409: it could
    keep them there, were they on itself); a gun never aims at its holder (§5: 422)."""
    s = zombie_turn(deck=["wiretap"])
    s, _ = act(s, C.Equip(seat=2))
    assert [c.target for c in legal_commands(s, 2) if isinstance(c, C.Aim)] == [0, 1, 3]
    assert refused_unchanged(s, C.Aim(seat=2, target=2)) == "invalid_target"
    s = deal({}, guns={0: 1})
    s, _ = act(s, C.Equip(seat=0, position=2))
    assert refused_unchanged(s, C.Aim(seat=0, target=0)) == "target_is_self"
