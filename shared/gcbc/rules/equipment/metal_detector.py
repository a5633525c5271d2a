"""Metal Detector (RULES §7.1): investigate one face-down card (your choice) of each other seat
holding a gun. ``targets`` lists every such seat that can be investigated, in seat order;
``positions`` the card chosen for each. Choices multiply, so it lists a template when large.

Zombies (RULES §8): even if a zombie's Arms counted as a gun ('equipment that affects guns
affects Arms the same way'), a zombie's cards are all face up, so it is never among the targets
(``eligible`` keeps only seats with a face-down card). Decision: a zombie may play it (only the
Investigate action is barred to zombies).
"""

from __future__ import annotations

from math import prod

from gcbc.rules.effects import view_card
from gcbc.rules.equipment import checks
from gcbc.rules.equipment.base import ANY, Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.errors import refuse
from gcbc.rules.query import armed, can_investigate, face_down


def eligible(s, seat):
    return [t for t in armed(s) if can_investigate(s, seat, t) and face_down(s, t)]


@register
class MetalDetector(Card):
    name = "metal_detector"
    timing = ANY
    params = frozenset({"targets", "positions"})

    def options(self, s, seat):
        from gcbc.rules.legal import TEMPLATE_LIMIT, template

        targets = eligible(s, seat)
        if not targets:
            return []
        choices = [face_down(s, t) for t in targets]
        if prod(len(c) for c in choices) > TEMPLATE_LIMIT:
            return [template(self.name, seat, {"targets": targets}, {"positions": choices})]
        combos: list[tuple[int, ...]] = [()]
        for c in choices:
            combos = [(*combo, p) for combo in combos for p in c]
        return [self.play(seat, targets=tuple(targets), positions=combo) for combo in combos]

    def check(self, s, seat, cmd):
        targets = eligible(s, seat)
        if not targets:
            raise refuse("no_effect", "no other armed seat can be investigated")
        if list(cmd.targets) != targets:
            raise refuse(
                "invalid_target", f"targets must be every armed seat you may investigate: {targets}"
            )
        if len(cmd.positions) != len(targets):
            raise refuse("bad_parameters", "name one position for each target")
        for t, p in zip(targets, cmd.positions, strict=True):
            checks.face_down_card(s, t, p)

    def resolve(self, s, seat, cmd):
        events = []
        for t, p in zip(cmd.targets, cmd.positions, strict=True):
            events += view_card(s, seat, t, p, self.name)
        return events
