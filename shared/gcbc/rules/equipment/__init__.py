"""Equipment cards: one module per card behind one contract (``base.Card``), named in
``registry.CARDS``. Adding a card is adding a module here; no other card changes."""

from gcbc.rules.equipment import (  # noqa: F401  (importing registers each card)
    blackmail,
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
)
from gcbc.rules.equipment.registry import CARDS

__all__ = ["CARDS"]
