"""RULES §6, §11: a private event (another seat's pass, an arrangement, an auto-pass setting)
changes no number anyone else is shown, at the time or later.

Twin tables: the same table played twice, one of them with extra private events of one seat (its
auto-pass switched on and off again, a pass in a window that a play then reopens). Every view of
the other seats and the public one must be the same at both tables, version and wait ids
included: a count of every event would let them count the other seat's passes.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from gcbc.rules import RuleViolation, current_wait, is_terminal, run, view
from gcbc.rules.state import State
from gcbc_contract import commands as C
from gcbc_contract.options import Deal
from tests.property.strategies import Plan, plans, play
from tests.support import KP, A, H, K, act, table

FOUR = [[A, H, H], [KP, K, K], [H, K, H], [K, H, K]]


def others(s: State, seat: int) -> list[int | None]:
    """Every viewer but ``seat``: the other seats and the public."""
    return [i for i in range(len(s.seats)) if i != seat] + [None]


def assert_same_to_others(a: State, b: State, seat: int, where: str) -> dict[int | None, int]:
    """Every other viewer's view of ``a`` is its view of ``b``; their wait ids (-1: none)."""
    ids = {}
    for viewer in others(a, seat):
        va = view(a, viewer, log_limit=20, wait_started=1.0)
        vb = view(b, viewer, log_limit=20, wait_started=1.0)
        assert va == vb, f"{where}: viewer {viewer} tells the tables apart"
        ids[viewer] = va.waiting_for[0].wait if va.waiting_for else -1
    return ids


def toggled(s: State, seat: int) -> State | None:
    """``s`` after ``seat`` switched its auto-pass and switched it back: two private events and
    nothing else (None: not now, as it would change more: a window it would pass, a return)."""
    st = s.seats[seat] if 0 <= seat < len(s.seats) else None
    if st is None or s.window is not None or st.absent or st.missed or is_terminal(s):
        return None  # (a seat's command ends its run of missed deadlines: not only private)
    if not s.identities:
        return None
    try:
        s, first = run(s, C.SetAutoPass(seat=seat, enabled=not st.auto_pass))
        s, second = run(s, C.SetAutoPass(seat=seat, enabled=st.auto_pass))
    except RuleViolation:
        return None
    assert {type(e).__name__ for e in first + second} == {"AutoPassSet"}
    return s


def twin(commands: list[Any], seat: int, rate: float, rng: random.Random) -> int:
    """Plays ``commands`` at two tables, the second with ``seat``'s auto-pass switched on and off
    before some of them; compares every other viewer's view after each. The toggles made."""
    a = b = State()
    made = 0
    waits: tuple[Any, dict[int | None, int]] = (None, {})  # the engine's wait, the viewers' ids
    for k, command in enumerate(commands):
        if rng.random() < rate and (t := toggled(b, seat)) is not None:
            b, made = t, made + 1
        a, _ = run(a, command)
        if isinstance(command, C.DeadlinePassed):  # the engine's own wait id differs
            command = C.DeadlinePassed(wait=current_wait(b).id)  # type: ignore[union-attr]
        b, _ = run(b, command)
        if is_terminal(a):
            continue
        ids = assert_same_to_others(a, b, seat, f"command {k} {command}")
        # a new wait has a new id for every viewer (a client may key what it does on it)
        wait = current_wait(a)
        if wait is not None and waits[0] is not None and wait.id != waits[0].id:
            for viewer, was in waits[1].items():
                if ids[viewer] != -1:
                    assert ids[viewer] != was, f"command {k}: viewer {viewer} sees the same wait"
        waits = (wait, ids)
    assert is_terminal(a) and is_terminal(b)
    return made


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plan=plans(), seat=st.integers(0, 7), seed=st.integers(0, 2**32 - 1))
def test_another_seats_auto_pass_settings_change_no_number_shown(
    plan: Any, seat: int, seed: int
) -> None:
    commands = play(plan).commands
    twin(commands, seat % plan.n, 0.2, random.Random(seed))


def test_the_twin_tables_do_differ() -> None:
    """The driver does add private events (twins without any would prove nothing)."""
    commands = play(Plan(n=5, seed=3, choices=4, auto_pass=0.02)).commands
    assert twin(commands, 2, 0.5, random.Random(1)) > 10


def test_another_seats_pass_in_a_window_a_play_reopens_changes_no_number_shown() -> None:
    """Seat 2 passes, then seat 1 plays (every holder is asked again, seat 2 too): the table is
    where it would be without the pass, and only seat 2 can tell."""
    s = table(FOUR, equipment=[[], ["coffee"], ["k9_unit"], ["smoke_grenade"]])
    s, _ = act(s, C.Investigate(seat=0, target=1, position=1))
    passed, _ = act(s, C.Pass(seat=2))
    a, _ = act(passed, C.PlayEquipment(seat=1, card="coffee"))
    b, _ = act(s, C.PlayEquipment(seat=1, card="coffee"))
    assert a.version == b.version + 1  # the engine counts the pass: its own wait id differs
    assert a.window.since == b.window.since + 1  # type: ignore[union-attr]
    assert replace(a.window, since=0) == replace(b.window, since=0)
    assert_same_to_others(a, b, 2, "the window reopened")
    assert view(a, 2).version == view(b, 2).version + 1  # seat 2 saw its own pass
    for _ in range(6):  # and the table goes on the same, to the next turn
        seat = current_wait(a).seats[0]  # type: ignore[union-attr]
        a, _ = act(a, C.Pass(seat=seat))
        b, _ = act(b, C.Pass(seat=seat))
        assert_same_to_others(a, b, 2, f"after seat {seat}'s pass")
        if a.step != "window":
            break
    assert a.step == b.step == "action" and a.turn_seat == b.turn_seat == 1


def test_another_seats_arrangement_changes_no_number_shown() -> None:
    """An arrangement is private: seat 2's order, and its auto-pass switched on and off while
    the others arrange, show nowhere else; the first turn's wait ids are the same."""
    deal = Deal(
        integrity=tuple(tuple(h) for h in FOUR),
        equipment=((), ("coffee",), ("k9_unit",), ()),
        equipment_deck=(),
        first_seat=0,
    )
    opened = State()
    for c in [
        C.OpenTable(table_id="t", seats=4, deal=deal),
        *(C.TakeSeat(name=f"p{i}") for i in range(4)),
        C.StartGame(random_seed=7),
    ]:
        opened, _ = run(opened, c)
    a, b = opened, opened
    a, _ = run(a, C.Arrange(seat=2, positions=(3, 1, 2)))
    a, _ = run(a, C.SetAutoPass(seat=2, enabled=True))
    a, _ = run(a, C.SetAutoPass(seat=2, enabled=False))
    b, _ = run(b, C.Arrange(seat=2, positions=(1, 2, 3)))
    for seat in (0, 1, 3):
        a, _ = run(a, C.Arrange(seat=seat, positions=(1, 2, 3)))
        b, _ = run(b, C.Arrange(seat=seat, positions=(1, 2, 3)))
        assert_same_to_others(a, b, 2, f"seat {seat} arranged")
    assert a.step == b.step == "window"
    assert view(a, None).window.wait == view(b, None).window.wait  # type: ignore[union-attr]
    for seat in (1, 2):
        a, _ = run(a, C.Pass(seat=seat))
        b, _ = run(b, C.Pass(seat=seat))
    assert a.step == b.step == "action"
    assert current_wait(a).id == current_wait(b).id + 2  # type: ignore[union-attr]  # the toggles
    assert_same_to_others(a, b, 2, "the first turn")
