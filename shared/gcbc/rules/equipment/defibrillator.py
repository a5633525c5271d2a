"""Defibrillator (RULES §7.1): bring an eliminated non-Leader seat back (not yourself); its cards
stay face up.

Zombies (RULES §8: 'equipment that may pick an eliminated seat may pick a zombie; bringing a seat
"back to life" (Defibrillator) turns a zombie back into an ordinary seat'): a zombie other than
yourself may be chosen: it stops being a zombie (``ZombieCured``), its Arms return to the centre,
its cards stay face up, and its cards decide its team again. Decision: 'not yourself' holds for a
zombie too.
"""

from __future__ import annotations

from gcbc.rules.equipment.base import Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.moves import Rule
from gcbc.rules.targets import seat
from gcbc.rules.teams import holds_leader
from gcbc.rules.timing import ANY
from gcbc_contract.events import SeatRevived, ZombieCured


def _any_revivable(s, me):
    """Whether a seat other than ``me``, eliminated or a zombie, holds no Leader card: asked in
    every window of the card's holder (mostly no one has fallen)."""
    return any(
        t != me and (st.eliminated or st.zombie) and holds_leader(s, t) is None
        for t, st in enumerate(s.seats)
    )


@register
class Defibrillator(Card):
    name = "defibrillator"
    timing = ANY
    needs = _any_revivable
    params = (
        seat(
            "target",
            Rule(
                "target_is_self",
                "you cannot revive yourself",
                select=lambda s, me, ts, c: [t for t in ts if t != me],
            ),
            Rule(
                "invalid_target",
                "seat {value} is neither eliminated nor a zombie",
                select=lambda s, me, ts, c: [
                    t for t in ts if s.seats[t].eliminated or s.seats[t].zombie
                ],
            ),
            Rule(
                "invalid_target",
                "a Leader cannot be revived",
                select=lambda s, me, ts, c: [t for t in ts if holds_leader(s, t) is None],
            ),
        ),
    )

    def resolve(self, s, seat, cmd):
        if s.seat(cmd.target).zombie:
            return [ZombieCured(seat=cmd.target)]
        return [SeatRevived(seat=cmd.target)]
