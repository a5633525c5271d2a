"""Report Audit (RULES §7.2, classic only, 6+ players): your own turn, not your action. Every seat
with no face-up integrity card turns one of its own cards face up, its choice (§7.3): a prompt
"report_audit" to each such seat (options: its face-down positions), queued in turn order starting
from you (you first, if you qualify); each answer (``Choose(position=...)``) reveals that card.
Then your turn goes on.

Decision: only living seats are asked, and not zombies (their cards are revealed: §8). With no
seat to ask, the card cannot be played ("no_effect"). Turn order is the way turns go round the
table now (a Smoke Grenade's reversal once it took effect), as for the Alarm Clock's guns.
"""

from __future__ import annotations

from gcbc.rules.equipment.base import Card
from gcbc.rules.equipment.classic.truth_serum import OWN_CARD, own_card_answered
from gcbc.rules.equipment.registry import register
from gcbc.rules.moves import Rule
from gcbc.rules.query import face_down, turn_order
from gcbc.rules.timing import OWN_TURN
from gcbc_contract.events import PromptOpened


def audited(s, seat):
    """The seats asked, in turn order from ``seat``."""
    out = []
    for i in turn_order(s, seat):
        st = s.seat(i)
        if not st.eliminated and not st.zombie and st.cards and not any(st.face_up):
            out.append(i)
    return out


@register
class ReportAudit(Card):
    name = "report_audit"
    timing = OWN_TURN
    requires = (
        Rule(
            "no_effect",
            "every living seat already shows a face-up card",
            lambda s, seat: bool(audited(s, seat)),
        ),
    )
    answer = OWN_CARD

    def resolve(self, s, seat, cmd):
        return [
            PromptOpened(seat=i, kind=self.name, options=tuple(face_down(s, i)), about=seat)
            for i in audited(s, seat)
        ]

    def answered(self, s, prompt, cmd):
        return own_card_answered(self, s, prompt, cmd)
