"""Scenario tests of the classic edition's cards (RULES §7.2) and its setup and wounds (§1, §4).

Givens shared by these tests (on top of ``tests.unit.rules.equipment.scenario``): the classic
options, with and without Zombies, the 6-seat deal (Report Audit is used from 6 players), and
state givens built from the engine's own events.
"""

from __future__ import annotations

from gcbc.rules.effects import reveal
from gcbc.rules.equipment.registry import card
from gcbc.rules.evolve import fold
from gcbc.rules.invariants import violations
from gcbc.rules.state import State
from gcbc_contract.commands import PlayEquipment
from gcbc_contract.options import TableOptions
from tests.support import CLASSIC, KP, A, H, K

CLASSIC_ZOMBIES = TableOptions(edition="classic", zombies=True)
# 6 seats: 8 Honest, 8 Crooked, nothing burned
SIX = [[A, H, H], [KP, K, K], [H, K, H], [K, H, K], [H, K, H], [K, H, K]]

__all__ = ["CLASSIC", "CLASSIC_ZOMBIES", "SIX", "revealed_earlier", "revived_earlier"]


def revealed_earlier(s: State, seat: int, position: int) -> State:
    """Given: the card at ``seat``/``position`` was turned face up earlier (the engine's event)."""
    s = fold([reveal(s, seat, position)], s)
    assert violations(s) == []
    return s


def revived_earlier(s: State, seat: int, position: int) -> State:
    """Given: ``seat`` was revived earlier by a classic Defibrillator, keeping only the card at
    ``position`` (the card's own events, folded)."""
    cmd = PlayEquipment(seat=-1, card="defibrillator", target=seat, position=position)
    s = fold(card(s, "defibrillator").resolve(s, -1, cmd), s)
    assert violations(s) == [] and len(s.seat(seat).cards) == 1
    return s
