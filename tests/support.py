"""Given / when / then helpers for scenario tests of the rules engine."""

from __future__ import annotations

from typing import Any

from gcbc.rules import RuleViolation, current_wait, run
from gcbc.rules.state import State, initial_state
from gcbc_contract import commands as C
from gcbc_contract import events as E
from gcbc_contract.options import Deal, TableOptions

H, K, A, KP = "honest", "crooked", "agent", "kingpin"
CLASSIC = TableOptions(edition="classic")
ZOMBIES = TableOptions(zombies=True)
BOMBERS = TableOptions(bombers_traitors=True)
EXTRA = TableOptions(extra_equipment=True)


def table(
    integrity: list[list[str]],
    equipment: list[list[str]] | None = None,
    deck: list[str] | None = None,
    first_seat: int = 0,
    seed: int = 7,
    start_window: bool = True,
    options: TableOptions | None = None,
) -> State:
    """A started scenario table: cards arranged as given, and (by default) the start-of-game
    window passed by everyone, so the first seat is in its action phase."""
    n = len(integrity)
    deal = Deal(
        integrity=tuple(tuple(h) for h in integrity),
        equipment=tuple(tuple(h) for h in (equipment or [[] for _ in range(n)])),
        equipment_deck=tuple(deck or ()),
        first_seat=first_seat,
    )
    s = initial_state()
    s, _ = run(s, C.OpenTable(table_id="t", seats=n, deal=deal, options=options or TableOptions()))
    for i in range(n):
        s, _ = run(s, C.TakeSeat(name=f"seat{i}"))
    s, _ = run(s, C.StartGame(random_seed=seed))
    for i in range(n):
        s, _ = run(s, C.Arrange(seat=i, positions=(1, 2, 3)))
    if start_window:
        s = pass_window(s)
    return s


def act(s: State, command: Any) -> tuple[State, list[Any]]:
    return run(s, command)


def refused(s: State, command: Any) -> str:
    """The violation code ``command`` is refused with (fails if it is accepted)."""
    try:
        run(s, command)
    except RuleViolation as v:
        return v.code
    raise AssertionError(f"{command} was accepted")


def pass_window(s: State, except_seats: tuple[int, ...] = ()) -> State:
    """Everyone still asked in the open window passes (but ``except_seats``)."""
    w = current_wait(s)
    while w is not None and w.kind == "reaction":
        todo = [i for i in w.seats if i not in except_seats]
        if not todo:
            break
        s, _ = run(s, C.Pass(seat=todo[0]))
        w = current_wait(s)
    return s


def of_type(events: list[Any], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def types(events: list[Any]) -> list[str]:
    return [type(e).__name__ for e in events]


__all__ = [
    "BOMBERS",
    "CLASSIC",
    "EXTRA",
    "ZOMBIES",
    "A",
    "C",
    "E",
    "H",
    "K",
    "KP",
    "act",
    "of_type",
    "pass_window",
    "refused",
    "table",
    "types",
]
