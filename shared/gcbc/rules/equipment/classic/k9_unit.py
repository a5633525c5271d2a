"""K-9 Unit, classic wording (RULES §7.2): any window. A seat holding a gun (``target``, yourself
possible) drops it to the centre; if it is that seat's turn, it may not take a gun this turn
(``GunDropped(barred=True)``: Arm, and classic Taser, are refused with "arm_barred").

With the Zombies expansion (§8: equipment that would make a zombie drop its gun makes it aim its
Arms at itself) a zombie whose Arms aim at another seat may be chosen: its Arms turn to aim at
itself.

Decision: the bar applies whenever the card is played during the target's own turn (before its
action it keeps it from taking a gun; after it, it changes nothing).
"""

from __future__ import annotations

from gcbc.contract.events import ArmsAimed, GunDropped
from gcbc.rules.equipment import checks
from gcbc.rules.equipment.base import ANY, Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.errors import refuse


def targets(s):
    return [
        i
        for i, st in enumerate(s.seats)
        if not st.eliminated and (st.gun or (st.zombie and st.arms_aim != i))
    ]


@register
class ClassicK9Unit(Card):
    name = "k9_unit"
    edition = "classic"
    timing = ANY
    params = frozenset({"target"})

    def options(self, s, seat):
        return [self.play(seat, target=t) for t in targets(s)]

    def check(self, s, seat, cmd):
        t = checks.living(s, cmd.target)
        st = s.seat(t)
        if st.zombie:
            if st.arms_aim == t:
                raise refuse("no_effect", f"zombie {t}'s Arms already aim at itself")
        elif not st.gun:
            raise refuse("no_gun", f"seat {t} holds no gun")

    def resolve(self, s, seat, cmd):
        t = cmd.target
        if s.seat(t).zombie:
            return [ArmsAimed(seat=t, target=t)]
        return [GunDropped(seat=t, barred=t == s.turn_seat)]
