"""Arm, "take a gun" (RULES §3.1): only with no gun in hand and a gun in the centre. Take it and
aim it at once (§5: ``target``); then turn one own face-down card face up, if any (``position``).
No window opens (RULES §6 Decision: its effect cannot be undone).

Classic K-9 Unit (RULES §7.2): a seat whose gun it dropped on its own turn may not take a gun that
turn (``arm_barred``). Zombies (RULES §8): a zombie cannot take a gun.
"""

from __future__ import annotations

from gcbc.rules.actions.base import CARD_TO_REVEAL, Action, not_a_zombie
from gcbc.rules.effects import reveal
from gcbc.rules.moves import Rule
from gcbc.rules.state import State
from gcbc.rules.targets import other_living_seat
from gcbc_contract import commands as C
from gcbc_contract import events as E


def _may_take_gun(s: State, seat: int) -> bool:
    """Whether the seat may Arm now: the requirements hold, and another living seat is there to
    aim at (a card to turn face up is optional)."""
    st = s.seats[seat]
    if st.gun or s.guns_in_centre <= 0 or st.zombie or s.marks.arm_barred == seat:
        return False
    return any(t != seat and not other.eliminated for t, other in enumerate(s.seats))


class Arm(Action):
    name = "arm"
    command = C.Arm
    requires = (
        not_a_zombie("take a gun"),
        Rule(
            "arm_barred",
            "K-9 Unit: you may not take a gun this turn",
            lambda s, seat: s.marks.arm_barred != seat,
        ),
        Rule("has_gun", "you already hold a gun", lambda s, seat: not s.seats[seat].gun),
        Rule(
            "no_gun_in_centre", "no gun is left in the centre", lambda s, seat: s.guns_in_centre > 0
        ),
    )
    # RULES §5: never aim at yourself or at an eliminated seat
    params = (other_living_seat("target"), CARD_TO_REVEAL)
    needs = _may_take_gun  # asked at every turn: the requirements and a target in one call

    def declare(self, s, seat, cmd):
        return [
            E.ActionDeclared(seat=seat, action=self.name, target=cmd.target, position=cmd.position)
        ]

    def resolve(self, s, seat, declared):
        target, position = declared.target, declared.position
        if not self.accepts(s, seat, {"target": target, "position": position}):
            return [E.ActionCancelled(seat=seat, reason="impossible")]
        events = [E.GunTaken(seat=seat, aim=target)]
        if position is not None:
            events.append(reveal(s, seat, position))
        return [*events, E.ActionResolved(seat=seat)]


ARM = Arm()
