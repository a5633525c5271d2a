"""The classic edition's cards whose wording differs from the fourth edition's, and its own
cards (RULES §7.2). Importing each module registers it."""
