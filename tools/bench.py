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
the generator shares the cores with the server, and its CPU per command (``cpu_ms_per_command``'s
``load_generator``) was 4-6 ms at one table, 10-12 at 20 tables and 21 at 50 over httpx (whose
pool looks at every connection for each request), 1.2-2.1 ms over aiohttp, as the hand-written
aiohttp code it replaced. Every answer that is not 2xx is counted by method, route and status
(``non_2xx``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import msgspec
from gcbc_client import AsyncClient, AsyncSeat
from gcbc_client.problems import ApiProblem, RateLimited
from gcbc_client.transport import Answer

from gcbc.bots import Observation, RandomBot
from gcbc.contract.views import Waiting
from tools import noop_rules
from tools.launcher import Stack

T = TypeVar("T")


def route(path: str) -> str:
    """``/tables/3f…/commands`` -> ``/tables/{id}/commands``: answers counted by route."""
    return re.sub(r"^/tables/[^/?]+", "/tables/{id}", path.split("?", 1)[0])


class Answers:
    """Every answer that is not 2xx, counted by method, route and status (``non_2xx`` in each
    run's summary): the typed client's ``answered`` hook."""

    def __init__(self) -> None:
        self.non_2xx: Counter[str] = Counter()

    def count(self, method: str, path: str, status: int) -> None:
        if not 200 <= status < 300:
            self.non_2xx[f"{method} {route(path)} {status}"] += 1

    def __call__(self, method: str, url: str, sent: bytes | None, answer: Answer) -> None:
        self.count(method, url, answer.status)


class View(msgspec.Struct, frozen=True):
    """What the bench's players read of a view (the client decodes only these: ``view_type``;
    the rest of each view is skipped, not built, sparing the cores the server shares)."""

    status: str
    waiting_for: list[Waiting]
    legal_commands: list[dict[str, Any]]


def load_client(api: str, connections: int, answers: Answers) -> AsyncClient:
    """The typed client over aiohttp (see the module's docstring for why not httpx)."""
    return AsyncClient(
        api,
        timeout=120,
        transport="aiohttp",
        connections=connections,
        answered=answers,
        view_type=View,
    )


async def patiently(call: Callable[[], Awaitable[T]]) -> T:
    """Over a rate limit (a deployment's own, --api) the call is made again once allowed (the
    429 is counted)."""
    while True:
        try:
            return await call()
        except RateLimited as e:
            await asyncio.sleep(e.retry_after or 1.0)


def pct(samples: list[float], p: float) -> float:
    if not samples:
        return float("nan")
    s = sorted(samples)
    return round(s[min(len(s) - 1, int(p * len(s)))] * 1000, 2)


def summary(samples: list[float], elapsed: float) -> dict[str, float]:
    return {
        "commands": len(samples),
        "commands_per_second": round(len(samples) / elapsed, 1),
        "p50_ms": pct(samples, 0.50),
        "p95_ms": pct(samples, 0.95),
        "p99_ms": pct(samples, 0.99),
    }


class BenchTable:
    """One table driven by bots: every seat (the typed client's), sends the waiting seat's
    choice."""

    def __init__(self, seats: list[AsyncSeat], seed: int, noop: bool) -> None:
        self.seats = sorted(seats, key=lambda s: s.seat)  # seat n at [n]
        self.table_id, self.noop = seats[0].table_id, noop
        self.bots = [RandomBot(seed * 10 + i) for i in range(len(seats))]
        self.rng = random.Random(seed)
        self.waiting: list[int] = list(range(len(seats)))
        self.finished = False
        # seat -> its latest view from its event stream (the scale run), as a client acts on it
        self.streamed: dict[int, View] = {}
        # the seat that sent the last command and its view in the answer: current until the
        # next command (a client acts on the view it has rather than asking again; versions
        # are each viewer's own, so one seat's view says nothing of another's being current)
        self.answered: tuple[int, View] | None = None

    def current(self, seat: int) -> View | None:
        if self.answered is not None and self.answered[0] == seat:
            return self.answered[1]
        return self.streamed.get(seat)

    async def next_command(self) -> tuple[int, dict[str, Any]]:
        """The waiting seat's choice; ``(seat, {})`` when none can act now (a streamed view may
        lag: after a few looks the table is left for this round instead of asking forever)."""
        seat = 0
        for attempt in range(len(self.seats) + 2):
            seat = self.rng.choice(self.waiting) if self.waiting else 0
            # the view the seat has (its stream's at every look; its answer's at the first),
            # else asked for
            v = self.current(seat) if attempt == 0 or seat in self.streamed else None
            if v is None:
                try:
                    v = await self.seats[seat].view()
                except ApiProblem:  # counted with the non-2xx answers; this round is skipped
                    return seat, {}
            if self.noop:
                return seat, {"type": "pass"}
            if v.status == "finished":
                self.finished = True
            mine = [c for c in v.legal_commands if c["type"] != "set_auto_pass"]
            if mine:
                return seat, self.bots[seat].act(Observation(seat, lambda v=v: v))
            self.waiting = sorted({w.seat for w in v.waiting_for})
            if not self.waiting or self.finished:
                break
        return seat, {}

    async def step(self) -> float | None:
        """One command; the seconds from POST to the acting seat's updated view."""
        seat, command = await self.next_command()
        if not command:
            # nobody can act as far as this driver's views tell (they may lag, or a wait runs):
            # a moment, so that a closed loop never spins without letting the streams in
            await asyncio.sleep(0.005)
            return None
        t0 = time.perf_counter()
        try:
            answer = await patiently(lambda: self.seats[seat].send(command))
        except ApiProblem:  # refused (a stale view) or still unknown: counted, everyone looks
            answer = None
        elapsed = time.perf_counter() - t0
        self.answered = None
        if isinstance(answer, View):
            self.answered = (seat, answer)
            self.finished = answer.status == "finished"
            self.waiting = sorted({w.seat for w in answer.waiting_for})
            return elapsed
        self.waiting = list(range(len(self.seats)))  # refused, or recorded but not yet seen
        return None


async def new_table(
    client: AsyncClient, seats: int, seed: int, noop: bool, seeded: bool = True
) -> BenchTable:
    """``seeded``: a scenario server, tables are dealt from the bench's seeds."""
    table = await patiently(lambda: client.create_table(seats, seed=seed if seeded else None))
    players = [
        await patiently(lambda i=i: client.join(table.table_id, f"b{i}")) for i in range(seats)
    ]
    await patiently(players[0].start)
    return BenchTable(players, seed, noop)


async def closed_loop(
    api: str, tables: int, seconds: float, noop: bool, seed: int, seeded: bool = True
) -> dict:
    answers = Answers()
    async with load_client(api, tables * 2 + 10, answers) as client:
        pool = await asyncio.gather(
            *(new_table(client, 4 + (seed + i) % 5, seed + i, noop, seeded) for i in range(tables))
        )
        samples: list[float] = []
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
        return {**summary(samples, time.perf_counter() - started), "non_2xx": dict(answers.non_2xx)}


@contextlib.contextmanager
def collections_paused() -> Iterator[None]:
    """No garbage collection in the load generator while it measures: the timings are the
    server's, not the generator's own pauses. With thousands of streams in this one process (each
    player of a real table is a process, a browser, of its own), its collections took 5-17 ms
    every few hundred ms and made about half of the scale run's p99 (POST -> every changed view,
    500 tables: 38-56 ms with them, 22-28 ms without, three alternated pairs). What is made before
    is frozen (never looked at again); collections resume after."""
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


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process and its waited-for children (uvicorn workers)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = sum(int(x) for x in fields[11:15])  # utime stime cutime cstime
    return ticks / os.sysconf("SC_CLK_TCK")


def stack_pids(stack: Stack) -> dict[str, int]:
    pids = {name: proc.pid for name, proc in stack.procs.items()}
    pids.update({name: s.proc.pid for name, s in stack.servers.items()})
    return pids


def machine_ticks() -> tuple[int, int, int]:
    """(busy, stolen, all) clock ticks of every core since boot (``/proc/stat``). Stolen: time a
    virtual machine's core was ready to run but its host ran something else."""
    first = Path("/proc/stat").read_text().split("\n", 1)[0].split()
    user, nice, system, idle, iowait, irq, softirq, steal = (int(x) for x in first[1:9])
    every = user + nice + system + idle + iowait + irq + softirq + steal  # guest is in user
    return every - idle - iowait - steal, steal, every


def machine_during(before: tuple[int, int, int], measured_ms: float, commands: int) -> dict:
    """What the machine did during a run besides what it measures: its cores' busy and stolen
    shares, and the CPU of processes other than the stack's and the load generator's, per
    command. A run on a machine that lent its cores elsewhere (stolen) or ran something else
    reads slower through no fault of the code: this says so beside each figure. Coarse: the
    machine's figures are the kernel's tick counts and the processes' their own accounting, which
    differ by up to about a tenth (so small "others" read as 0)."""
    busy, steal, every = (a - b for a, b in zip(machine_ticks(), before, strict=True))
    hz = os.sysconf("SC_CLK_TCK")
    return {
        "busy_share": round(busy / every, 3) if every else None,
        "stolen_share": round(steal / every, 3) if every else None,
        "others_cpu_ms_per_command": round(
            max(0.0, busy * 1000 / hz - measured_ms) / max(1, commands), 3
        ),
    }


def with_cpu(stack: Stack, run: Any) -> dict:
    """``run()``'s summary with each process's CPU milliseconds per command (where the time
    goes: a figure that a busy machine stretches far less than wall-clock times), and what the
    machine did meanwhile (``machine_during``)."""
    pids = stack_pids(stack)
    before = {name: cpu_seconds(pid) for name, pid in pids.items()}
    me = os.times()
    ticks = machine_ticks()
    result = run()
    mine = os.times()
    spent = {name: (cpu_seconds(pid) - before[name]) * 1000 for name, pid in pids.items()}
    spent["load_generator"] = (mine.user + mine.system - me.user - me.system) * 1000
    n = max(1, result.get("commands", 0))
    per = {name: round(ms / n, 3) for name, ms in spent.items()}
    per["total"] = round(sum(per.values()), 3)
    result["cpu_ms_per_command"] = per
    result["machine"] = machine_during(ticks, sum(spent.values()), n)
    return result


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


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return float("nan")


# The load generator is one client address creating hundreds of tables and thousands of streams:
# the per-client limits would refuse it. Rates stay on (counted, never reached), so their cost is
# in the figures.
BENCH_LIMITS = {
    "GCBC_RATE_CREATE": "1000000/minute",
    "GCBC_RATE_SEAT": "1000000/minute",
    "GCBC_RATE_COMMAND": "1000000/minute",
    "GCBC_STREAMS_PER_CLIENT": "0",
    "GCBC_RATE_CLIENT_COMMAND": "1000000/minute",
    "GCBC_STREAMS_PER_TABLE_CLIENT": "0",
    "GCBC_CONNECTIONS_PER_CLIENT": "0",
    "GCBC_SEATS_PER_CLIENT": "0",
    "GCBC_HOUSE_TABLES_PER_CLIENT": "0",
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


def against(api: str, args: argparse.Namespace) -> dict[str, Any]:
    """The runs that need no control of the stack, against a running deployment."""
    api = api.rstrip("/")
    noop = args.noop
    asyncio.run(closed_loop(api, 2, min(3, args.seconds), noop, 1, seeded=False))  # warm-up
    label = "noop" if noop else "rules"
    out: dict[str, Any] = {"api": api}
    out[label] = {
        "saturation": asyncio.run(closed_loop(api, args.tables, args.seconds, noop, 7, False)),
        "latency": asyncio.run(closed_loop(api, 1, args.seconds, noop, 9, False)),
    }
    print(f"{label}: {out[label]}", file=sys.stderr, flush=True)
    if not args.skip_scale and not noop:
        out["scale"] = worst_of(
            [
                asyncio.run(scale(api, args.scale_tables, args.scale_seconds, 2.0, 3, False))
                for _ in range(max(1, args.scale_runs))
            ]
        )
        print(f"scale: {out['scale']}", file=sys.stderr, flush=True)
    return out


# ../shared/bench/noop_pipeline.py beside the repository: the same hops with no rules (DESIGN)
LIMIT = Path(__file__).resolve().parents[2] / "shared" / "bench" / "noop_pipeline.py"


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
            out.update(_limits(args))
        out[label] = with_stack(
            noop, False, lambda stack, noop=noop: _closed_loops(stack, noop, args)
        )
        print(f"{label}: {out[label]}", file=sys.stderr, flush=True)
    if args.only:
        print(json.dumps(out))
        return 0
    _beside_noop(out)
    out["sync_always"] = with_stack(
        False,
        True,
        lambda stack: {
            "saturation": asyncio.run(
                closed_loop(stack.api, args.tables, args.seconds / 2, False, 7)
            ),
            "latency": asyncio.run(closed_loop(stack.api, 1, args.seconds / 4, False, 9)),
        },
    )
    print(f"sync_always: {out['sync_always']}", file=sys.stderr, flush=True)
    _beside_the_limit(out)
    if not args.skip_scale:
        out.update(_scale_runs(args))
    print(json.dumps(out))
    if args.out:
        Path(args.out).write_text(json.dumps(out))
    return 0


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


def _limits(args: argparse.Namespace) -> dict[str, Any]:
    """The design's physical limit: as it is, reading each seat's view first, and that with every
    process getting every entry."""
    out = {"limit": physical_limit(Path(args.limit), args.tables, args.seconds)}
    print(f"limit: {out['limit']}", file=sys.stderr, flush=True)
    out["limit_read_first"] = physical_limit(
        Path(args.limit), args.tables, args.seconds, read_first=True
    )
    print(f"limit_read_first: {out['limit_read_first']}", file=sys.stderr, flush=True)
    # what the one subject per table costs (the first design change), reported
    out["limit_read_first_every_entry"] = physical_limit(
        Path(args.limit), args.tables, args.seconds, every_entry=True, latency=False
    )
    print(
        f"limit_read_first_every_entry: {out['limit_read_first_every_entry']}",
        file=sys.stderr,
        flush=True,
    )
    return out


def _closed_loops(stack: Stack, noop: bool, args: argparse.Namespace) -> dict:
    """The saturation and latency runs on ``stack`` (the real rules' in pairs with the limit's)."""
    asyncio.run(closed_loop(stack.api, 2, 3, noop, 1))  # warm-up
    # the real rules' saturation in pairs with the limit's, alternated (limit, server,
    # limit, server...): each pair the same minute, this machine's speed drifting by ±20 %
    # from one minute to the next; the target's ratio is over the pairs
    paired = bool(args.limit) and not noop and args.pairs > 0
    limit = Path(args.limit) if args.limit else None
    runs, latencies, limits, limit_latencies = [], [], [], []
    for _ in range(args.pairs if paired else 1):
        if paired:
            got = physical_limit(limit, args.tables, args.seconds, latency=False)
            limits.append(got.get("saturation", {}))
        runs.append(
            with_cpu(
                stack,
                lambda: asyncio.run(closed_loop(stack.api, args.tables, args.seconds, noop, 7)),
            )
        )
        if paired:  # the 1-table p99 too: a tail, the most moved by the minute
            got = physical_limit(limit, 1, args.seconds, saturation=False)
            limit_latencies.append(got.get("latency", {}))
        latencies.append(
            with_cpu(
                stack,
                lambda: asyncio.run(closed_loop(stack.api, 1, args.seconds, noop, 9)),
            )
        )
    result = {"saturation": combined_runs(runs), "latency": combined_latencies(latencies)}
    if paired:
        result["paired_with_limit"] = {
            "saturation": paired_ratio(limits, runs, "commands_per_s", "commands_per_second"),
            "latency": paired_ratio(limit_latencies, latencies, "p99_ms", "p99_ms", 2),
        }
    return result


def _beside_noop(out: dict[str, Any]) -> None:
    """The real rules' figures as ratios to the no-op rules'."""
    out["rules"]["saturation_vs_noop"] = round(
        out["rules"]["saturation"]["commands_per_second"]
        / out["noop"]["saturation"]["commands_per_second"],
        2,
    )
    out["rules"]["latency_p99_vs_noop"] = round(
        out["rules"]["latency"]["p99_ms"] / out["noop"]["latency"]["p99_ms"], 2
    )


def _beside_the_limit(out: dict[str, Any]) -> None:
    """This server's figures (both rules) as ratios to the design's physical limit's."""
    limit = out.get("limit") or {}
    if not (limit.get("saturation") and limit.get("latency")):
        return
    for label in ("noop", "rules"):
        mine = out[label]
        mine["saturation_vs_limit"] = round(
            mine["saturation"]["commands_per_second"] / limit["saturation"]["commands_per_s"], 2
        )
        mine["latency_p99_vs_limit"] = round(
            mine["latency"]["p99_ms"] / limit["latency"]["p99_ms"], 2
        )
        read_first = out.get("limit_read_first", {}).get("saturation", {})
        if read_first.get("commands_per_s"):
            mine["saturation_vs_limit_read_first"] = round(
                mine["saturation"]["commands_per_second"] / read_first["commands_per_s"], 2
            )


def _scale_runs(args: argparse.Namespace) -> dict[str, Any]:
    """The scale run, ``--scale-runs`` times (the worst is the figure), then with
    ``--scale-report-tables`` (reported)."""

    def run_scale(stack: Stack, tables: int = args.scale_tables) -> dict:
        result = with_cpu(
            stack, lambda: asyncio.run(scale(stack.api, tables, args.scale_seconds, 2.0, 3))
        )
        result["rss_mb"] = {name: rss_mb(proc.pid) for name, proc in stack.procs.items()}
        result["rss_mb"].update({n: rss_mb(s.proc.pid) for n, s in stack.servers.items()})
        return result

    out = {
        "scale": worst_of(
            [with_stack(False, False, run_scale) for _ in range(max(1, args.scale_runs))]
        )
    }
    print(f"scale: {out['scale']}", file=sys.stderr, flush=True)
    if args.scale_report_tables:
        more = args.scale_report_tables
        out[f"scale_{more}"] = with_stack(False, False, lambda stack: run_scale(stack, more))
        print(f"scale_{more}: {out[f'scale_{more}']}", file=sys.stderr, flush=True)
    return out


if __name__ == "__main__":
    sys.exit(main())
