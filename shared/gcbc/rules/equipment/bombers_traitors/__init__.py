"""The Bombers & Traitors equipment (RULES §9). Importing each module registers it."""
