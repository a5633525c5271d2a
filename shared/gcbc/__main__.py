"""``python -m gcbc <command>``: simulate, bench."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    commands = {"simulate": "gcbc.sim.simulate", "bench": "gcbc.sim.bench"}
    if not argv or argv[0] not in commands:
        print(f"usage: python -m gcbc {{{','.join(commands)}}} [options]", file=sys.stderr)
        return 2
    import importlib

    module = importlib.import_module(commands[argv[0]])
    return module.main(argv[1:])


if __name__ == "__main__":
    sys.exit(main())
