"""The scale run: tables played at a human pace, every seat on Server-Sent Events, timed from
each POST to every changed view."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import random
import time
from collections.abc import Iterator
from typing import Any

from gcbc_client import AsyncClient
from gcbc_client.problems import ApiProblem

from tools.bench.machine import rss_mb, stack_pids, with_cpu
from tools.bench.players import Answers, BenchTable, load_client, new_table, pct, summary
from tools.bench.stacks import told, with_stack
from tools.launcher import Stack


@contextlib.contextmanager
def collections_paused() -> Iterator[None]:
    """No garbage collection in the load generator while it measures: the timings are the
    server's, not the generator's own pauses (with thousands of streams in this one process, where
    each player of a real table is a process of its own, they weigh on the p99: docs/benchmarks.md).
    What is made before is frozen (never looked at again); collections resume after."""
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.unfreeze()


async def _new_tables(
    client: AsyncClient, tables: int, seed: int, seeded: bool
) -> list[BenchTable]:
    """The scale run's tables of 4 to 8 seats, opened 50 at a time."""
    pool: list[BenchTable] = []
    for i in range(0, tables, 50):
        pool += await asyncio.gather(
            *(
                new_table(client, 4 + (seed + j) % 5, seed + j, False, seeded)
                for j in range(i, min(tables, i + 50))
            )
        )
    return pool


async def scale(
    api: str, tables: int, seconds: float, interval: float, seed: int, seeded: bool = True
) -> dict:
    answers = Answers()
    async with load_client(api, tables * 10, answers) as client:
        pool = await _new_tables(client, tables, seed, seeded)
        arrivals: dict[str, list[float]] = {t.table_id: [] for t in pool}
        errors: list[int] = []

        async def watch(t: BenchTable, seat: int) -> None:
            """One seat's Server-Sent Events stream: each event is a new view."""
            first = True
            try:
                async for v in t.seats[seat].stream():
                    if not first:  # the first is the view as it was when the stream opened
                        arrivals[t.table_id].append(time.perf_counter())
                    first = False
                    t.streamed[seat] = v
            except ApiProblem as e:  # refused (counted with the non-2xx answers too)
                errors.append(e.status)

        post_samples: list[float] = []
        all_samples: list[float] = []
        rng = random.Random(seed)

        async def drive(t: BenchTable) -> None:
            await asyncio.sleep(rng.random() * interval * 2)
            end = time.perf_counter() + seconds
            warm = time.perf_counter() + 3.0  # the first seconds, while every table starts
            while time.perf_counter() < end and not t.finished:
                sent = time.perf_counter()
                took = await t.step()
                if took is not None and sent < warm:
                    await asyncio.sleep(0.3)
                    arrivals[t.table_id].clear()
                elif took is not None:
                    post_samples.append(took)
                    await asyncio.sleep(0.3)  # long-polls that answer come in meanwhile
                    got = [a for a in arrivals[t.table_id] if a >= sent]
                    arrivals[t.table_id].clear()
                    if got:
                        all_samples.append(max(got) - sent)
                await asyncio.sleep(max(0.0, rng.expovariate(1 / interval) - 0.3))

        watchers = [asyncio.create_task(watch(t, s)) for t in pool for s in range(len(t.seats))]
        await asyncio.sleep(1.0)
        with collections_paused():
            started = time.perf_counter()
            await asyncio.gather(*(drive(t) for t in pool))
            elapsed = time.perf_counter() - started
        for w in watchers:
            w.cancel()
        await asyncio.gather(*watchers, return_exceptions=True)
        result = summary(post_samples, elapsed)
        result["sse_streams"] = len(watchers)
        result["stream_errors"] = len(errors)
        result["all_views_p50_ms"] = pct(all_samples, 0.50)
        result["all_views_p99_ms"] = pct(all_samples, 0.99)
        result["non_2xx"] = dict(answers.non_2xx)
        return result


def worst_of(runs: list[dict]) -> dict:
    """Several scale runs as one: the run with the highest POST->every-view p99 (its target
    holds in every run), each run's p99 and p50 kept (``runs_all_views_p99_ms``, ``..._p50_ms``)."""

    def p99(run: dict) -> float:
        got = run.get("all_views_p99_ms")
        return float("inf") if got is None or got != got else got  # none measured: the worst

    worst = dict(max(runs, key=p99))
    if len(runs) > 1:
        worst["runs_all_views_p99_ms"] = [r.get("all_views_p99_ms") for r in runs]
        worst["runs_all_views_p50_ms"] = [r.get("all_views_p50_ms") for r in runs]
    return worst


def scale_runs(args: argparse.Namespace) -> dict[str, Any]:
    """The scale run, ``--scale-runs`` times (the worst is the figure), then with
    ``--scale-report-tables`` (reported)."""

    def run_scale(stack: Stack, tables: int = args.scale_tables) -> dict:
        result = with_cpu(
            stack, lambda: asyncio.run(scale(stack.api, tables, args.scale_seconds, 2.0, 3))
        )
        result["rss_mb"] = {name: rss_mb(pid) for name, pid in stack_pids(stack).items()}
        return result

    out = {
        "scale": worst_of(
            [with_stack(False, False, run_scale) for _ in range(max(1, args.scale_runs))]
        )
    }
    told(out, "scale")
    if args.scale_report_tables:
        more = args.scale_report_tables
        out[f"scale_{more}"] = with_stack(False, False, lambda stack: run_scale(stack, more))
        told(out, f"scale_{more}")
    return out
