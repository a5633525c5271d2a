"""RULES §6: equipment timing and reaction windows."""

from __future__ import annotations

from msgspec.structs import replace

from gcbc.rules import current_wait, legal_commands, public_view, run, view
from gcbc.rules.state import State
from tests.support import KP, A, C, E, H, K, act, of_type, refused, table, types
from tests.unit.rules.conftest import arm, play_turn

FOUR = [[A, H, H], [KP, K, K], [H, K, H], [K, H, K]]


def aiming_at_kingpin(equipment: list[list[str]]) -> State:
    """Seat 0 aims at seat 1 (turn 1); seats 1-3 investigate (no draws); seat 0's turn 5."""
    s = table(FOUR, equipment=equipment)
    s = arm(s, 0, 1)
    for seat in (1, 2, 3):
        s, _ = play_turn(s, C.Investigate(seat=seat, target=0, position=2))
    assert s.turn_seat == 0 and s.step == "action"
    return s


# --- who is asked, passing, closing ---------------------------------------------------------------
def test_start_of_game_window_asks_every_holder_before_the_first_turn() -> None:
    """RULES §6.2: the start-of-game window, before the first turn."""
    s = table(FOUR, equipment=[[], ["coffee"], [], ["k9_unit"]], start_window=False)
    assert s.step == "window" and s.window.kind == "start_of_game"
    assert s.window.asked == (1, 3) and current_wait(s).seats == (1, 3)
    assert refused(s, C.Pass(seat=0)) == "not_waiting_for_you"
    assert refused(s, C.Investigate(seat=0, target=1, position=1)) == "wrong_phase"
    s, _ = act(s, C.Pass(seat=1))
    s, events = act(s, C.Pass(seat=3))
    assert events[1:] == [
        E.WindowClosed(kind="start_of_game"),
        E.TurnBegan(seat=0, turn=1, direction=1),
    ]


def test_a_window_asks_every_living_holder_whether_or_not_its_card_fits() -> None:
    """RULES §6: every living seat holding equipment is asked, whether or not its card fits."""
    # given seat 1 holding a shoot-window-only card, seat 2 a Coffee, seat 3 nothing
    s = table(FOUR, equipment=[[], ["restraining_order"], ["coffee"], []])
    # when seat 0 declares an Investigate
    s, events = act(s, C.Investigate(seat=0, target=1, position=1))
    # then both holders are asked
    assert events[-1] == E.WindowOpened(kind="investigate", asked=(1, 2))
    assert current_wait(s).seats == (1, 2)
    assert legal_commands(s, 1) == [C.Pass(seat=1), C.SetAutoPass(seat=1, enabled=True)]
    assert C.PlayEquipment(seat=2, card="coffee") in legal_commands(s, 2)
    assert refused(s, C.PlayEquipment(seat=1, card="restraining_order")) == "not_playable_now"
    assert refused(s, C.Pass(seat=3)) == "not_waiting_for_you"


def test_a_window_closes_when_every_holder_has_passed_then_the_action_resolves() -> None:
    """RULES §6: the window closes when all holders have passed; only then does the declared
    action resolve."""
    s = table(FOUR, equipment=[[], ["coffee"], ["k9_unit"], []])
    s, _ = act(s, C.Investigate(seat=0, target=1, position=1))
    s, events = act(s, C.Pass(seat=2))
    assert events == [E.ReactionPassed(seat=2)]
    assert current_wait(s).seats == (1,)
    assert refused(s, C.Pass(seat=2)) == "not_waiting_for_you"
    s, events = act(s, C.Pass(seat=1))
    assert types(events)[:4] == ["ReactionPassed", "WindowClosed", "CardViewed", "ActionResolved"]


def test_a_window_with_no_holder_closes_at_once() -> None:
    """RULES §6: nobody to ask: the declared action resolves at once."""
    s = table(FOUR)
    s, events = act(s, C.Investigate(seat=0, target=1, position=1))
    assert types(events)[:5] == [
        "ActionDeclared",
        "WindowOpened",
        "WindowClosed",
        "CardViewed",
        "ActionResolved",
    ]
    assert events[1] == E.WindowOpened(kind="investigate", asked=())


def test_after_a_play_every_holder_is_asked_again() -> None:
    """RULES §6: when one seat plays, its card resolves fully; then every holder is asked again
    (earlier passes are void)."""
    s = table(FOUR, equipment=[[], ["med_kit"], ["coffee"], ["smoke_grenade"]])
    s, _ = act(s, C.Investigate(seat=0, target=1, position=1))
    s, _ = act(s, C.Pass(seat=1))
    # when seat 2 plays its Coffee
    s, events = act(s, C.PlayEquipment(seat=2, card="coffee"))
    # then it resolves, and seats 1 and 3 are asked again (seat 2 holds nothing now)
    assert events == [
        E.EquipmentPlayed(seat=2, card="coffee"),
        E.NextTurnClaimed(seat=2),
        E.WindowReopened(kind="investigate", asked=(1, 3)),
    ]
    assert current_wait(s).seats == (1, 3)
    s, _ = act(s, C.Pass(seat=1))
    s, events = act(s, C.Pass(seat=3))
    assert of_type(events, E.CardViewed)


