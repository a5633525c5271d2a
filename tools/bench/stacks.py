"""The stacks the bench starts (seeded tables, the per-client limits lifted), and each run's
figures told on stderr as they come."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

from tools import noop_rules
from tools.launcher import Stack

# The load generator is one client address creating hundreds of tables and thousands of streams:
# the per-client limits would refuse it. Rates stay on (counted, never reached), so their cost is
# in the figures.
BENCH_LIMITS = {
    "GCBC_RATE_CREATE": "1000000/minute",
    "GCBC_RATE_SEAT": "1000000/minute",
    "GCBC_RATE_TABLE_SEAT": "1000000/minute",
    "GCBC_RATE_START": "1000000/minute",
    "GCBC_RATE_COMMAND": "1000000/minute",
    "GCBC_RATE_PRESENCE": "1000000/minute",
    "GCBC_STREAMS_PER_CLIENT": "0",
    "GCBC_RATE_CLIENT_COMMAND": "1000000/minute",
    "GCBC_STREAMS_PER_TABLE_CLIENT": "0",
    "GCBC_CONNECTIONS_PER_CLIENT": "0",
    "GCBC_CLIENT_REQUESTS": "0",
    "GCBC_SEATS_PER_CLIENT": "0",
    "GCBC_HOUSE_SEATS_PER_CLIENT": "0",
    "GCBC_HOUSE_SEATS": "0",
    "GCBC_RATE_LEADERBOARD": "1000000/minute",
    "GCBC_RATE_PLAYER_TABLES": "1000000/minute",
    "GCBC_RATE_GAME_FOLD": "1000000/minute",
    "GCBC_LOBBY_TABLES_PER_CLIENT": "0",
    "GCBC_STREAMS_PER_TABLE": "0",
}


def with_stack(noop: bool, sync_always: bool, fn) -> Any:
    with tempfile.TemporaryDirectory(prefix="gcbc-bench-") as tmp:
        # seeded tables (a scenario server): every run deals the same games
        stack = Stack(
            Path(tmp),
            allow_scenarios=True,
            env=BENCH_LIMITS,
            services=noop_rules.SERVICES if noop else None,
        )
        if sync_always:
            from tools import devservers

            nats = devservers.start_nats(Path(tmp) / "nats", sync_always=True)
            stack.nats = stack.servers["nats"] = nats
        try:
            stack.start()
            return fn(stack)
        finally:
            stack.stop()


def told(out: dict[str, Any], label: str) -> None:
    """A run's figures as soon as it is done (the JSON of them all comes at the end)."""
    print(f"{label}: {out[label]}", file=sys.stderr, flush=True)
