"""RULES §10: deadlines, the autopilot, absent seats."""

from __future__ import annotations

from typing import Any

import pytest

from gcbc.rules import (
    current_wait,
    decide,
    fold,
    initial_state,
    legal_commands,
    public_view,
    run,
    view,
)
from gcbc.rules.state import State
from gcbc_contract.options import Deadlines, Deal
from tests.support import KP, A, C, E, H, K, act, of_type, pass_window, refused, table, types
from tests.unit.rules.conftest import arm, play_turn

FOUR = [[A, H, H], [KP, K, K], [H, K, H], [K, H, K]]


def deadline(s: State) -> tuple[State, list[Any]]:
    """The deadline of the current wait passes."""
    w = current_wait(s)
    assert w is not None
    return run(s, C.DeadlinePassed(wait=w.id))


def declared_as_command(e: E.ActionDeclared) -> Any:
    """The action command an ActionDeclared event stands for."""
    if e.action == "investigate":
        return C.Investigate(seat=e.seat, target=e.target, position=e.position)
    if e.action == "equip":
        return C.Equip(seat=e.seat, position=e.position)
    if e.action == "arm":
        return C.Arm(seat=e.seat, target=e.target, position=e.position)
    assert e.action == "shoot"
    return C.Shoot(seat=e.seat)


def armed_seat0(seed: int = 7) -> State:
    """Seat 0 aims at seat 1 (turn 1); seats 1-3 investigate; seat 0's turn 5."""
    s = table(FOUR, seed=seed)
    s = arm(s, 0, 1)
    for seat in (1, 2, 3):
        s, _ = play_turn(s, C.Investigate(seat=seat, target=0, position=2))
    assert s.turn_seat == 0 and s.step == "action"
    return s


def answer(s: State, seat: int) -> State:
    """``seat`` answers what it is asked, plainly (pass, investigate, keep its aim, discard)."""
    w = current_wait(s)
    assert w is not None
    if w.kind == "reaction":
        return run(s, C.Pass(seat=seat))[0]
    cmds = legal_commands(s, seat)
    plain = (C.Investigate, C.Aim, C.Discard, C.Choose)
    pick = next((c for c in cmds if isinstance(c, plain)), None)
    if pick is None:
        pick = next(c for c in cmds if isinstance(c, C.Equip))
    return run(s, pick)[0]


def others_move(s: State, me: int) -> State:
    """Every seat but ``me`` answers what it is asked (a deadline answers windows for ``me``),
    until the table waits for ``me`` alone: its turn, Aim phase or a prompt."""
    while True:
        w = current_wait(s)
        assert w is not None, "the game ended"
        if w.kind == "reaction":
            s = deadline(s)[0] if me in w.seats else answer(s, w.seats[0])
        elif w.seats[0] == me:
            return s
        else:
            s = answer(s, w.seats[0])


# --- reaction windows ----------------------------------------------------------------------------
def test_a_window_deadline_is_a_pass_for_everyone_still_asked() -> None:
    """RULES §6/§10: an expired deadline is a pass in a window."""
    s = table(FOUR, equipment=[[], ["coffee"], ["k9_unit"], ["med_kit"]])
    s, _ = act(s, C.Investigate(seat=0, target=1, position=1))
    s, _ = act(s, C.Pass(seat=1))
    w = current_wait(s)
    assert (w.kind, w.seats, w.seconds) == ("reaction", (2, 3), 20.0)
    # when the deadline passes
    s, events = run(s, C.DeadlinePassed(wait=w.id))
    # then seats 2 and 3 pass, the window closes and the investigation resolves
    assert events[:4] == [
        E.ReactionPassed(seat=2, auto=True, missed=True),
        E.ReactionPassed(seat=3, auto=True, missed=True),
        E.WindowClosed(kind="investigate"),
        E.CardViewed(viewer=0, seat=1, position=1, card_id=3, card=KP, means="investigate"),
    ]
    assert not of_type(events, E.AutopilotActed)


