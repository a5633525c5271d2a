"""The design's physical limit run beside the server: its closed loops, and the real rules'
runs each right after one of the limit's (the targets' ratios are over those pairs)."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tools.bench.closed_loop import closed_loop, combined_latencies, combined_runs
from tools.bench.machine import with_cpu
from tools.bench.stacks import told
from tools.launcher import Stack

# ../shared/bench/noop_pipeline.py beside the repository: the same hops with no rules (DESIGN)
LIMIT = Path(__file__).resolve().parents[3] / "shared" / "bench" / "noop_pipeline.py"


def physical_limit(
    script: Path,
    tables: int,
    seconds: float,
    read_first: bool = False,
    every_entry: bool = False,
    latency: bool = True,
    saturation: bool = True,
) -> dict[str, Any]:
    """The limit's closed loops (``tables`` and, with ``latency``, 1 table) on this machine, now.
    ``read_first``: played as this game is, each command after a read of its seat's view
    (tools.readactlimit); ``every_entry``: that, with every process getting every entry, as this
    server's do (its ``--every-entry``)."""
    if not script.exists():
        return {"skipped": f"{script} not found"}
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}"}
    command = [sys.executable, str(script)]
    if read_first or every_entry:
        command = [sys.executable, "-m", "tools.readactlimit", "--limit", str(script)]
        command += ["--every-entry"] if every_entry else []
    out: dict[str, Any] = {}
    loops = [("saturation", tables, seconds)] if saturation else []
    loops += [("latency", 1, seconds)] if latency else []
    for label, n, secs in loops:
        run = subprocess.run(
            [*command, "bench", "--tables", str(n), "--seconds", str(secs)],
            capture_output=True,
            text=True,
            env=env,
            timeout=secs + 120,
        )
        lines = [x for x in run.stdout.splitlines() if x.startswith("{")]
        out[label] = json.loads(lines[-1]) if lines else {"error": run.stderr[-500:]}
    return out


# the limit's runs beside the server's: as it is, played as this game is (each command after a
# read of its seat's view), and that with every process getting every entry (what the one subject
# per table costs, reported)
LIMITS: dict[str, dict[str, bool]] = {
    "limit": {},
    "limit_read_first": {"read_first": True},
    "limit_read_first_every_entry": {"every_entry": True, "latency": False},
}


def limits(args: argparse.Namespace) -> dict[str, Any]:
    """The design's physical limit's runs (``LIMITS``), one after the other."""
    out: dict[str, Any] = {}
    for label, how in LIMITS.items():
        out[label] = physical_limit(Path(args.limit), args.tables, args.seconds, **how)
        told(out, label)
    return out


def paired_ratio(
    limits: list[dict], runs: list[dict], limit_key: str, run_key: str, digits: int = 1
) -> dict:
    """One figure of the server's over the limit's, pair by pair and over all pairs (the ratio
    of the means): the targets' 50-table commands/s and 1-table p99."""
    pairs = [
        {
            "limit": lim.get(limit_key),
            "server": run[run_key],
            "ratio": round(run[run_key] / lim[limit_key], 3) if lim.get(limit_key) else None,
        }
        for lim, run in zip(limits, runs, strict=True)
    ]
    done = [p for p in pairs if p["limit"]]
    limit = round(sum(p["limit"] for p in done) / len(done), digits) if done else None
    server = round(sum(p["server"] for p in done) / len(done), digits) if done else None
    return {
        "pairs": pairs,
        "limit": limit,
        "server": server,
        "ratio": round(server / limit, 3) if limit and server else None,
    }


def paired_closed_loops(stack: Stack, noop: bool, args: argparse.Namespace) -> dict:
    """The saturation and latency runs on ``stack`` (the real rules' in pairs with the limit's)."""
    asyncio.run(closed_loop(stack.api, 2, 3, noop, 1))  # warm-up
    # the real rules' saturation in pairs with the limit's, alternated (limit, server,
    # limit, server...): each pair the same minute, this machine's speed drifting by ±20 %
    # from one minute to the next; the target's ratio is over the pairs
    paired = bool(args.limit) and not noop and args.pairs > 0
    limit = Path(args.limit) if args.limit else None
    runs, latencies, limits, limit_latencies = [], [], [], []

    def timed(tables: int, seed: int) -> dict:
        loop = closed_loop(stack.api, tables, args.seconds, noop, seed)
        return with_cpu(stack, lambda: asyncio.run(loop))

    for _ in range(args.pairs if paired else 1):
        if paired:
            got = physical_limit(limit, args.tables, args.seconds, latency=False)
            limits.append(got.get("saturation", {}))
        runs.append(timed(args.tables, 7))
        if paired:  # the 1-table p99 too: a tail, the most moved by the minute
            got = physical_limit(limit, 1, args.seconds, saturation=False)
            limit_latencies.append(got.get("latency", {}))
        latencies.append(timed(1, 9))
    result = {"saturation": combined_runs(runs), "latency": combined_latencies(latencies)}
    if paired:
        result["paired_with_limit"] = {
            "saturation": paired_ratio(limits, runs, "commands_per_s", "commands_per_second"),
            "latency": paired_ratio(limit_latencies, latencies, "p99_ms", "p99_ms", 2),
        }
    return result


def beside_the_limit(out: dict[str, Any]) -> None:
    """This server's figures (both rules) as ratios to the design's physical limit's."""
    limit = out.get("limit") or {}
    if not (limit.get("saturation") and limit.get("latency")):
        return
    read_first = out.get("limit_read_first", {}).get("saturation", {})
    for label in ("noop", "rules"):
        mine = out[label]
        rate, p99 = mine["saturation"]["commands_per_second"], mine["latency"]["p99_ms"]
        mine["saturation_vs_limit"] = round(rate / limit["saturation"]["commands_per_s"], 2)
        mine["latency_p99_vs_limit"] = round(p99 / limit["latency"]["p99_ms"], 2)
        if read_first.get("commands_per_s"):
            mine["saturation_vs_limit_read_first"] = round(rate / read_first["commands_per_s"], 2)
