"""``python -m tools.bench``: the whole system's speed on this machine, everything measured in
one run. The load generator runs on the same machine (an honest handicap).

The same hops are measured twice: with the real rules, and with the rules replaced by a no-op
(``tools.noop_rules``: game commands are neither validated nor decided; the physical limit of this
design here). Each timing is from sending the POST to the acting seat's view reflecting the
outcome (the POST's 200 answer); in the scale run, also to every streaming seat whose view
changed having received it.

- saturation: N tables, closed loop (each sends its next command when the previous answer came);
- latency: one table, closed loop, as long as the saturation run (its p99 is a tail: a short run
  makes it a handful of samples);
- scale: 500 tables of 4-8 seats, every seat on Server-Sent Events, one command per table every
  2 s on average, ``--scale-runs`` times (2; each on a new stack: its target holds in every run,
  the worst is the figure); the services' resident memory; then the same with 2,000 tables
  (reported);
- JetStream's sync policy: the saturation run again with ``sync_interval: always``.

The design's physical limit (``../shared/bench/noop_pipeline.py``, ``--limit``) runs its two
closed loops right before the real rules' (the machine's speed drifts from minute to minute; then
the real rules' 50-table and 1-table runs are made ``--pairs`` times, each right after a run of
the limit's: the targets' ratios are over those pairs, ``paired_with_limit``), and
so does the same limit played as this game is, each command after a read of its seat's view
(``tools.readactlimit``, ``limit_read_first``): the figures are reported as ratios to both. The
read-first limit runs once more with every process getting every entry, as this server's do
(``limit_read_first_every_entry``, reported: what the one subject per table costs).

The load generator plays through the typed client (``clients/python``, ``gcbc_client``) as any
third-party client would: command ids, retries of unknown outcomes, typed problems, streams
resumed with Last-Event-ID. It uses the client's aiohttp transport (``gcbc-client[aiohttp]``):
the generator shares the cores with the server, and costs far less CPU per command over aiohttp
than over httpx (docs/benchmarks.md). Every answer that is not 2xx is counted by method, route
and status (``non_2xx``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path
from typing import Any

from tools.bench.closed_loop import both_loops, closed_loop
from tools.bench.limit import LIMIT, beside_the_limit, limits, paired_closed_loops
from tools.bench.scale import scale, scale_runs, worst_of
from tools.bench.stacks import told, with_stack


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.only:
        args.limit, args.skip_scale = "", True
    from tools.launcher import raise_open_files_limit

    raise_open_files_limit()
    if args.api:
        print(json.dumps(against(args.api, args)))
        return 0
    out: dict[str, Any] = {}
    for label, noop in (("noop", True), ("rules", False)):
        if args.only and args.only != label:
            continue
        if args.limit and not noop:
            # the limits right before the real rules, whose ratio to them is the target:
            # this machine's speed drifts from minute to minute
            out.update(limits(args))
        out[label] = with_stack(
            noop, False, lambda stack, noop=noop: paired_closed_loops(stack, noop, args)
        )
        told(out, label)
    if args.only:
        print(json.dumps(out))
        return 0
    _beside_noop(out)
    halves = (args.seconds / 2, args.seconds / 4)
    out["sync_always"] = with_stack(
        False, True, lambda stack: both_loops(stack.api, args.tables, halves, False)
    )
    told(out, "sync_always")
    beside_the_limit(out)
    if not args.skip_scale:
        out.update(scale_runs(args))
    print(json.dumps(out))
    if args.out:
        Path(args.out).write_text(json.dumps(out))
    return 0


def against(api: str, args: argparse.Namespace) -> dict[str, Any]:
    """The runs that need no control of the stack, against a running deployment."""
    api = api.rstrip("/")
    noop = args.noop
    asyncio.run(closed_loop(api, 2, min(3, args.seconds), noop, 1, seeded=False))  # warm-up
    label = "noop" if noop else "rules"
    out: dict[str, Any] = {"api": api}
    seconds = (args.seconds, args.seconds)
    out[label] = both_loops(api, args.tables, seconds, noop, seeded=False)
    told(out, label)
    if not args.skip_scale and not noop:
        out["scale"] = worst_of(
            [
                asyncio.run(scale(api, args.scale_tables, args.scale_seconds, 2.0, 3, False))
                for _ in range(max(1, args.scale_runs))
            ]
        )
        told(out, "scale")
    return out


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m tools.bench",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--seconds", type=float, default=20)
    p.add_argument("--tables", type=int, default=50)
    _scale_options(p)
    p.add_argument(
        "--pairs",
        type=int,
        default=2,
        help="the real rules' 50-table and 1-table runs this many times, each right after the"
        " limit's (the targets' ratios are over the pairs; 0: once, against the limit's first run)",
    )
    p.add_argument(
        "--out", metavar="FILE", help="also write the figures there, as JSON (make bench's summary)"
    )
    p.add_argument(
        "--api",
        metavar="URL",
        help="aim at this running deployment instead of starting stacks here: the real-rules "
        "saturation, latency and scale runs only (its rate limits must allow the load: "
        "docs/load-testing.md); tables are not seeded",
    )
    p.add_argument(
        "--noop",
        action="store_true",
        help="with --api: the deployment runs its table service and rules worker with"
        " python -m tools.noop_rules (every game command a pass)",
    )
    p.add_argument(
        "--limit",
        default=str(LIMIT),
        metavar="PATH",
        help="the design's physical limit (noop_pipeline.py), run in the same bench: the figures"
        " are reported beside it, as ratios ('' to skip)",
    )
    p.add_argument(
        "--only",
        choices=("noop", "rules"),
        help="that stack's saturation and latency runs alone (no limit, sync or scale runs):"
        " a quick look, e.g. at cpu_ms_per_command while changing the code",
    )
    return p


def _scale_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--scale-tables", type=int, default=500)
    p.add_argument(
        "--scale-report-tables",
        type=int,
        default=2000,
        help="the scale run again with this many tables, reported (0: skip)",
    )
    p.add_argument("--scale-seconds", type=float, default=30)
    p.add_argument(
        "--scale-runs",
        type=int,
        default=2,
        help="the 500-table run this many times, each on a new stack (with --api: on the"
        " deployment as it is) (the target: p99 < 50 ms in every run; the summary judges the worst)",
    )
    p.add_argument("--skip-scale", action="store_true")


def _beside_noop(out: dict[str, Any]) -> None:
    """The real rules' figures as ratios to the no-op rules'."""
    rules, noop = out["rules"], out["noop"]
    rate = noop["saturation"]["commands_per_second"]
    rules["saturation_vs_noop"] = round(rules["saturation"]["commands_per_second"] / rate, 2)
    rules["latency_p99_vs_noop"] = round(rules["latency"]["p99_ms"] / noop["latency"]["p99_ms"], 2)
