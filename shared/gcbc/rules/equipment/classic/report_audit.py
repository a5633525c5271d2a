"""Report Audit (RULES §7.2, classic only, 6+ players): your own turn, not your action. Every seat
with no face-up integrity card turns one of its own cards face up, its choice (§7.3): a prompt
"report_audit" to each such seat (options: its face-down positions), queued in seat order starting
from you (you first, if you qualify); each answer (``Choose(position=...)``) reveals that card.
Then your turn goes on.

Decision: only living seats are asked, and not zombies (their cards are revealed: §8). With no
seat to ask, the card cannot be played ("no_effect"). Seat order is increasing seat numbers from
yours, whatever the turn direction.
"""

from __future__ import annotations

from gcbc.contract.events import PromptOpened
from gcbc.rules.equipment.base import OWN_TURN, Card
from gcbc.rules.equipment.classic.truth_serum import choose_own_card, own_card_options
from gcbc.rules.equipment.registry import register
from gcbc.rules.errors import refuse
from gcbc.rules.query import face_down


def audited(s, seat):
    """The seats asked, in order from ``seat``."""
    n = len(s.seats)
    out = []
    for k in range(n):
        i = (seat + k) % n
        st = s.seat(i)
        if not st.eliminated and not st.zombie and st.cards and not any(st.face_up):
            out.append(i)
    return out


@register
class ReportAudit(Card):
    name = "report_audit"
    timing = OWN_TURN

    def options(self, s, seat):
        return [self.play(seat)] if audited(s, seat) else []

    def check(self, s, seat, cmd):
        if not audited(s, seat):
            raise refuse("no_effect", "every living seat already shows a face-up card")

    def resolve(self, s, seat, cmd):
        return [
            PromptOpened(seat=i, kind=self.name, options=tuple(face_down(s, i)), about=seat)
            for i in audited(s, seat)
        ]

    def prompt_options(self, s, prompt):
        return own_card_options(s, prompt)

    def answer(self, s, prompt, cmd):
        return choose_own_card(self, s, prompt, cmd)
