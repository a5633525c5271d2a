"""Machete (RULES §8.1): choose another living seat holding a gun and no face-up Leader card: it
is shot, by you (RULES §4).

Decision: a zombie's Arms are not a gun here: a zombie is never "armed" for the Machete."""

from __future__ import annotations

from gcbc.rules.effects import get_shot
from gcbc.rules.equipment import checks
from gcbc.rules.equipment.base import ANY, Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.errors import refuse
from gcbc.rules.query import others_alive
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
            if s.seat(t).gun and not shows_leader(s, t)
        ]

    def check(self, s, seat, cmd):
        t = checks.other_living(s, seat, cmd.target)
        if not s.seat(t).gun:
            raise refuse("no_gun", f"seat {t} holds no gun")
        if shows_leader(s, t):
            raise refuse("target_is_leader", f"seat {t} holds a face-up Leader card")

    def resolve(self, s, seat, cmd):
        return get_shot(s, seat, cmd.target)
