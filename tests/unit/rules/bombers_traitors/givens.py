"""Shared givens for the Bombers & Traitors tests (RULES §9).

Icon cards are named by side then icons. The 4-seat deck (§9, 4+) holds, per side, 2 bomb, 1
bomb+knife and 2 knife cards: all ten are dealt with the two Leaders (nothing burned). The card at
seat ``i``, position ``p`` has id ``3 * i + p - 1`` (see ``tests.unit.rules.equipment.scenario``).
"""

from __future__ import annotations

from typing import Any

from gcbc.rules.effects import reveal
from gcbc.rules.evolve import fold
from gcbc.rules.invariants import violations
from gcbc.rules.state import State
from gcbc_contract.events import ArmsAimed
from gcbc_contract.options import TableOptions
from tests.support import BOMBERS, KP, A
from tests.unit.rules.equipment.scenario import deal, end_turn, shot_earlier

HB, CB = "honest_bomb", "crooked_bomb"
HK, CK = "honest_knife", "crooked_knife"
HBK, CBK = "honest_bomb_knife", "crooked_bomb_knife"

ZOMBIES_BT = TableOptions(bombers_traitors=True, zombies=True)

# seat 0 Agent (honest), seat 1 Kingpin (crooked), seat 2 a Bomber, seat 3 a Traitor
BOMBER_TRAITOR = [[A, HB, CK], [KP, CB, HK], [HB, CB, HBK], [HK, CK, CBK]]
# seats 2 and 3 both Bombers
TWO_BOMBERS = [[A, HK, CK], [KP, HK, CK], [HB, CB, HBK], [HB, CB, CBK]]
# seat 2 a Bomber; seat 3 honest (H, H, C: two knives, one bomb), no Traitor
BOMBER_ONLY = [[A, CB, HK], [KP, CBK, CK], [HB, CB, HBK], [HB, HK, CK]]
# no role: seat 2 honest (two bombs, two knives), seat 3 crooked (two bombs, two knives)
NO_ROLES = [[A, HB, HK], [KP, CB, CK], [HB, CK, HBK], [CB, HK, CBK]]


def bt_deal(
    hands: dict[int, str] | None = None,
    integrity: list[list[str]] | None = None,
    options: TableOptions = BOMBERS,
    **kw: Any,
) -> State:
    """A started Bombers & Traitors table (``scenario.deal`` with the icon cards)."""
    return deal(hands or {}, integrity=integrity or BOMBER_TRAITOR, options=options, **kw)


def face_up(s: State, *cards: tuple[int, int]) -> State:
    """Given: the cards at these (seat, position) were turned face up earlier."""
    for seat, position in cards:
        s = fold([reveal(s, seat, position)], s)
    assert violations(s) == []
    return s


def zombie(s: State, seat: int, aim: int, shooter: int = 0) -> State:
    """Given: ``seat`` was shot by ``shooter`` earlier and rose as a zombie, its Arms now aimed at
    ``aim`` (Zombies, RULES §8). Then the turns are played plainly up to the zombie's own (a seat
    that rose during its own turn does not act in it)."""
    assert s.turn_seat != seat
    s = shot_earlier(s, seat, shooter=shooter)
    assert s.seat(seat).zombie
    s = fold([ArmsAimed(seat=seat, target=aim)], s)
    assert violations(s) == []
    while s.turn_seat != seat:
        s = end_turn(s)
    assert s.seat(seat).arms_aim == aim
    return s