def test_a_stale_deadline_is_refused() -> None:
    """RULES §10: a deadline names the wait it ends; once that wait is over it changes nothing."""
    s = table(FOUR, equipment=[[], ["coffee"], ["k9_unit"], ["med_kit"]])
    turn = current_wait(s).id
    s, _ = act(s, C.Investigate(seat=0, target=1, position=1))
    window = current_wait(s).id
    assert refused(s, C.DeadlinePassed(wait=turn)) == "stale_deadline"
    assert refused(s, C.DeadlinePassed(wait=window + 1000)) == "stale_deadline"
    # a play re-asks everyone: a new wait, with its own deadline
    s, _ = act(s, C.PlayEquipment(seat=1, card="coffee"))
    reopened = current_wait(s).id
    assert reopened != window
    assert refused(s, C.DeadlinePassed(wait=window)) == "stale_deadline"
    # a pass does not start a new wait
    s, _ = act(s, C.Pass(seat=2))
    assert current_wait(s).id == reopened
    # once the window is over, its deadline is stale
    s = pass_window(s)
    assert s.turn_seat == 1
    assert refused(s, C.DeadlinePassed(wait=reopened)) == "stale_deadline"


def test_no_deadline_in_the_lobby() -> None:
    """RULES §10: deadlines are those of waits for a seat; the lobby has none."""
    s, _ = run(initial_state(), C.OpenTable(table_id="t", seats=4))
    assert current_wait(s) is None
    assert refused(s, C.DeadlinePassed(wait=0)) == "stale_deadline"


# --- the autopilot -------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(8))
def test_a_missed_turn_deadline_makes_the_autopilot_take_a_legal_action(seed: int) -> None:
    """RULES §10: in a turn, the seat's autopilot acts: a legal choice."""
    s = armed_seat0(seed)
    legal = legal_commands(s, 0)
    w = current_wait(s)
    assert (w.kind, w.seats, w.seconds) == ("turn", (0,), 90.0)
    s, events = run(s, C.DeadlinePassed(wait=w.id))
    assert events[0] == E.AutopilotActed(seat=0, missed=True)
    assert isinstance(events[1], E.ActionDeclared) and events[1].seat == 0
    assert declared_as_command(events[1]) in legal
    assert s.seat(0).missed == 1 and not s.seat(0).absent


def test_the_autopilot_draws_from_the_tables_seed() -> None:
    """RULES §10: the choice is drawn from the table's seeded randomness (not always the same)."""
    chosen = set()
    for seed in range(12):
        s = armed_seat0(seed)
        _, events = deadline(s)
        chosen.add(declared_as_command(events[1]))
    assert len(chosen) > 2


def test_the_autopilot_is_reproducible() -> None:
    """RULES §10: same state, same deadline: same events; a replay of the log reproduces it."""
    s = armed_seat0(3)
    cmd = C.DeadlinePassed(wait=current_wait(s).id)
    assert decide(s, cmd) == decide(s, cmd)
    s1, e1 = run(s, cmd)
    s2, e2 = run(s, cmd)
    assert e1 == e2 and s1 == s2
    assert fold(list(s1.log)) == s1


def test_a_missed_aim_deadline_keeps_a_valid_aim() -> None:
    """RULES §10/§3.2: in the Aim phase the autopilot aims; a still valid aim is kept."""
    s = table(FOUR)
    s, _ = act(s, C.Arm(seat=0, target=2, position=1))
    w = current_wait(s)
    assert (w.kind, w.seats, w.seconds) == ("aim", (0,), 20.0)
    s, events = run(s, C.DeadlinePassed(wait=w.id))
    assert events[:2] == [E.AutopilotActed(seat=0, missed=True), E.GunAimed(seat=0, target=2)]
    assert s.turn_seat == 1


