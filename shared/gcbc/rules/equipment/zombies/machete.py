"""Machete (RULES §8.1): choose another living seat holding a gun and no face-up Leader card: it
is shot, by you (RULES §4).

Zombies (RULES §8: 'equipment that affects guns/shooting affects Arms the same way'): a zombie
whose Arms aim at another seat is armed (Arms aimed at itself are a dropped gun, as for the K-9
Unit); shot, its Arms turn to aim at itself. A zombie holds no Leader card."""

from __future__ import annotations

from gcbc.rules.effects import get_shot
from gcbc.rules.equipment import checks
from gcbc.rules.equipment.base import ANY, Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.errors import refuse
from gcbc.rules.query import others_alive, wields
from gcbc.rules.teams import holds_leader


def shows_leader(s, seat):
    """Whether ``seat`` holds a Leader card face up."""
    cid = holds_leader(s, seat)
    st = s.seat(seat)
    return cid is not None and st.face_up[st.cards.index(cid)]


@register
class Machete(Card):
    name = "machete"
    timing = ANY
    params = frozenset({"target"})

    def options(self, s, seat):
        return [
            self.play(seat, target=t)
            for t in others_alive(s, seat)
            if wields(s, t) and not shows_leader(s, t)
        ]

    def check(self, s, seat, cmd):
        t = checks.other_living(s, seat, cmd.target)
        if not wields(s, t):
            raise refuse("no_gun", f"seat {t} holds no gun (nor Arms aimed at another seat)")
        if shows_leader(s, t):
            raise refuse("target_is_leader", f"seat {t} holds a face-up Leader card")

    def resolve(self, s, seat, cmd):
        return get_shot(s, seat, cmd.target)
