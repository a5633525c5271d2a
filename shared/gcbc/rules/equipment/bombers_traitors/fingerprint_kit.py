"""Fingerprint Kit (RULES §9): investigate one face-down card of another living seat not protected
by Disguise (``target``, ``position``). Then, if you have a face-down card, a prompt to you: turn
one of your face-down cards face up (``Choose(position=p)``) to take the Fingerprint Kit back from
the bottom of the deck into your hand, or decline (``Choose()`` with no field).

Decision: it is an investigation: Disguise protects from it and a Surveillance Camera in front of
the investigated seat reacts to it (its prompt comes first). As with Wiretap, a card already seen
may be chosen. The kit taken back may be played again at once (each time costs a face-down card).
"""

from __future__ import annotations

from gcbc.rules.effects import reveal, view_card
from gcbc.rules.equipment.base import Answer, Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.moves import Rule
from gcbc.rules.query import face_down
from gcbc.rules.targets import face_down_card_of, investigable_seat
from gcbc.rules.timing import ANY
from gcbc_contract.events import EquipmentReturned, PromptAnswered, PromptOpened


@register
class FingerprintKit(Card):
    name = "fingerprint_kit"
    timing = ANY
    params = (investigable_seat("target"), face_down_card_of("target"))
    answer = Answer(
        "position",
        "name one of your face-down cards among {options}, or nothing",
        may_decline=True,
        rules=(
            Rule(
                "invalid_choice",
                "that card is face up",
                lambda s, seat, p, prompt: p in face_down(s, seat),
            ),
        ),
    )

    def resolve(self, s, seat, cmd):
        events = view_card(s, seat, cmd.target, cmd.position, self.name)
        own = tuple(face_down(s, seat))
        if own:
            events.append(PromptOpened(seat=seat, kind=self.name, options=own))
        return events

    def answered(self, s, prompt, cmd):
        if cmd.position is None:  # declined
            return [PromptAnswered(seat=prompt.seat, kind=self.name)]
        return [
            PromptAnswered(seat=prompt.seat, kind=self.name, position=cmd.position),
            reveal(s, prompt.seat, cmd.position),
            EquipmentReturned(seat=prompt.seat, card=self.name),
        ]