def test_a_missed_aim_deadline_with_an_eliminated_target_aims_at_a_living_seat() -> None:
    """RULES §10/§4: the autopilot's aim is legal: never an eliminated seat."""
    s = table(FOUR)
    s = arm(s, 0, 2)
    s, _ = play_turn(s, C.Investigate(seat=1, target=0, position=2))
    s, _ = play_turn(s, C.Investigate(seat=2, target=0, position=2))
    s = arm(s, 3, 2)
    s, _ = play_turn(s, C.Shoot(seat=0))  # seat 2 eliminated
    s, _ = play_turn(s, C.Investigate(seat=1, target=0, position=3))
    s, _ = act(s, C.Investigate(seat=3, target=1, position=1))
    assert current_wait(s).kind == "aim" and s.seat(3).aim == 2
    s, events = deadline(s)
    (aimed,) = of_type(events, E.GunAimed)
    assert aimed.seat == 3 and aimed.target in (0, 1)


def test_a_missed_prompt_deadline_makes_the_autopilot_answer() -> None:
    """RULES §10: in a prompt, the autopilot acts (here: a discard)."""
    s = table(FOUR, equipment=[["coffee"], [], [], []], deck=["wiretap"])
    s, _ = act(s, C.Equip(seat=0, position=1))
    w = current_wait(s)
    assert (w.kind, w.seats, w.prompt, w.seconds) == ("prompt", (0,), "discard", 20.0)
    s, events = run(s, C.DeadlinePassed(wait=w.id))
    assert events[0] == E.AutopilotActed(seat=0, missed=True)
    (discarded,) = of_type(events, E.EquipmentDiscarded)
    assert discarded.seat == 0 and discarded.card in ("coffee", "wiretap")
    assert len(s.seat(0).hand) == 1 and not s.prompts


# --- absent seats --------------------------------------------------------------------------------
def absent_seat0() -> tuple[State, list[Any]]:
    """Seat 0 misses three deadlines in a row; the others play on. The events of the third miss."""
    s = table(FOUR)
    for n in (1, 2, 3):
        s = others_move(s, 0)
        assert s.seat(0).missed == n - 1 and not s.seat(0).absent
        s, events = deadline(s)
    return s, events


def test_three_missed_deadlines_in_a_row_make_a_seat_absent() -> None:
    """RULES §10: a seat that misses three deadlines in a row stays on autopilot."""
    s, events = absent_seat0()
    assert events[:2] == [E.AutopilotActed(seat=0, missed=True), E.SeatAbsent(seat=0)]
    assert s.seat(0).absent
    assert public_view(s).seats[0].absent
    assert legal_commands(s, 0) == [
        C.SetAutoPass(seat=0, enabled=True),
        C.Resume(seat=0),
    ]


def test_an_absent_seats_turns_are_played_by_the_autopilot_at_once() -> None:
    """RULES §10: an absent seat stays on autopilot: its turns are played without waiting."""
    s, _ = absent_seat0()
    turns_of_seat0 = 0
    while turns_of_seat0 < 2:
        w = current_wait(s)
        assert w is not None and 0 not in w.seats  # never waited for
        before = len(s.log)
        s = answer(s, w.seats[0])
        new = list(s.log)[before:]
        for i, e in enumerate(new):
            if isinstance(e, E.TurnBegan) and e.seat == 0:
                turns_of_seat0 += 1
                assert new[i + 1] == E.AutopilotActed(seat=0, missed=False)
    assert s.seat(0).absent and s.seat(0).missed == 3


def test_acting_ends_a_streak_of_missed_deadlines() -> None:
    """RULES §10: three missed deadlines *in a row*."""
    s = table(FOUR)
    for _ in range(2):
        s = others_move(s, 0)
        s, _ = deadline(s)
    assert s.seat(0).missed == 2
    # when seat 0 answers its next wait itself
    s = others_move(s, 0)
    cmd = next(
        c for c in legal_commands(s, 0) if isinstance(c, (C.Investigate, C.Aim, C.Discard, C.Equip))
    )
    s, events = run(s, cmd)
    # then the streak is over: one more miss does not make it absent
    assert s.seat(0).missed == 0
    s = others_move(s, 0)
    s, events = deadline(s)
    assert not of_type(events, E.SeatAbsent)
    assert s.seat(0).missed == 1 and not s.seat(0).absent


