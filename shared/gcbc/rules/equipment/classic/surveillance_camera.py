"""Surveillance Camera, classic wording (RULES §7.2): right after an investigation, the investigated
seat turns the card just viewed face up. It does not stay in play.

"Right after an investigation" is the end-of-turn window (§6) of a turn in which a card was viewed
by an investigation (``State.investigated``: the cards viewed, reset at each turn's start). Any
investigation counts: the Investigate action, Metal Detector, Wiretap (RULES §7.2), and the
Fingerprint Kit (it "investigates", §9). When several cards were viewed, the camera's owner picks
which: ``target`` and ``position`` name where that card lies now.

Decisions: Polygraph does not count (as for the fourth edition's camera, §7.1). The card turned
face up is the one viewed, wherever it is now (it may have moved, e.g. by Blackmail, in the
window): its holder turns it face up. A viewed card face up already (or out of the game) cannot be
chosen; with none left the card cannot be played ("no_effect").
"""

from __future__ import annotations

from gcbc.rules.effects import reveal
from gcbc.rules.equipment.base import Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.moves import Param, Rule
from gcbc.rules.timing import AFTER_INVESTIGATION


def viewed_cards(s):
    """(seat, position) of each card an investigation viewed this turn that is still face down,
    in the order they were viewed."""
    out = []
    for card_id in s.investigated:
        for i, st in enumerate(s.seats):
            if card_id in st.cards:
                p = st.cards.index(card_id) + 1
                if not st.face_up[p - 1]:
                    out.append((i, p))
                break
    return out


@register
class ClassicSurveillanceCamera(Card):
    name = "surveillance_camera"
    edition = "classic"
    timing = AFTER_INVESTIGATION
    requires = (
        Rule(
            "no_effect",
            "no card viewed by an investigation this turn is face down",
            lambda s, seat: bool(viewed_cards(s)),
        ),
    )
    # the card, by seat and position, among those viewed (in the order they were viewed)
    params = (
        Param(
            ("target", "position"),
            lambda s, seat, c: viewed_cards(s),
            ("invalid_target", "name a card viewed this turn (seat, position)"),
        ),
    )

    def resolve(self, s, seat, cmd):
        return [reveal(s, cmd.target, cmd.position)]
