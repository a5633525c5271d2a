"""Machete (RULES §8.1): choose another living seat holding a gun and no face-up Leader card: it
is shot, by you (RULES §4).

Zombies (RULES §8: 'equipment that acts on guns and shooting acts on Arms and biting the same way'):
a zombie whose Arms aim at another seat is armed (Arms aimed at itself are a dropped gun, as for the
K-9 Unit); shot, its Arms turn to aim at itself. A zombie holds no Leader card."""

from __future__ import annotations

from gcbc.rules.effects import get_shot
from gcbc.rules.equipment.base import Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.moves import Rule
from gcbc.rules.query import wields
from gcbc.rules.targets import other_living_seat
from gcbc.rules.teams import holds_leader
from gcbc.rules.timing import ANY


def shows_leader(s, seat):
    """Whether ``seat`` holds a Leader card face up."""
    cid = holds_leader(s, seat)
    st = s.seat(seat)
    return cid is not None and st.face_up[st.cards.index(cid)]


@register
class Machete(Card):
    name = "machete"
    timing = ANY
    params = (
        other_living_seat(
            "target",
            Rule(
                "no_gun",
                "seat {value} holds no gun (nor Arms aimed at another seat)",
                lambda s, me, t, c: wields(s, t),
            ),
            Rule(
                "target_is_leader",
                "seat {value} holds a face-up Leader card",
                lambda s, me, t, c: not shows_leader(s, t),
            ),
        ),
    )

    def resolve(self, s, seat, cmd):
        return get_shot(s, seat, cmd.target)