def test_an_absent_seat_comes_back_with_resume() -> None:
    """RULES §10: it stays on autopilot until it comes back."""
    s, _ = absent_seat0()
    assert refused(s, C.Resume(seat=1)) == "not_absent"
    s, events = run(s, C.Resume(seat=0))
    assert events == [E.SeatReturned(seat=0)]
    assert not s.seat(0).absent and s.seat(0).missed == 0
    assert not public_view(s).seats[0].absent
    assert refused(s, C.Resume(seat=0)) == "not_absent"
    # its next turn waits for it again
    s = others_move(s, 0)
    w = current_wait(s)
    assert w.seats == (0,) and w.kind in ("turn", "aim", "prompt")


def test_an_absent_seat_comes_back_with_any_command_accepted_not_with_one_refused() -> None:
    """RULES §10: any command it sends brings it back. Decision (docs/rules.md §10): nothing waits
    on an absent seat, so a game move it sends is refused, and a refusal changes nothing; an
    accepted command (auto-pass turned on or off) brings it back as resume does."""
    s, _ = absent_seat0()
    t = s.turn_seat
    assert t != 0  # (its own turns are played at once)
    assert refused(s, C.Investigate(seat=0, target=t, position=1)) is not None
    assert s.seat(0).absent
    s, events = run(s, C.SetAutoPass(seat=0, enabled=True))
    assert events[0] == E.SeatReturned(seat=0)
    assert not s.seat(0).absent and not public_view(s).seats[0].absent


# --- deadlines per table -------------------------------------------------------------------------
def test_deadlines_are_set_per_table() -> None:
    """RULES §10: every wait has a deadline set per table (defaults 90 s turn, 20 s reaction or
    prompt)."""
    deal = Deal(integrity=tuple(tuple(h) for h in FOUR), equipment=((), ("coffee",), (), ()))
    s, _ = run(
        initial_state(),
        C.OpenTable(
            table_id="t",
            seats=4,
            deal=deal,
            deadlines=Deadlines(turn=30.0, reaction=5.0, prompt=7.0, arrange=11.0),
        ),
    )
    for i in range(4):
        s, _ = run(s, C.TakeSeat(name=f"seat{i}"))
    s, _ = run(s, C.StartGame(random_seed=1))
    assert current_wait(s).seconds == 11.0
    s, _ = deadline(s)
    assert (current_wait(s).kind, current_wait(s).seconds) == ("reaction", 5.0)
    s, _ = deadline(s)
    assert (current_wait(s).kind, current_wait(s).seconds) == ("turn", 30.0)
    s, _ = act(s, C.Arm(seat=s.turn_seat, target=(s.turn_seat + 1) % 4, position=1))
    assert (current_wait(s).kind, current_wait(s).seconds) == ("aim", 7.0)
    assert types(deadline(s)[1])[0] == "AutopilotActed"


# --- every missed deadline counts (RULES §10) ------------------------------------------------------
def holder_misses_windows(count: int) -> tuple[State, list[Any]]:
    """Seat 3 holds a Coffee and never answers: seats 0, 1... investigate, and every window
    (investigate, end of turn) asks seat 3 until its deadline passes. The state after ``count``
    missed windows, and the events of the last one."""
    s = table(FOUR, equipment=[[], [], [], ["coffee"]])
    events: list[Any] = []
    for _ in range(count):
        if s.step == "action":
            t = s.turn_seat
            s, _ = act(s, C.Investigate(seat=t, target=(t + 1) % 4, position=1))
        w = current_wait(s)
        assert (w.kind, w.seats) == ("reaction", (3,))
        s, events = deadline(s)
    return s, events


