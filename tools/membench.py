"""``python -m tools.membench``: what a table costs in memory: the resident memory of
every process of a stack on this machine (the services, NATS and Redis) with 1,000 and then 5,000
started tables (4 seats each, through the typed client), per table; then whether finished tables
cost the services anything (every seat of the first 1,000 leaves: their autopilots play them to
the end, and the services should let them go). With ``--rest``, also after nobody played for a
while: tables at rest leave the services' memory (services.common.cache.IDLE_SECONDS).

Resident memory is what the kernel reports (VmRSS): it includes what the allocators keep after a
free, so "flat" is read from the figures per table at two sizes, not from a drop after freeing."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from gcbc_client import AsyncClient, AsyncSeat
from gcbc_client.problems import Conflict

from services.common.cache import IDLE_SECONDS
from tools.bench.machine import rss_kb, stack_pids
from tools.bench.stacks import BENCH_LIMITS
from tools.launcher import Stack

AT_REST = {"turn": 3600, "reaction": 3600, "prompt": 3600, "arrange": 3600}  # the most allowed


def memory(stack: Stack) -> dict[str, int]:
    """Each process's resident memory, KB."""
    return {name: rss_kb(pid) for name, pid in stack_pids(stack).items()}


async def started_tables(api: str, count: int, seats: int = 4, at_once: int = 40) -> list:
    """``count`` started tables; each one's seats (to leave them later)."""
    out: list[list[AsyncSeat]] = []
    gate = asyncio.Semaphore(at_once)
    async with AsyncClient(api, timeout=120, transport="aiohttp") as client:

        async def one() -> None:
            async with gate:
                # the longest waits allowed: tables at rest stay at rest (no autopilot plays)
                table = await client.create_table(seats, deadlines=AT_REST)
                players = [await client.join(table.table_id, f"m{i}") for i in range(seats)]
                await players[0].start()
                out.append(players)

        await asyncio.gather(*(one() for _ in range(count)))
    return out


async def leave_all(api: str, tables: list, at_once: int = 40) -> None:
    gate = asyncio.Semaphore(at_once)
    async with AsyncClient(api, timeout=120, transport="aiohttp") as client:

        async def one(players: list[AsyncSeat]) -> None:
            async with gate:
                for p in players:
                    try:
                        await AsyncSeat(client, p.table_id, p.seat, p.token).leave()
                    except Conflict:  # the others' autopilots ended the game already
                        return

        await asyncio.gather(*(one(players) for players in tables))


def per_table(before: dict[str, int], after: dict[str, int], tables: int) -> dict[str, Any]:
    per = {name: round((after[name] - before[name]) / tables, 1) for name in after}
    per["total"] = round(sum(per.values()), 1)
    return per


def settle(seconds: float = 3.0) -> None:
    time.sleep(seconds)  # the projection and the worker catch up with the last commands


def run(sizes: tuple[int, ...] = (1000, 5000), rest: float = 0.0) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="gcbc-membench-") as tmp:
        stack = Stack(Path(tmp), env=BENCH_LIMITS).start()
        try:
            asyncio.run(started_tables(stack.api, 10))  # every code path warm
            settle()
            base = memory(stack)
            out: dict[str, Any] = {"baseline_kb": base}
            made: list = []
            for size in sizes:
                t0 = time.monotonic()
                made += asyncio.run(started_tables(stack.api, size - len(made)))
                settle()
                now = memory(stack)
                out[f"started_{size}"] = {
                    "kb_per_table": per_table(base, now, size),
                    "rss_kb": now,
                    "seconds_to_start": round(time.monotonic() - t0, 1),
                }
                print(f"{size} started: {out[f'started_{size}']}", file=sys.stderr, flush=True)
            if rest:
                time.sleep(rest)  # nobody plays: the services let the tables at rest go
                now = memory(stack)
                out[f"{len(made)}_at_rest_after_{rest:.0f}_s"] = {
                    "kb_per_table": per_table(base, now, len(made)),
                    "rss_kb": now,
                }
                print(f"at rest: {out[f'{len(made)}_at_rest_after_{rest:.0f}_s']}", file=sys.stderr)
            first = made[: sizes[0]]
            asyncio.run(leave_all(stack.api, first))  # their autopilots play them to the end
            settle(10.0)
            now = memory(stack)
            out[f"after_{len(first)}_finished"] = {
                "kb_per_started_table": per_table(base, now, len(made)),
                "rss_kb": now,
            }
            return out
        finally:
            stack.stop()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tools.membench", description=__doc__)
    p.add_argument("--sizes", default="1000,5000", help="started tables at each measurement")
    p.add_argument(
        "--rest",
        type=float,
        default=IDLE_SECONDS + 40,
        help="seconds nobody plays before measuring again (tables at rest leave the services'"
        " memory after services.common.cache.IDLE_SECONDS; 0: skip)",
    )
    p.add_argument(
        "--out", metavar="FILE", help="also write the figures there, as JSON (make bench's summary)"
    )
    args = p.parse_args(argv)
    from tools.launcher import raise_open_files_limit

    raise_open_files_limit()
    out = run(tuple(int(x) for x in args.sizes.split(",")), args.rest)
    print(json.dumps(out))
    if args.out:
        Path(args.out).write_text(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
