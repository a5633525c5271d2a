"""Givens shared by the tests of the Zombies equipment and Alarm Clock (RULES §8.1), on top of
``tests.support``, the equipment ``scenario`` helpers and the Zombies ``given`` helpers.

The standard 4-seat deal ``FOUR`` (card id of seat ``i``, position ``p``: ``3 * i + p - 1``):

    seat 0: agent,   honest,  honest    (team honest)
    seat 1: kingpin, crooked, crooked   (team crooked)
    seat 2: honest,  crooked, honest    (team honest)
    seat 3: crooked, honest,  crooked   (team crooked)
"""

from __future__ import annotations

from typing import Any

from gcbc.rules.effects import reveal
from gcbc.rules.evolve import fold
from gcbc.rules.invariants import violations
from gcbc.rules.query import face_down
from gcbc.rules.state import State
from gcbc_contract.options import TableOptions
from tests.support import EXTRA, ZOMBIES, C, act

# extra equipment on a classic table: 2 guns at 4 seats (RULES §1, §8.1)
CLASSIC_EXTRA = TableOptions(edition="classic", extra_equipment=True)
BOTH = (ZOMBIES, EXTRA)  # the cards that need no zombie are in either deck (RULES §8.1)


def revealed(s: State, seat: int, *positions: int) -> State:
    """Given: ``seat`` turned these cards face up earlier (default: all its face-down cards), by
    the engine's own reveal events."""
    s = fold([reveal(s, seat, p) for p in positions or face_down(s, seat)], s)
    assert violations(s) == []
    return s


def wrong_moments(s: State, cmd: Any) -> None:
    """RULES §6: ``cmd`` (seat 1's play, in seat 0's action phase) is refused with the state
    unchanged: not seat 1's turn; and from a hand that does not hold the card."""
    from tests.unit.rules.equipment.scenario import refused_unchanged

    assert s.step == "action" and s.turn_seat == 0 and cmd.seat == 1
    assert refused_unchanged(s, cmd) == "not_playable_now"
    other = C.PlayEquipment(**{**_fields(cmd), "seat": 0})
    assert refused_unchanged(s, other) == "card_not_in_hand"
    # and in the Aim phase of seat 0's turn, nobody may play
    if s.seat(0).gun:
        a, _ = act(s, C.Equip(seat=0, position=2))
        if a.step == "aim":
            assert refused_unchanged(a, cmd) == "not_playable_now"


def _fields(cmd: Any) -> dict[str, Any]:
    return {f: getattr(cmd, f) for f in cmd.__struct_fields__}
