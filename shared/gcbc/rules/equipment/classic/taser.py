"""Taser, classic wording (RULES §7.2): your own turn, **as your action**: take the gun of any seat
and aim it at once (§5). ``target``: the seat whose gun you take; ``aim``: where it aims.

The play is the turn's action: it ends with the action resolved, so the turn goes on to the Aim
phase (§3.2, where the new holder may keep or change its aim) and the end-of-turn window.

Decision: you must hold no gun (§5: at most one gun).
Decision: "any seat" is any other living seat holding a gun (an eliminated seat holds none); a
zombie is never a target and a zombie cannot play it (§8: zombies cannot steal a gun).
Decision: a seat that a classic K-9 Unit barred from taking a gun this turn (§7.2) cannot take one
with Taser either ("arm_barred").
Decision: the gun is not locked: the action is spent, so it cannot shoot this turn anyway.
"""

from __future__ import annotations

from gcbc.rules.equipment.registry import register
from gcbc.rules.equipment.taser import Taser
from gcbc.rules.moves import Rule
from gcbc.rules.timing import OWN_TURN_ACTION
from gcbc_contract.events import ActionResolved, GunTaken


@register
class ClassicTaser(Taser):
    """The fourth edition's targets and checks; the play is the action and the gun is unlocked."""

    edition = "classic"
    timing = OWN_TURN_ACTION
    requires = (
        *Taser.requires,
        Rule(
            "arm_barred",
            "K-9 Unit: you may not take a gun this turn",
            lambda s, seat: s.marks.arm_barred != seat,
        ),
    )

    def resolve(self, s, seat, cmd):
        return [GunTaken(seat=seat, aim=cmd.aim, from_seat=cmd.target), ActionResolved(seat=seat)]
