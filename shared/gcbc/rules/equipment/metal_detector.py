"""Metal Detector (RULES §7.1): investigate one face-down card (your choice) of each other seat
holding a gun. ``targets`` lists every such seat that can be investigated, in any order (taken
in seat order: ``Card.targets_in_any_order``); ``positions`` the card chosen for each. Choices multiply, so it lists a template when large.

Zombies (RULES §8): even if a zombie's Arms counted as a gun ('equipment that acts on guns and
shooting acts on Arms and biting the same way'), a zombie's cards are all face up, so it is never
among the targets (``eligible`` keeps only seats with a face-down card). Decision: a zombie may play
it (only the Investigate action is barred to zombies).
"""

from __future__ import annotations

from gcbc.rules.effects import view_card
from gcbc.rules.equipment.base import Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.moves import Each, Param, Rule
from gcbc.rules.query import can_investigate
from gcbc.rules.targets import cards_of, face_down_of
from gcbc.rules.timing import ANY


def eligible(s, seat):
    """The other armed seats the seat may investigate that have a face-down card, in order."""
    return [
        t
        for t, st in enumerate(s.seats)
        if st.gun and False in st.face_up and can_investigate(s, seat, t)
    ]


def _any_eligible(s, seat):
    """Whether ``eligible`` lists a seat (the first found): then the card may be played, as each
    eligible seat has a face-down card to name."""
    return any(
        st.gun and False in st.face_up and can_investigate(s, seat, t)
        for t, st in enumerate(s.seats)
    )


@register
class MetalDetector(Card):
    name = "metal_detector"
    timing = ANY
    needs = _any_eligible  # often no other seat holds a gun
    targets_in_any_order = True
    requires = (
        Rule(
            "no_effect",
            "no other armed seat can be investigated",
            lambda s, seat: bool(eligible(s, seat)),
        ),
    )
    params = (
        Param(
            "targets",
            lambda s, seat, c: [tuple(eligible(s, seat))],
            ("invalid_target", "targets must be every armed seat you may investigate"),
        ),
        Each(
            "positions",
            "targets",
            cards_of("of"),
            ("invalid_position", "seat {of} has no card at position {value}"),
            (face_down_of("of"),),
            count_message="name one position for each target",
        ),
    )
    template_field = "positions"

    def resolve(self, s, seat, cmd):
        events = []
        for t, p in zip(cmd.targets, cmd.positions, strict=True):
            events += view_card(s, seat, t, p, self.name)
        return events
