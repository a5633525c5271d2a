"""A random legal player: a command type at random, then one of its instances."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from gcbc.bots.base import Bot, Observation, concrete


class RandomBot(Bot):
    name = "random"

    def act(self, obs: Observation) -> dict[str, Any]:
        legal = obs.legal_commands
        return concrete(self._pick(legal, _json_kind), self.rng)

    def pick(self, commands: Sequence[Any], kind: Callable[[Any], str]) -> Any:
        """The entry ``act`` would choose among ``commands`` (the same draws from the same
        generator), for a caller holding them in another form than JSON: ``kind(c)`` is the
        entry's ``type``. The simulator hands it the engine's commands, skipping the JSON round
        trip (a template it picks still goes through ``concrete``: ``act``'s remaining draws)."""
        return self._pick(commands, kind)

    def _pick(self, legal: Sequence[Any], kind: Callable[[Any], str]) -> Any:
        by_kind: dict[str, list[Any]] = {}
        for c in legal:
            k = kind(c)
            if k != "set_auto_pass":
                if k in by_kind:
                    by_kind[k].append(c)
                else:
                    by_kind[k] = [c]
        choice = self.rng.choice
        if not by_kind:
            return choice(legal)
        return choice(by_kind[choice(sorted(by_kind))])


def _json_kind(c: dict[str, Any]) -> str:
    return c["type"]
