"""The closed loops: tables each sending its next command when the previous one was answered;
several runs of one as one."""

from __future__ import annotations

import asyncio
import time
from collections import Counter

from tools.bench.players import Answers, BenchTable, load_client, new_table, summary


async def closed_loop(
    api: str, tables: int, seconds: float, noop: bool, seed: int, seeded: bool = True
) -> dict:
    answers = Answers()
    async with load_client(api, tables * 2 + 10, answers) as client:
        pool = await asyncio.gather(
            *(new_table(client, 4 + (seed + i) % 5, seed + i, noop, seeded) for i in range(tables))
        )
        samples: list[float] = []
        requests = answers.requests  # the tables' opening apart
        stop = time.perf_counter() + seconds
        started = time.perf_counter()

        async def drive(t: BenchTable) -> None:
            while time.perf_counter() < stop:
                if t.finished:
                    n, table_seed = len(t.seats), t.rng.randrange(1 << 30)
                    nt = await new_table(client, n, table_seed, noop, seeded)
                    t.__dict__.update(nt.__dict__)
                took = await t.step()
                if took is not None:
                    samples.append(took)

        await asyncio.gather(*(drive(t) for t in pool))
        return {
            **summary(samples, time.perf_counter() - started),
            "requests_per_command": round((answers.requests - requests) / max(1, len(samples)), 2),
            "non_2xx": dict(answers.non_2xx),
        }


def both_loops(
    api: str, tables: int, seconds: tuple[float, float], noop: bool, seeded: bool = True
) -> dict:
    """The saturation run (``tables``) and the latency run (one table), for ``seconds`` each."""
    return {
        "saturation": asyncio.run(closed_loop(api, tables, seconds[0], noop, 7, seeded)),
        "latency": asyncio.run(closed_loop(api, 1, seconds[1], noop, 9, seeded)),
    }


def combined_runs(runs: list[dict]) -> dict:
    """Several runs of one closed loop as one: commands/s and CPU per command their means,
    the rest the first's; each run's commands/s kept (``runs``)."""
    if len(runs) == 1:
        return runs[0]
    out = dict(runs[0])
    rates = [r["commands_per_second"] for r in runs]
    out["commands"] = sum(r["commands"] for r in runs)
    out["commands_per_second"] = round(sum(rates) / len(rates), 1)
    out["runs"] = rates
    out["requests_per_command"] = round(
        sum(r.get("requests_per_command", 0) for r in runs) / len(runs), 2
    )
    for key in ("cpu_ms_per_command", "machine"):
        each = [r.get(key) for r in runs]
        if all(each):
            out[key] = {
                k: round(sum(c[k] or 0 for c in each) / len(each), 3)
                for k in each[0]  # type: ignore[union-attr]
            }
    out["non_2xx"] = dict(sum((Counter(r.get("non_2xx", {})) for r in runs), Counter()))
    return out


def combined_latencies(runs: list[dict]) -> dict:
    """Several 1-table runs as one: each percentile the mean of the runs' (each run's p99 kept,
    ``runs_p99_ms``), CPU per command the mean."""
    if len(runs) == 1:
        return runs[0]
    out = combined_runs(runs)
    out.pop("runs", None)
    for key in ("p50_ms", "p95_ms", "p99_ms"):
        out[key] = round(sum(r[key] for r in runs) / len(runs), 2)
    out["runs_p99_ms"] = [r["p99_ms"] for r in runs]
    return out