# --- the moments equipment may be used ------------------------------------------------------------
def test_equipment_in_your_own_turn_only_before_your_action() -> None:
    """RULES §6.1: during your own turn, before you declare your action (not in the Aim phase,
    not in another seat's turn outside a window)."""
    s = table(FOUR, equipment=[["coffee"], ["k9_unit"], [], []])
    assert refused(s, C.PlayEquipment(seat=1, card="k9_unit", target=0)) == "not_playable_now"
    s, events = act(s, C.PlayEquipment(seat=0, card="coffee"))
    assert events == [E.EquipmentPlayed(seat=0, card="coffee"), E.NextTurnClaimed(seat=0)]
    assert s.step == "action" and s.turn_seat == 0  # the action is still to come
    s, _ = act(s, C.Arm(seat=0, target=1, position=1))
    assert s.step == "aim"
    assert refused(s, C.PlayEquipment(seat=1, card="k9_unit", target=0)) == "not_playable_now"


def test_end_of_turn_window_after_the_aim_phase() -> None:
    """RULES §3.3/§6.5: the end-of-turn window opens after the turn's Aim phase."""
    s = table(FOUR, equipment=[[], [], ["coffee"], []])
    s, events = act(s, C.Arm(seat=0, target=1, position=1))
    assert not of_type(events, E.WindowOpened)  # the Aim phase comes first
    s, events = act(s, C.Aim(seat=0, target=3))
    assert events == [
        E.GunAimed(seat=0, target=3),
        E.WindowOpened(kind="end_of_turn", asked=(2,)),
    ]
    assert s.seat(0).aim == 3
    s, events = act(s, C.Pass(seat=2))
    assert events[1:] == [
        E.WindowClosed(kind="end_of_turn"),
        E.TurnBegan(seat=1, turn=2, direction=1),
    ]


# --- the shoot window -----------------------------------------------------------------------------
def test_a_play_in_the_shoot_window_lets_the_shooter_choose_again() -> None:
    """RULES §6: if equipment played in the shoot window changed the situation, the shooter may
    choose a new action; the action is re-declared, which can open a new window."""
    s = aiming_at_kingpin([[], [], ["coffee"], []])
    s, events = act(s, C.Shoot(seat=0))
    assert events[-1] == E.WindowOpened(kind="shoot", asked=(2,))
    turn_wait = current_wait(s).id
    # when seat 2 plays Coffee in the shoot window
    s, events = act(s, C.PlayEquipment(seat=2, card="coffee"))
    # then the shot does not happen: seat 0 chooses again, with a fresh deadline
    assert events[-2:] == [
        E.WindowClosed(kind="shoot"),
        E.ActionCancelled(seat=0, reason="reconsider"),
    ]
    assert not of_type(events, E.SeatShot)
    w = current_wait(s)
    assert (w.kind, w.seats) == ("turn", (0,)) and w.id != turn_wait
    assert s.seat(0).gun and s.seat(0).aim == 1
    # when it declares the Shoot again, a new shoot window opens (nobody holds equipment now)
    s, events = act(s, C.Shoot(seat=0))
    assert types(events)[:4] == ["ActionDeclared", "WindowOpened", "WindowClosed", "SeatShot"]


def test_a_shooter_reconsidering_may_take_another_action() -> None:
    """RULES §6: the shooter may choose a new action instead."""
    s = aiming_at_kingpin([[], [], ["coffee"], []])
    s, _ = act(s, C.Shoot(seat=0))
    s, _ = act(s, C.PlayEquipment(seat=2, card="coffee"))
    s, events = act(s, C.Investigate(seat=0, target=3, position=2))
    assert of_type(events, E.CardViewed) and not of_type(events, E.SeatShot)


def reconsidering(equipment: list[list[str]], play: C.PlayEquipment) -> State:
    """Seat 0 shoots the Kingpin (seat 1); ``play`` is the only card played in the shoot window;
    the shooter is asked again (RULES §6)."""
    s = aiming_at_kingpin(equipment)
    s, _ = act(s, C.Shoot(seat=0))
    s, events = act(s, play)
    while s.step == "window":
        s, more = act(s, C.Pass(seat=min(s.window.pending)))
        events += more
    assert of_type(events, E.ActionCancelled) == [E.ActionCancelled(seat=0, reason="reconsider")]
    assert current_wait(s).kind == "turn" and s.turn_seat == 0
    return s


