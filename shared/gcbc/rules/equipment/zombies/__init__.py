"""The Zombies expansion's equipment and Alarm Clock (RULES §8.1). Importing each module registers
it."""

from gcbc.rules.equipment.zombies import (  # noqa: F401  (importing registers each card)
    alarm_clock,
    chainsaw,
    crossbow,
    flamethrower,
    machete,
    transfusion_tube,
    weapon_crate,
    zombie_mask,
    zombie_serum,
)
