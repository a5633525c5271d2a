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

from gcbc.contract.events import ActionResolved, GunTaken
from gcbc.rules.equipment import checks
from gcbc.rules.equipment.base import OWN_TURN_ACTION, Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.errors import refuse
from gcbc.rules.query import armed, others_alive


@register
class ClassicTaser(Card):
    name = "taser"
    edition = "classic"
    timing = OWN_TURN_ACTION
    params = frozenset({"target", "aim"})

    def options(self, s, seat):
        st = s.seat(seat)
        if st.zombie or st.gun or s.arm_barred == seat:
            return []
        return [
            self.play(seat, target=t, aim=a)
            for t in armed(s)
            if t != seat and not s.seat(t).zombie
            for a in others_alive(s, seat)
        ]

    def check(self, s, seat, cmd):
        st = s.seat(seat)
        if st.zombie:
            raise refuse("zombie_cannot", "a zombie cannot take a gun")
        if st.gun:
            raise refuse("has_gun", "you already hold a gun")
        if s.arm_barred == seat:
            raise refuse("arm_barred", "K-9 Unit: you may not take a gun this turn")
        t = checks.other_living(s, seat, cmd.target)
        if s.seat(t).zombie:
            raise refuse("target_is_zombie", "Taser cannot target a zombie")
        if not s.seat(t).gun:
            raise refuse("no_gun", f"seat {t} holds no gun")
        checks.other_living(s, seat, cmd.aim)

    def resolve(self, s, seat, cmd):
        return [GunTaken(seat=seat, aim=cmd.aim, from_seat=cmd.target), ActionResolved(seat=seat)]
