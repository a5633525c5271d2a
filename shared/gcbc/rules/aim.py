"""Aim (RULES §3.2): a seat still holding a gun, or a zombie its Arms (§8), aims it at a living
seat other than itself (it may keep its current target); then the end-of-turn window opens.

Decision (RULES §8 "may aim its Arms at any seat"): that aim is optional: a zombie may keep its
Arms where they are, even on itself (``Aim`` at its own seat, only then); a new aim is a living
seat other than itself, zombies included. A zombie that just bit a seat, or a seat that just shot
a zombie, must aim elsewhere unless no other seat is left (``query.aim_choices``).
"""

from __future__ import annotations

from typing import Any

from gcbc.rules.moves import Move, Rule
from gcbc.rules.query import aim_choices, holders
from gcbc.rules.targets import LIVING, seat
from gcbc_contract import commands as C
from gcbc_contract import events as E


def _hit_but_alone(s, me):
    """Whether the seat just hit, if any, is the only one left to aim at (then it may be)."""
    return aim_choices(s, me) == [s.marks.reaim_from]


def _not_just_hit(s, me, targets, chosen):
    hit = s.marks.reaim_from
    if hit is None or _hit_but_alone(s, me):
        return targets
    return [t for t in targets if t != hit]


_MUST_REAIM = Rule(
    "must_reaim",
    "you just hit seat {value}: aim at another seat (RULES §8)",
    lambda s, me, t, c: t != s.marks.reaim_from or _hit_but_alone(s, me),
    select=_not_just_hit,
)
# a gun never aims at its holder (RULES §5)
_NOT_SELF_WITH_A_GUN = Rule(
    "target_is_self",
    "choose another seat than yours",
    lambda s, me, t, c: t != me or s.seats[me].zombie,
    select=lambda s, me, ts, c: ts if s.seats[me].zombie else [t for t in ts if t != me],
)
# a zombie names itself only to keep its Arms on itself (RULES §8)
_KEEPS_ARMS_ON_ITSELF = Rule(
    "invalid_target",
    "your Arms aim at another seat: keep them there or aim them at another seat than yours",
    lambda s, me, t, c: t != me or s.seats[me].arms_aim == me,
    select=lambda s, me, ts, c: ts if s.seats[me].arms_aim == me else [t for t in ts if t != me],
)


class Aim(Move):
    name = "aim"
    command = C.Aim
    params = (seat("target", _NOT_SELF_WITH_A_GUN, _KEEPS_ARMS_ON_ITSELF, LIVING, _MUST_REAIM),)

    def resolve(self, s, seat, cmd) -> list[Any]:
        aimed: Any = (
            E.ArmsAimed(seat=seat, target=cmd.target)
            if s.seats[seat].zombie
            else E.GunAimed(seat=seat, target=cmd.target)
        )
        return [aimed, E.WindowOpened(kind="end_of_turn", asked=holders(s))]


AIM = Aim()
