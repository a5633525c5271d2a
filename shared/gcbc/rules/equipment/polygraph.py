"""Polygraph (RULES §7.1): another seat not protected by Disguise sees all your integrity cards,
then you see all of its. If you are protected by Disguise, it sees none of yours (each look is an
investigation, as in the publisher's code); you still see all of its.

Zombies (RULES §8): a zombie may be chosen (it sees all your face-down cards; its own are all
face up already, so you learn nothing new). Decision: a zombie may play it (only the Investigate
action is barred to zombies).
"""

from __future__ import annotations

from gcbc.rules.effects import view_card
from gcbc.rules.equipment.base import Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.moves import Rule
from gcbc.rules.query import face_down, protected
from gcbc.rules.targets import investigable_seat
from gcbc.rules.timing import ANY


@register
class Polygraph(Card):
    name = "polygraph"
    timing = ANY
    params = (
        investigable_seat(
            "target",
            Rule(
                "no_effect",
                "neither you nor seat {value} has a face-down card the other would see",
                lambda s, me, t, c: (
                    bool(face_down(s, t)) or (bool(face_down(s, me)) and not protected(s, me))
                ),
            ),
        ),
    )

    def resolve(self, s, seat, cmd):
        t = cmd.target
        events = []
        if not protected(s, seat):  # the target's look is an investigation too (§7.1)
            for p in face_down(s, seat):
                events += view_card(s, t, seat, p, self.name)
        for p in face_down(s, t):
            events += view_card(s, seat, t, p, self.name)
        return events
