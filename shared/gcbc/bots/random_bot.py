"""A random legal player: a command type at random, then one of its instances."""

from __future__ import annotations

from typing import Any

from gcbc.bots.base import Bot, Observation, concrete


class RandomBot(Bot):
    name = "random"

    def act(self, obs: Observation) -> dict[str, Any]:
        legal = obs.legal_commands
        by_kind: dict[str, list[dict[str, Any]]] = {}
        for c in legal:
            kind = c["type"]
            if kind != "set_auto_pass":
                by_kind.setdefault(kind, []).append(c)
        if not by_kind:
            return concrete(self.rng.choice(legal), self.rng)
        kinds = sorted(by_kind)
        return concrete(self.rng.choice(by_kind[self.rng.choice(kinds)]), self.rng)
