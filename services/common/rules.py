"""The rules the services apply to commands: the engine's guards (``check``, the table service)
and its decisions (``decide``, the rules worker). Given to them as a dependency: the engine in
production, a no-op for the bench's physical limit (``tools/noop_rules.py``)."""

from __future__ import annotations

from typing import Any, Protocol, cast

import gcbc.rules
from gcbc.rules.state import State


class Rules(Protocol):
    def check(self, state: State, command: Any) -> None: ...

    def decide(self, state: State, command: Any) -> list[Any]: ...


ENGINE = cast(Rules, gcbc.rules)