def test_the_declared_shot_stands_when_the_shooter_lets_its_deadline_pass() -> None:
    """RULES §6 (Decision: if its deadline passes the declared shot stands when it is still
    possible — a harmless card never turns a shot into a random action): seat 2's Coffee in the
    shoot window; seat 0, asked again, lets its deadline pass: the shot resolves at once at the
    Kingpin, without a new window."""
    s = reconsidering([[], [], ["coffee"], ["k9_unit"]], C.PlayEquipment(seat=2, card="coffee"))
    # when the shooter's turn deadline passes
    s, events = run(s, C.DeadlinePassed(wait=current_wait(s).id))
    # then the shot stands: no new window, the Kingpin is wounded, the gun returns to the centre
    assert events[:3] == [
        E.AutopilotActed(seat=0, missed=True),
        E.ActionDeclared(seat=0, action="shoot", target=1, stands=True),
        E.SeatShot(shooter=0, target=1),
    ]
    assert not [e for e in events if isinstance(e, E.WindowOpened) and e.kind == "shoot"]
    assert of_type(events, E.LeaderWounded) == [E.LeaderWounded(seat=1, card_id=3)]
    assert not s.seat(0).gun and s.seat(0).missed == 1


def test_a_declared_shot_whose_gun_was_turned_stands_at_its_new_aim() -> None:
    """RULES §6 (the declared shot stands when it is still possible: only an impossible action
    makes the autopilot choose anew) and §3.1 (a shot is at the seat the gun aims at): seat 2's
    Walkie Talkie turns every gun to seat 3; seat 0 lets its deadline pass: the shot stands, at
    seat 3, whatever the seed, never a random action."""
    s = reconsidering(
        [[], [], ["walkie_talkie"], []],
        C.PlayEquipment(seat=2, card="walkie_talkie", target=3),
    )
    assert s.seat(0).aim == 3
    for seed in range(6):
        t = replace(s, setup=replace(s.setup, random_seed=seed))
        _, events = run(t, C.DeadlinePassed(wait=current_wait(t).id))
        assert events[1:3] == [
            E.ActionDeclared(seat=0, action="shoot", target=3, stands=True),
            E.SeatShot(shooter=0, target=3),
        ]


def test_the_shooter_may_still_shoot_again_with_a_new_window() -> None:
    """RULES §6 (the action is re-declared, which can open a new window): after the Coffee, seat 0
    declares the Shoot itself: a new shoot window asks seat 3."""
    s = reconsidering([[], [], ["coffee"], ["k9_unit"]], C.PlayEquipment(seat=2, card="coffee"))
    s, events = act(s, C.Shoot(seat=0))
    assert events[:2] == [
        E.ActionDeclared(seat=0, action="shoot", target=1),
        E.WindowOpened(kind="shoot", asked=(3,)),
    ]
    assert s.standing is None


def test_a_forced_shot_is_not_reconsidered() -> None:
    """RULES §6: a card that forces the shot (Restraining Order) leaves no new choice; while it
    resolves (its prompt), nothing else can be played."""
    s = aiming_at_kingpin([[], [], ["restraining_order"], ["k9_unit"]])
    s, _ = act(s, C.Shoot(seat=0))
    s, _ = act(s, C.Pass(seat=3))
    s, events = act(s, C.PlayEquipment(seat=2, card="restraining_order"))
    assert events[-1] == E.PromptOpened(seat=0, kind="restraining_order", options=(2, 3))
    # the card resolves fully before anything else
    assert refused(s, C.PlayEquipment(seat=3, card="k9_unit", target=0)) == "prompt_pending"
    assert refused(s, C.Pass(seat=3)) == "prompt_pending"
    # when the shooter aims at seat 2, then everyone (seat 3, asked again) passes
    s, events = act(s, C.Choose(seat=0, target=2))
    assert events[-1] == E.WindowReopened(kind="shoot", asked=(3,))
    s, events = act(s, C.Pass(seat=3))
    # then the forced shot happens, at seat 2
    assert not of_type(events, E.ActionCancelled)
    assert E.SeatShot(shooter=0, target=2) in events
    assert s.seat(2).eliminated


def test_a_declared_investigation_made_impossible_is_chosen_again() -> None:
    """RULES §6: if the declared action has become impossible, the acting seat chooses again."""
    s = table(FOUR, equipment=[[], [], ["truth_serum"], []])
    s, _ = act(s, C.Investigate(seat=0, target=1, position=2))
    # when seat 2 turns the card under investigation face up
    s, events = act(s, C.PlayEquipment(seat=2, card="truth_serum", target=1, position=2))
    # then the investigation is cancelled: seat 0 chooses again
    assert E.CardRevealed(seat=1, position=2, card_id=4, card=K) in events
    assert events[-1] == E.ActionCancelled(seat=0, reason="impossible")
    assert not of_type(events, E.CardViewed)
    assert s.step == "action" and s.turn_seat == 0
    s, events = act(s, C.Investigate(seat=0, target=1, position=3))
    assert of_type(events, E.CardViewed)[0].position == 3