def test_three_missed_reaction_windows_in_a_row_make_a_seat_absent() -> None:
    """RULES §10 (a seat that misses three deadlines in a row — any wait counts: a reaction window
    too — is absent): seat 3 lets three windows run out; the third makes it absent."""
    s, events = holder_misses_windows(2)
    assert s.seat(3).missed == 2 and not s.seat(3).absent
    s, events = holder_misses_windows(3)
    assert events[:2] == [
        E.ReactionPassed(seat=3, auto=True, missed=True),
        E.SeatAbsent(seat=3),
    ]
    assert s.seat(3).absent and public_view(s).seats[3].absent


def test_an_absent_seat_passes_reaction_windows_at_once() -> None:
    """RULES §10 (reaction windows no longer wait for it: it passes at once; its autopilot plays
    its turns): once seat 3 is absent, no window and no turn waits for it."""
    s, _ = holder_misses_windows(3)
    for _ in range(8):
        w = current_wait(s)
        assert w is not None and 3 not in w.seats
        if w.kind == "reaction":
            assert s.window is not None and 3 in s.window.asked and 3 not in s.window.pending
        s = answer(s, w.seats[0])
    assert s.turn_number > 4 and s.seat(3).absent


def test_a_mix_of_waits_counts_towards_the_three() -> None:
    """RULES §10 (any wait counts: a turn, an aim, a prompt, a reaction window, the arrangement):
    seat 3 misses the arrangement, then two reaction windows: absent."""
    deal = Deal(integrity=tuple(tuple(h) for h in FOUR), equipment=((), (), (), ("coffee",)))
    s, _ = run(initial_state(), C.OpenTable(table_id="t", seats=4, deal=deal))
    for i in range(4):
        s, _ = run(s, C.TakeSeat(name=f"seat{i}"))
    s, _ = run(s, C.StartGame(random_seed=1))
    for i in (0, 1, 2):
        s, _ = act(s, C.Arrange(seat=i, positions=(1, 2, 3)))
    s, events = deadline(s)  # the arrangement
    assert of_type(events, E.CardsArranged) == [
        E.CardsArranged(seat=3, positions=(1, 2, 3), missed=True)
    ]
    assert s.seat(3).missed == 1
    s, _ = deadline(s)  # the start-of-game window
    assert s.seat(3).missed == 2 and not s.seat(3).absent
    s, _ = act(s, C.Investigate(seat=s.turn_seat, target=2, position=1))
    s, events = deadline(s)  # the investigate window
    assert E.SeatAbsent(seat=3) in events and s.seat(3).absent


def test_any_command_an_absent_seat_sends_brings_it_back() -> None:
    """RULES §10 (any command it sends, or an explicit resume, brings it back): the absent seat 3
    switches auto-pass on: it is back, and the next window waits for nobody (auto-pass)."""
    s, _ = holder_misses_windows(3)
    s, events = run(s, C.SetAutoPass(seat=3, enabled=True))
    assert events == [E.SeatReturned(seat=3), E.AutoPassSet(seat=3, enabled=True)]
    assert not s.seat(3).absent and s.seat(3).missed == 0
    assert not public_view(s).seats[3].absent


def test_answering_a_window_ends_the_streak_without_telling_anyone() -> None:
    """RULES §10 (three *in a row*), §6 (while a window is open nobody learns who has passed):
    seat 3 missed a window; in the next one it passes itself: its streak ends, and nobody else's
    view changes, not even its version."""
    s = table(FOUR, equipment=[[], [], ["k9_unit"], ["coffee"]])
    s, _ = act(s, C.Investigate(seat=0, target=1, position=1))
    s, _ = deadline(s)  # seats 2 and 3 miss the investigate window
    assert s.seat(3).missed == 1 and s.window.kind == "end_of_turn"
    before = {v: view(s, v, log=False) for v in (None, 0, 1, 2)}
    own = view(s, 3, log=False).version
    s, events = act(s, C.Pass(seat=3))
    assert events == [E.MissStreakEnded(seat=3), E.ReactionPassed(seat=3)]
    assert s.seat(3).missed == 0 and s.seat(2).missed == 1
    assert {v: view(s, v, log=False) for v in (None, 0, 1, 2)} == before
    assert view(s, 3, log=False).version == own + 2
