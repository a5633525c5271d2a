"""The Zombies expansion's equipment and Alarm Clock (RULES §8.1). Importing each module registers
it."""
