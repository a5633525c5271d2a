"""Planted Evidence (RULES §7.1): stays in front of a living seat; its Honest cards count as
Crooked and vice versa (a Leader still decides its holder's team).

Zombies (RULES §8): it may be put in front of a zombie; while a zombie, the seat is on team
Zombie whatever its cards (``teams.team_from``); if it stops being a zombie (Defibrillator), the
card flips its majority again.
"""

from __future__ import annotations

from gcbc.rules.equipment.base import PutInFront
from gcbc.rules.equipment.registry import register
from gcbc.rules.targets import living_seat


@register
class PlantedEvidence(PutInFront):
    name = "planted_evidence"
    flips_majority = True
    params = (living_seat("target"),)
