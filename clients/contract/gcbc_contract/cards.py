"""Card names as they cross the wire: the snake_case names of docs/rules.md."""

from __future__ import annotations

HONEST = "honest"
CROOKED = "crooked"
AGENT = "agent"
KINGPIN = "kingpin"

INTEGRITY_CARDS = (HONEST, CROOKED, AGENT, KINGPIN)

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

# RULES §7.2, classic edition: each card with the least player count it is used at.
CLASSIC_DECK: tuple[tuple[str, int], ...] = (
    ("blackmail", 4),
    ("coffee", 4),
    ("defibrillator", 5),
    ("evidence_bag", 4),
    ("flashbang", 4),
    ("k9_unit", 4),
    ("metal_detector", 4),
    ("planted_evidence", 4),
    ("polygraph", 4),
    ("report_audit", 6),
    ("restraining_order", 4),
    ("smoke_grenade", 4),
    ("surveillance_camera", 4),
    ("taser", 4),
    ("truth_serum", 4),
    ("wiretap", 4),
)

# RULES §9: Bombers & Traitors equipment (any edition).
BOMBERS_TRAITORS_CARDS: tuple[str, ...] = (
    "classified_orders",
    "fake_id",
    "fingerprint_kit",
    "holster",
)

# RULES §8.1: the Zombies expansion's equipment.
ZOMBIE_CARDS: tuple[str, ...] = (
    "crossbow",
    "transfusion_tube",
    "zombie_serum",
    "flamethrower",
    "chainsaw",
    "zombie_mask",
    "machete",
    "weapon_crate",
)
# RULES §8.1: ``extra_equipment`` without Zombies adds the cards that need no zombies (and,
# without Bombers & Traitors, BOMBERS_TRAITORS_CARDS: see ``rules.setup.equipment_deck``).
EXTRA_CARDS: tuple[str, ...] = (
    "crossbow",
    "transfusion_tube",
    "chainsaw",
    "machete",
    "weapon_crate",
    "alarm_clock",
)

EQUIPMENT_CARDS: tuple[str, ...] = tuple(
    dict.fromkeys(
        (
            *FOURTH_EDITION_DECK,
            *(name for name, _ in CLASSIC_DECK),
            *BOMBERS_TRAITORS_CARDS,
            *ZOMBIE_CARDS,
            *EXTRA_CARDS,
        )
    )
)

# RULES §1: guns in the centre at the start, classic edition (fourth: one per player).
CLASSIC_GUNS = {4: 2, 5: 3, 6: 3, 7: 4, 8: 4}

# RULES §9: the icons an Honest/Crooked card may carry. A card's name is its side, then its
# icons: "honest", "crooked_bomb", "honest_knife", "crooked_bomb_knife"...
BOMB = "bomb"
KNIFE = "knife"
# per player count at which they join the deck: (side, icons) cards added for each side
ICON_CARDS: dict[int, tuple[tuple[str, tuple[str, ...]], ...]] = {
    4: tuple(
        (side, icons)
        for side in ("honest", "crooked")
        for icons in (("bomb",), ("bomb",), ("bomb", "knife"), ("knife",), ("knife",))
    ),
    5: (("crooked", ("knife",)), ("crooked", ()), ("honest", ("bomb",)), ("honest", ())),
    6: (("crooked", ()), ("honest", ())),
    7: (("crooked", ("bomb",)), ("crooked", ()), ("honest", ("knife",)), ("honest", ())),
    8: (("crooked", ("bomb",)), ("honest", ("knife",))),
}


def card_name(side: str, icons: tuple[str, ...]) -> str:
    return "_".join((side, *icons))


def side_of(card: str) -> str:
    """honest | crooked | agent | kingpin: the card's name without its icons."""
    return card.split("_", 1)[0]


def icons_of(card: str) -> tuple[str, ...]:
    return tuple(card.split("_")[1:])


INTEGRITY_NAMES: tuple[str, ...] = (
    AGENT,
    KINGPIN,
    *(
        card_name(side, icons)
        for side in (HONEST, CROOKED)
        for icons in ((), (BOMB,), (KNIFE,), (BOMB, KNIFE))
    ),
)

# RULES §1: Honest = Crooked per player count, and how many are burned unseen.
HONEST_CROOKED_PER_SIDE = {4: 5, 5: 7, 6: 8, 7: 10, 8: 11}
MIN_SEATS = 4
MAX_SEATS = 8

TEAM_HONEST = "honest"
TEAM_CROOKED = "crooked"
TEAM_SOLO = "solo"
TEAM_ZOMBIE = "zombie"  # RULES §8
TEAM_BOMBER = "bomber"  # RULES §9
TEAM_TRAITOR = "traitor"  # RULES §9
TEAMS = (TEAM_HONEST, TEAM_CROOKED, TEAM_SOLO, TEAM_ZOMBIE, TEAM_BOMBER, TEAM_TRAITOR)
