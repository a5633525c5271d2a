"""A random legal player: a command type at random, then one of its instances."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gcbc.bots.base import Bot, Observation, concrete


class RandomBot(Bot):
    name = "random"

    def act(self, obs: Observation) -> dict[str, Any]:
        legal = obs.legal_commands
        return concrete(self.pick(legal, [c["type"] for c in legal]), self.rng)

    def pick(self, legal: Sequence[Any], kinds: Sequence[str]) -> Any:
        """The entry of ``legal`` the bot plays, ``kinds[i]`` being the ``type`` of ``legal[i]``
        (a template it picks is then filled by ``concrete``). ``act`` picks among the JSON a
        client sees; the simulator hands it the engine's commands instead (no JSON round trip):
        the same draws pick the same command."""
        by_kind: dict[str, list[Any]] = {}
        for c, kind in zip(legal, kinds, strict=True):
            if kind != "set_auto_pass":
                same = by_kind.get(kind)
                if same is None:
                    by_kind[kind] = [c]
                else:
                    same.append(c)
        if not by_kind:
            return self.rng.choice(legal)
        choice = self.rng.choice
        return choice(by_kind[choice(sorted(by_kind))])
