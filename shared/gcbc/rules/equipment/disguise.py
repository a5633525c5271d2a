"""Disguise (RULES §7.1): stays in front of a living seat you choose; its cards cannot be
investigated (Investigate, Metal Detector, Wiretap, Polygraph, Fingerprint Kit) for the rest of the
game.

Zombies (RULES §8): it may be put in front of a zombie (whose cards are all face up, so there is
nothing left to investigate); the protection stays if the zombie is cured.
"""

from __future__ import annotations

from gcbc.rules.equipment.base import PutInFront
from gcbc.rules.equipment.registry import register
from gcbc.rules.targets import living_seat


@register
class Disguise(PutInFront):
    name = "disguise"
    protects_from_investigation = True
    params = (living_seat("target"),)
