"""The Bombers & Traitors equipment (RULES §9). Importing each module registers it."""

from gcbc.rules.equipment.bombers_traitors import (  # noqa: F401  (importing registers each card)
    classified_orders,
    fake_id,
    fingerprint_kit,
    holster,
)
