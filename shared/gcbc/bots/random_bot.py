"""A random legal player: a command type at random, then one of its instances."""

from __future__ import annotations

from typing import Any

from gcbc.bots.base import Bot, Observation, concrete


class RandomBot(Bot):
    name = "random"

    def act(self, obs: Observation) -> dict[str, Any]:
        legal = [c for c in obs.legal_commands if c["type"] != "set_auto_pass"]
        if not legal:
            legal = obs.legal_commands
        kinds = sorted({c["type"] for c in legal})
        kind = self.rng.choice(kinds)
        return concrete(self.rng.choice([c for c in legal if c["type"] == kind]), self.rng)
