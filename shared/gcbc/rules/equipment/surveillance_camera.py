"""Surveillance Camera (RULES §7.1): stays in play in front of you; whenever someone investigates
one of your cards (Investigate, Metal Detector, Wiretap, Fingerprint Kit), you view one face-down
card of theirs, your choice: a prompt to you. Decision: Polygraph is an exchange, not an
investigation. The return look is an investigation itself (RULES §7.1): it cannot reach an
investigator protected by Disguise, and then no prompt opens.

Zombies (RULES §8): in front of a zombie it never triggers (a zombie's cards are all face up,
so nobody can investigate them); when a zombie investigates the owner (Wiretap, Metal Detector),
the owner has no face-down card of the zombie to view, so no prompt opens.
"""

from __future__ import annotations

from gcbc.rules.effects import view_card
from gcbc.rules.equipment.base import Answer, Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.query import can_investigate, face_down
from gcbc.rules.timing import ANY
from gcbc_contract.events import PromptAnswered, PromptOpened


@register
class SurveillanceCamera(Card):
    name = "surveillance_camera"
    timing = ANY
    stays_in_play = True
    answer = Answer("position", "choose a position among {options}")

    def placed_on(self, s, seat, cmd):
        return seat

    def resolve(self, s, seat, cmd):
        return []

    def on_investigated(self, s, owner, investigator):
        # the return look is an investigation: Disguise on the investigator stops it (§7.1)
        if s.seat(owner).eliminated or not can_investigate(s, owner, investigator):
            return []
        positions = tuple(face_down(s, investigator))
        if not positions:
            return []
        return [PromptOpened(seat=owner, kind=self.name, options=positions, about=investigator)]

    def answered(self, s, prompt, cmd):
        investigator = prompt.about
        events = [PromptAnswered(seat=prompt.seat, kind=self.name, position=cmd.position)]
        if s.seat(investigator).face_up[cmd.position - 1]:
            return events  # turned face up meanwhile: everyone sees it already
        return events + view_card(s, prompt.seat, investigator, cmd.position, self.name)
