"""Equipment cards: one module per card behind one contract (``base.Card``), named in
``registry.CARDS`` (``registry.card`` picks a table's edition). Adding a card is adding a module
and importing it here (or in its expansion's package), so it registers itself; no other card
changes.

- this package: the fourth edition's cards (RULES §7.1), also used by the classic edition where
  its wording is the same;
- ``classic``: the classic edition's cards whose wording differs, and its own cards (§7.2);
- ``zombies``: the Zombies expansion's cards and Alarm Clock (§8.1);
- ``bombers_traitors``: the Bombers & Traitors cards (§9).
"""

from gcbc.rules.equipment import (  # noqa: F401  (importing registers each card)
    blackmail,
    bombers_traitors,
    classic,
    coffee,
    defibrillator,
    disguise,
    evidence_bag,
    k9_unit,
    med_kit,
    metal_detector,
    planted_evidence,
    polygraph,
    restraining_order,
    riot_shield,
    smoke_grenade,
    surveillance_camera,
    taser,
    truth_serum,
    walkie_talkie,
    wiretap,
    zombies,
)
from gcbc.rules.equipment.registry import CARDS, CLASSIC, card

__all__ = ["CARDS", "CLASSIC", "card"]
