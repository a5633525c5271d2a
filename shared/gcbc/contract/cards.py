"""Card names as they cross the wire: the snake_case names of RULES.md."""

from __future__ import annotations

HONEST = "honest"
CROOKED = "crooked"
AGENT = "agent"
KINGPIN = "kingpin"

INTEGRITY_CARDS = (HONEST, CROOKED, AGENT, KINGPIN)
LEADERS = (AGENT, KINGPIN)

# RULES §7.1, fourth edition: 18 different cards, Defibrillator twice (19 in the deck).
FOURTH_EDITION_DECK: tuple[str, ...] = (
    "blackmail",
    "coffee",
    "defibrillator",
    "defibrillator",
    "evidence_bag",
    "k9_unit",
    "metal_detector",
    "planted_evidence",
    "polygraph",
    "restraining_order",
    "smoke_grenade",
    "surveillance_camera",
    "taser",
    "truth_serum",
    "wiretap",
    "disguise",
    "med_kit",
    "riot_shield",
    "walkie_talkie",
)

EQUIPMENT_CARDS: tuple[str, ...] = tuple(dict.fromkeys(FOURTH_EDITION_DECK))

# RULES §1: Honest = Crooked per player count, and how many are burned unseen.
HONEST_CROOKED_PER_SIDE = {4: 5, 5: 7, 6: 8, 7: 10, 8: 11}
MIN_SEATS = 4
MAX_SEATS = 8

TEAM_HONEST = "honest"
TEAM_CROOKED = "crooked"
