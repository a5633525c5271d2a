"""What a bot sees (one seat's view, computed lazily) and what it answers (a command as JSON)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import msgspec

from gcbc_contract.views import View


class Observation:
    """One seat's information, from the view functions only. ``legal_commands`` is the view's
    field of that name; ``view`` the whole view (built on first use, without the log)."""

    __slots__ = ("_legal", "_make_view", "_view", "seat")

    def __init__(
        self,
        seat: int,
        make_view: Callable[[], View],
        legal: Callable[[], list[dict[str, Any]]] | None = None,
    ) -> None:
        self.seat = seat
        self._make_view = make_view
        self._view: View | None = None
        self._legal = legal

    @property
    def view(self) -> View:
        if self._view is None:
            self._view = self._make_view()
        return self._view

    @property
    def legal_commands(self) -> list[dict[str, Any]]:
        if self._legal is not None:
            return self._legal()
        # a typed client's view holds commands as Structs: the bots read them as their JSON
        return [c if type(c) is dict else msgspec.to_builtins(c) for c in self.view.legal_commands]


def concrete(entry: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A sendable command from a legal_commands entry (templates get random choices)."""
    if "choose" not in entry:
        return entry
    out = {k: v for k, v in entry.items() if k != "choose"}
    for name, allowed in entry["choose"].items():
        if allowed and isinstance(allowed[0], list):
            out[name] = [rng.choice(a) for a in allowed]
        else:
            out[name] = rng.choice(allowed)
    return out


class Bot:
    """A player: given a seat's observation, a command (JSON dict) from its legal commands."""

    name = "bot"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, obs: Observation) -> dict[str, Any]:
        raise NotImplementedError
