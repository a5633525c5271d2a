"""Surveillance Camera, classic wording (RULES §7.2): right after an investigation, the investigated
seat turns the card just viewed face up. It does not stay in play.

"Right after an investigation" is the first time holders are asked once it has resolved
(``Window.after_investigation``: the cards viewed since holders were last asked), in a window of
any kind: the window reopened after a card that investigated (the start-of-game window included),
or the end-of-turn window after an Investigate action; never a later asking (timing
``AFTER_INVESTIGATION``). Any investigation counts: the Investigate action, Metal Detector,
Wiretap, Fingerprint Kit (§9). When several cards were viewed, the camera's owner picks which:
``target`` and ``position`` name where that card lies now.

Decisions: Polygraph does not count (as for the fourth edition's camera, §7.1). The card turned
face up is the one viewed, wherever it is now: its holder turns it face up. A viewed card face up
already (or out of the game) cannot be chosen; with none left the card cannot be played
("no_effect").
"""

from __future__ import annotations

from gcbc.rules.effects import reveal
from gcbc.rules.equipment.base import Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.moves import Param, Rule
from gcbc.rules.timing import AFTER_INVESTIGATION


def viewed_cards(s):
    """(seat, position) of each card the investigations this window answers viewed that is still
    face down, in the order they were viewed."""
    out = []
    if s.window is None:  # no holders asked: nothing to answer
        return out
    for card_id in s.window.after_investigation:
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
            "every card the investigation viewed is face up",
            lambda s, seat: bool(viewed_cards(s)),
        ),
    )
    # the card, by seat and position, among those viewed (in the order they were viewed)
    params = (
        Param(
            ("target", "position"),
            lambda s, seat, c: viewed_cards(s),
            ("invalid_target", "name a card the investigation viewed (seat, position)"),
        ),
    )

    def resolve(self, s, seat, cmd):
        return [reveal(s, cmd.target, cmd.position)]
