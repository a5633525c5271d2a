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

from gcbc.rules.equipment.k9_unit import K9Unit
from gcbc.rules.equipment.registry import register
from gcbc_contract.events import GunDropped


@register
class ClassicK9Unit(K9Unit):
    """The fourth edition's targets and checks (zombies included); a dropped gun may bar."""

    edition = "classic"

    def resolve(self, s, seat, cmd):
        t = cmd.target
        if s.seat(t).zombie:
            return super().resolve(s, seat, cmd)
        return [GunDropped(seat=t, barred=t == s.turn_seat)]
