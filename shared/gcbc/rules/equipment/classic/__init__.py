"""The classic edition's cards whose wording differs from the fourth edition's, and its own cards
(RULES §7.2). Importing each module registers it.

The other classic cards (Blackmail, Coffee, Metal Detector, Planted Evidence, Polygraph, Smoke
Grenade, Wiretap) are the fourth edition's modules: their wording is the same (§7.2 "as in §7.1",
or the same effect).
"""

from gcbc.rules.equipment.classic import (  # noqa: F401  (importing registers each card)
    defibrillator,
    evidence_bag,
    flashbang,
    k9_unit,
    report_audit,
    restraining_order,
    surveillance_camera,
    taser,
    truth_serum,
)
