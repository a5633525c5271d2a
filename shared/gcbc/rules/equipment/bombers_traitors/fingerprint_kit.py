"""Fingerprint Kit (RULES §9): investigate one face-down card of another living seat not protected
by Disguise (``target``, ``position``). Then, if you have a face-down card, a prompt to you: turn
one of your face-down cards face up (``Choose(position=p)``) to take the Fingerprint Kit back from
the bottom of the deck into your hand, or decline (``Choose()`` with no field).

Decision: it is an investigation: Disguise protects from it and a Surveillance Camera in front of
the investigated seat reacts to it (its prompt comes first). As with Wiretap, a card already seen
may be chosen. The kit taken back may be played again at once (each time costs a face-down card).
"""

from __future__ import annotations

from gcbc.contract.commands import Choose
from gcbc.contract.events import EquipmentReturned, PromptAnswered, PromptOpened
from gcbc.rules.effects import reveal, view_card
from gcbc.rules.equipment import checks
from gcbc.rules.equipment.base import ANY, Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.errors import refuse
from gcbc.rules.query import can_investigate, face_down, others_alive


@register
class FingerprintKit(Card):
    name = "fingerprint_kit"
    timing = ANY
    params = frozenset({"target", "position"})

    def options(self, s, seat):
        return [
            self.play(seat, target=t, position=p)
            for t in others_alive(s, seat)
            if can_investigate(s, seat, t)
            for p in face_down(s, t)
        ]

    def check(self, s, seat, cmd):
        t = checks.investigable(s, seat, cmd.target)
        checks.face_down_card(s, t, cmd.position)

    def resolve(self, s, seat, cmd):
        events = view_card(s, seat, cmd.target, cmd.position, self.name)
        own = tuple(face_down(s, seat))
        if own:
            events.append(PromptOpened(seat=seat, kind=self.name, options=own))
        return events

    def prompt_options(self, s, prompt):
        take_back = [Choose(seat=prompt.seat, position=p) for p in prompt.options]
        return [*take_back, Choose(seat=prompt.seat)]

    def answer(self, s, prompt, cmd):
        if cmd.target is not None or cmd.card is not None:
            raise refuse("invalid_choice", "name one of your face-down cards, or nothing")
        if cmd.position is None:  # declined
            return [PromptAnswered(seat=prompt.seat, kind=self.name)]
        if cmd.position not in prompt.options or cmd.position not in face_down(s, prompt.seat):
            raise refuse("invalid_choice", f"choose a position among {list(prompt.options)}")
        return [
            PromptAnswered(seat=prompt.seat, kind=self.name, position=cmd.position),
            reveal(s, prompt.seat, cmd.position),
            EquipmentReturned(seat=prompt.seat, card=self.name),
        ]
