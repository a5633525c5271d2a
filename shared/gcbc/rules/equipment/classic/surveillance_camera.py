"""Surveillance Camera, classic wording (RULES §7.2): right after an investigation, the investigated
seat turns the card just viewed face up. It does not stay in play.

"Right after an investigation" is the end-of-turn window (§6) of a turn whose Investigate action
resolved (``State.investigated``: the seat and the card viewed, reset at each turn's start).

Decision: only the Investigate action counts (Metal Detector and Wiretap are cards, not the
investigation the card answers). The card turned face up is the one viewed, wherever it is now
(it may have moved, e.g. by Blackmail, in the window): its holder turns it face up. When it is
face up already (or out of the game), the card cannot be played ("no_effect").
"""

from __future__ import annotations

from gcbc.rules.effects import reveal
from gcbc.rules.equipment.base import AFTER_INVESTIGATION, Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.errors import refuse


def viewed_card(s):
    """(seat, position) of the card this turn's Investigate viewed, if it is still face down."""
    if s.investigated is None:
        return None
    _, card_id = s.investigated
    for i, st in enumerate(s.seats):
        if card_id in st.cards:
            p = st.cards.index(card_id) + 1
            return None if st.face_up[p - 1] else (i, p)
    return None


@register
class ClassicSurveillanceCamera(Card):
    name = "surveillance_camera"
    edition = "classic"
    timing = AFTER_INVESTIGATION

    def options(self, s, seat):
        return [self.play(seat)] if viewed_card(s) is not None else []

    def check(self, s, seat, cmd):
        if viewed_card(s) is None:
            raise refuse("no_effect", "no card viewed by an investigation this turn is face down")

    def resolve(self, s, seat, cmd):
        holder, position = viewed_card(s)
        return [reveal(s, holder, position)]
