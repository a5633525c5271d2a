"""``python -m tools.bench``: the whole system's speed on this machine (``tools.bench.cli``);
what tests and other tools use of it."""

from tools.bench.cli import main
from tools.bench.closed_loop import closed_loop, combined_latencies, combined_runs
from tools.bench.limit import LIMIT, paired_ratio, physical_limit
from tools.bench.machine import machine_during, machine_ticks, with_cpu
from tools.bench.players import Answers
from tools.bench.scale import collections_paused, scale, worst_of
from tools.bench.stacks import BENCH_LIMITS

__all__ = [
    "BENCH_LIMITS",
    "LIMIT",
    "Answers",
    "closed_loop",
    "collections_paused",
    "combined_latencies",
    "combined_runs",
    "machine_during",
    "machine_ticks",
    "main",
    "paired_ratio",
    "physical_limit",
    "scale",
    "with_cpu",
    "worst_of",
]
