"""``python -m tools.noop_rules table|rules``: the table service or the rules worker with the
rules as a no-op — every game command accepted and answered with no events — for the bench's
physical limit (the same hops as a real game, no rules work). The lobby's commands (open, seat,
start, leave, chat) still go through the engine, so tables fill and start as usual."""

from __future__ import annotations

import sys
from typing import Any

from litestar import Litestar

import gcbc.rules
from gcbc.rules.state import State
from gcbc_contract import commands as C
from services.common.settings import Settings

GAME_COMMANDS = C.GameCommand.__args__

# what a launcher starts instead of the services' own modules (``tools.launcher.Stack``)
SERVICES = {"table": "tools.noop_rules table", "rules": "tools.noop_rules rules"}


class NoopRules:
    """The engine for everything but game commands, which it neither checks nor decides."""

    def check(self, state: State, command: Any) -> None:
        if not isinstance(command, GAME_COMMANDS):
            gcbc.rules.check(state, command)

    def decide(self, state: State, command: Any) -> list[Any]:
        if isinstance(command, GAME_COMMANDS):
            return []
        return gcbc.rules.decide(state, command)


NOOP = NoopRules()


def create_app(settings: Settings | None = None) -> Litestar:
    """The table service's app with the no-op rules (uvicorn's factory)."""
    from services.table.app import create_app as table_app

    return table_app(settings, rules=NOOP)


def main(argv: list[str] | None = None) -> int:
    which = (argv if argv is not None else sys.argv[1:]) or [""]
    if which[0] == "table":
        from services.table.app import main as serve_table

        serve_table("tools.noop_rules:create_app")
    elif which[0] == "rules":
        from services.rules.service import main as serve_rules

        serve_rules(NOOP)
    else:
        print("usage: python -m tools.noop_rules table|rules", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
