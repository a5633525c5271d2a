"""Givens shared by the Zombies tests (RULES §8), on top of ``tests.support`` and the equipment
``scenario`` helpers. Every table here is a Zombies table (``ZOMBIES``): 4 seats, N-2 = 2 Arms.

The standard deal ``FOUR`` (card id of seat ``i``, position ``p``: ``3 * i + p - 1``):

    seat 0: agent,   honest,  honest    (team honest)
    seat 1: kingpin, crooked, crooked   (team crooked)
    seat 2: honest,  crooked, honest    (team honest; no Leader: may become a zombie)
    seat 3: crooked, honest,  crooked   (team crooked; no Leader: may become a zombie)
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from gcbc.rules.effects import get_bitten, get_shot
from gcbc.rules.evolve import fold
from gcbc.rules.invariants import violations
from gcbc.rules.state import State
from gcbc_contract import events as E
from gcbc_contract.options import TableOptions
from tests.support import KP, ZOMBIES, A
from tests.unit.rules.equipment.scenario import deal

BOTH = TableOptions(zombies=True, bombers_traitors=True)
# 4 seats with both expansions: seat 2 is a Traitor (three knives), seat 3 a Bomber (three bombs)
BOMBER_DEAL = [
    [A, "honest_bomb", "honest_bomb"],
    [KP, "crooked_knife", "crooked_knife"],
    ["honest_knife", "honest_knife", "honest_bomb_knife"],
    ["crooked_bomb", "crooked_bomb", "crooked_bomb_knife"],
]


def zdeal(
    hands: dict[int, str] | None = None,
    zombies: dict[int, int] | None = None,
    guns: dict[int, int] | None = None,
    **kw: Any,
) -> State:
    """A started Zombies table (``scenario.deal`` with ``options=ZOMBIES``). ``zombies`` maps a
    seat to where its Arms aim: it was shot earlier and rose as a zombie (``risen``)."""
    s = deal(hands or {}, guns=guns, options=ZOMBIES, **kw)
    for z, target in (zombies or {}).items():
        s = risen(s, z)
        if target != z:
            s = arms_at(s, z, target)
    return s


def risen(s: State, seat: int, shooter: int | None = None) -> State:
    """Given: ``seat`` was shot earlier (by ``shooter``, default the next seat) and became a zombie
    (RULES §8): the engine's own shot events, folded."""
    shooter = (seat + 1) % len(s.seats) if shooter is None else shooter
    s = earlier(fold(get_shot(s, shooter, seat), s))
    assert s.seat(seat).zombie and violations(s) == [], violations(s)
    return s


def earlier(s: State) -> State:
    """The events just folded happened in an earlier turn: the current turn starts after them
    (nothing of theirs is the current turn's)."""
    return replace(s, marks=replace(s.marks, turn_fell=False))


def bitten_earlier(s: State, biter: int, target: int) -> State:
    """Given: ``target`` was bitten by ``biter`` earlier (the engine's own bite events, folded)."""
    s = earlier(fold(get_bitten(s, biter, target), s))
    assert violations(s) == [] and s.step != "finished"
    return s


def arms_at(s: State, zombie: int, target: int) -> State:
    """Given: ``zombie`` aimed its Arms at ``target`` in an earlier Aim phase."""
    s = fold([E.ArmsAimed(seat=zombie, target=target)], s)
    assert violations(s) == []
    return s
