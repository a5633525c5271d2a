"""Aim (RULES §3.2): a seat still holding a gun, or a zombie its Arms (§8), aims it at a living
seat other than itself (it may keep its current target); then the end-of-turn window opens.

Decision (RULES §8 "may aim its Arms at any seat"): like a gun, never at itself (Arms aimed at
itself are what a shot leaves: nothing to choose) nor at an eliminated seat. A zombie that just
bit a seat, or a seat that just shot a zombie, must aim elsewhere unless no other seat is left
(``query.aim_choices``).
"""

from __future__ import annotations

from typing import Any

from gcbc.contract import commands as C
from gcbc.contract import events as E
from gcbc.rules.moves import Move, Rule
from gcbc.rules.query import aim_choices, holders
from gcbc.rules.targets import LIVING, NOT_SELF, seat


def _not_just_hit(s, seat, targets, chosen):
    choices = aim_choices(s, seat)
    return [t for t in targets if t in choices]


_MUST_REAIM = Rule(
    "must_reaim", "you just hit seat {value}: aim at another seat (RULES §8)", select=_not_just_hit
)


class Aim(Move):
    name = "aim"
    command = C.Aim
    # the options: the choices left, found at once (the rules' own definition of them)
    params = (
        seat(
            "target",
            NOT_SELF,
            LIVING,
            _MUST_REAIM,
            quick=lambda s, me, c: aim_choices(s, me),
            quick_rules=3,
        ),
    )

    def resolve(self, s, seat, cmd) -> list[Any]:
        aimed: Any = (
            E.ArmsAimed(seat=seat, target=cmd.target)
            if s.seats[seat].zombie
            else E.GunAimed(seat=seat, target=cmd.target)
        )
        return [aimed, E.WindowOpened(kind="end_of_turn", asked=holders(s))]


AIM = Aim()