def test_a_forced_shot_made_impossible_is_chosen_again() -> None:
    """RULES §6: a shot whose gun was taken cannot happen, even forced: choose again."""
    s = aiming_at_kingpin([[], [], ["restraining_order"], ["k9_unit"]])
    s, _ = act(s, C.Shoot(seat=0))
    s, _ = act(s, C.PlayEquipment(seat=2, card="restraining_order"))
    s, _ = act(s, C.Choose(seat=0, target=3))
    # when seat 3 (the new target) makes the shooter drop its gun
    s, events = act(s, C.PlayEquipment(seat=3, card="k9_unit", target=0))
    # then there is no shot; seat 0 chooses again (and may take a gun again)
    assert E.GunDropped(seat=0) in events
    assert events[-1] == E.ActionCancelled(seat=0, reason="impossible")
    assert not of_type(events, E.SeatShot)
    s, events = act(s, C.Arm(seat=0, target=1, position=2))
    assert E.GunTaken(seat=0, aim=1) in events


# --- what the public sees, auto-pass ------------------------------------------------------------
def test_the_public_sees_the_window_open_but_not_who_passed() -> None:
    """RULES §6/§11: while a window is open, the public view shows that it is open and its
    deadline, not who has already passed."""
    s = table(FOUR, equipment=[[], ["coffee"], ["k9_unit"], ["med_kit"]])
    s, _ = act(s, C.Investigate(seat=0, target=1, position=1))
    before = {v: view(s, v) for v in (None, 0, 1, 3)}
    # when seat 2 passes
    s, _ = act(s, C.Pass(seat=2))
    assert current_wait(s).seats == (1, 3)
    # then the public and the other seats see the same window and waits as before
    for viewer in (None, 0, 1, 3):
        v = view(s, viewer)
        assert v.window is not None
        wait = before[viewer].window.wait
        assert (v.window.kind, v.window.asked, v.window.wait) == ("investigate", [1, 2, 3], wait)
        assert v.waiting_for == before[viewer].waiting_for
        assert [x.seat for x in v.waiting_for] == [1, 2, 3]
        assert {(x.reason, x.wait, x.seconds) for x in v.waiting_for} == {("reaction", wait, 20.0)}
        assert v.log == before[viewer].log  # nothing new in their log
        assert v == before[viewer]  # not even the version moved: nothing shows a change
    # and only seat 2 knows it has passed
    mine = view(s, 2)
    assert [x.seat for x in mine.waiting_for] == [1, 3]
    assert mine.log[-1] == {"type": "reaction_passed", "seat": 2, "v": mine.version}
    assert C.Pass(seat=2) not in legal_commands(s, 2)


def test_auto_pass_answers_the_windows_of_a_seat() -> None:
    """RULES §6: each seat may set an auto-pass preference: it is asked (publicly), never waited
    for."""
    s = table(FOUR, equipment=[[], ["coffee"], ["k9_unit"], []])
    s, events = act(s, C.SetAutoPass(seat=2, enabled=True))
    assert events == [E.AutoPassSet(seat=2, enabled=True)]
    assert view(s, 2).you.auto_pass and not view(s, 1).you.auto_pass
    assert not [e for e in public_view(s).log if e["type"] == "auto_pass_set"]
    assert refused(s, C.SetAutoPass(seat=2, enabled=True)) == "no_effect"
    # when seat 0 investigates
    s, events = act(s, C.Investigate(seat=0, target=1, position=1))
    # then seat 2 is asked but not waited for
    assert events[-1] == E.WindowOpened(kind="investigate", asked=(1, 2))
    assert current_wait(s).seats == (1,)
    assert refused(s, C.Pass(seat=2)) == "not_waiting_for_you"
    s, events = act(s, C.Pass(seat=1))
    assert of_type(events, E.CardViewed)


def test_auto_pass_set_while_asked_passes_the_open_window() -> None:
    """RULES §6: setting auto-pass while asked answers the open window."""
    s = table(FOUR, equipment=[[], [], ["k9_unit"], []])
    s, _ = act(s, C.Investigate(seat=0, target=1, position=1))
    assert current_wait(s).seats == (2,)
    s, events = act(s, C.SetAutoPass(seat=2, enabled=True))
    assert types(events)[:3] == ["AutoPassSet", "WindowClosed", "CardViewed"]
    assert s.turn_seat == 1  # its end-of-turn window did not wait for seat 2 either
    # and once it is turned off, the seat is waited for again
    s, _ = act(s, C.SetAutoPass(seat=2, enabled=False))
    s, _ = act(s, C.Investigate(seat=1, target=0, position=1))
    assert current_wait(s).seats == (2,)
