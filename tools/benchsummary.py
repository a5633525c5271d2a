"""``python -m tools.benchsummary DIR``: ``make bench``'s one summary. Each bench of the run wrote
its figures to DIR (``--out``); this prints one JSON object, each target's figure (and the
rebuild's, the restart's, quick play's matching round) with its target, the limit beside it
where there is one, and whether it is met. A bench that did not run is listed as missing, never
as met.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

FILES = {
    "engine": "engine.json",  # python -m gcbc bench
    "rebuild": "rebuild.json",  # tools.rebuildbench
    "system": "system.json",  # tools.bench (with the limit, noop_pipeline.py, in the same run)
    "restart": "restart.json",  # tools.restartbench
    "memory": "memory.json",  # tools.membench
    "edge": "edge.json",  # tools.edgebench
    "queue": "queue.json",  # tools.queuebench
}
SERVICES = ("rules", "projection", "table", "bots", "redis")  # NATS, the log, is not a service


def _load(folder: Path) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, file in FILES.items():
        path = folder / file
        if path.exists():
            try:
                out[name] = json.loads(path.read_text())
            except ValueError:
                pass
    return out


def _get(d: Any, *keys: str) -> Any:
    for key in keys:
        if not isinstance(d, dict) or key not in d:
            return None
        d = d[key]
    return d


def _figure(
    name: str,
    value: float | None,
    target: str,
    met: bool | None,
    limit: float | None = None,
    ratio: float | None = None,
) -> dict[str, Any]:
    if isinstance(value, float):
        value = round(value, 3)
    got: dict[str, Any] = {"figure": name, "value": value, "target": target}
    if limit is not None:
        got["limit"] = limit
    if ratio is not None:
        got["ratio_to_limit"] = ratio
    got["met"] = "missing" if value is None else bool(met)
    return got


def _ratio(value: float | None, limit: float | None) -> float | None:
    """Shown to three places, so that a figure judged short never prints as its target."""
    return round(value / limit, 3) if value and limit else None


def _exact(value: float | None, limit: float | None) -> float | None:
    """The ratio a target is judged on (unrounded: 0.495 is short of 0.50)."""
    return value / limit if value and limit else None


def _services_kb(per_table: dict[str, float] | None) -> float | None:
    if not per_table:
        return None
    return round(sum(per_table.get(k, 0.0) for k in SERVICES), 1)


# the figures with no limit beside them: (figure, bench, keys to its value, target, its test)
THRESHOLDS: tuple[tuple[str, str, tuple[str, ...], str, Callable[[float], bool]], ...] = (
    (
        "simulator, 6 seats, a process per core: games/s",
        "engine",
        ("simulator_6_seats_random_games_per_second",),
        ">= 300",
        lambda v: v >= 300,
    ),
    ("decide+evolve p99 us", "engine", ("decide_evolve", "p99_us"), "< 200", lambda v: v < 200),
    (
        "rebuild, log entries/s",
        "rebuild",
        ("entries_per_second",),
        ">= 50,000",
        lambda v: v >= 50_000,
    ),
    (
        "restart with 10,000 tables: first answer s",
        "restart",
        ("first_answer_seconds",),
        "<= 1",
        lambda v: v <= 1.0,
    ),
    (
        "supervised kill -9 with 10,000 tables: next answer s",
        "restart",
        ("supervised_kill_answer_seconds",),
        "<= 1",
        lambda v: v <= 1.0,
    ),
)
# reported beside the target, never instead of it: the same loop with no-op rules, and the
# limit played as this game is (a read of the seat's view before each command: what the
# protocol alone costs)
BESIDE_THE_LIMIT = (
    (
        "50 tables closed loop, no-op rules: commands/s",
        ("noop", "saturation", "commands_per_second"),
    ),
    (
        "50 tables closed loop, the limit reading each seat's view before its command: commands/s",
        ("limit_read_first", "saturation", "commands_per_s"),
    ),
    (
        "50 tables closed loop, the same with every process getting every entry, as here:"
        " commands/s",
        ("limit_read_first_every_entry", "saturation", "commands_per_s"),
    ),
)
# what the machine did during the runs (tools.bench.machine_during): a figure short on a
# machine whose cores were stolen or busy elsewhere says so beside it
MACHINE = {
    "50 tables closed loop, real rules": ("rules", "saturation", "machine"),
    "1 table closed loop, real rules": ("rules", "latency", "machine"),
    "500 human-paced tables": ("scale", "machine"),
}


def _paired(system: Any, run: str, server: float | None, limit: float | None) -> tuple:
    """The server's figure and the limit's, from the runs paired with the limit's where there
    are some (the server's runs each right after one of the limit's, alternated: the means over
    the pairs), and those pairs."""
    paired = _get(system, "rules", "paired_with_limit", run)
    if paired and paired.get("ratio"):
        server, limit = paired["server"], paired["limit"]
    return server, limit, paired["pairs"] if paired else None


def _closed_loops(system: Any) -> list[dict[str, Any]]:
    """The 50 tables' rate against the limit's, what is reported beside it, and the one
    table's p99 against the limit's."""
    limit_rate = _get(system, "limit", "saturation", "commands_per_s")
    rate = _get(system, "rules", "saturation", "commands_per_second")
    rate, headline_limit, pairs = _paired(system, "saturation", rate, limit_rate)
    ratio = _ratio(rate, headline_limit)
    headline = _figure(
        "50 tables closed loop, real rules: commands/s",
        rate,
        ">= 0.50 x the limit's",
        (_exact(rate, headline_limit) or 0.0) >= 0.5,
        headline_limit,
        ratio,
    )
    if pairs is not None:
        headline["pairs"] = pairs
    figures = [headline]
    for name, keys in BESIDE_THE_LIMIT:
        value = _get(system, *keys)
        figures.append(_figure(name, value, "report", True, limit_rate, _ratio(value, limit_rate)))
    read_first = _get(system, "limit_read_first", "saturation", "commands_per_s")
    if read_first:
        headline["ratio_to_limit_read_first"] = _ratio(rate, read_first)
        figures[-1]["ratio_to_limit_read_first"] = _ratio(figures[-1]["value"], read_first)
    p99 = _get(system, "rules", "latency", "p99_ms")
    limit_p99 = _get(system, "limit", "latency", "p99_ms")
    p99, limit_p99, pairs = _paired(system, "latency", p99, limit_p99)
    p99_ratio = _ratio(p99, limit_p99)
    latency = _figure(
        "1 table closed loop, real rules: POST->view p99 ms",
        p99,
        "<= 1.5 x the limit's",
        p99_ratio is not None and (_exact(p99, limit_p99) or 2.0) <= 1.5,
        limit_p99,
        p99_ratio,
    )
    if pairs is not None:
        latency["pairs"] = pairs
    return [*figures, latency]


def _scale(system: Any) -> list[dict[str, Any]]:
    """The human-paced tables' p99 (the worst run's), and a larger count's where one ran."""
    views_p99 = _get(system, "scale", "all_views_p99_ms")
    scale = _figure(
        "500 human-paced tables, every seat on SSE: POST->every changed view p99 ms",
        views_p99,
        "< 50 in every run",
        views_p99 is not None and views_p99 < 50,
    )
    if _get(system, "scale", "runs_all_views_p99_ms"):
        scale["runs"] = system["scale"]["runs_all_views_p99_ms"]
    more = next((k for k in sorted(system or {}) if k.startswith("scale_")), None)
    if more is None:
        return [scale]
    tables = int(more.split("_", 1)[1])
    name = f"{tables:,} human-paced tables, every seat on SSE: POST->every changed view p99 ms"
    return [scale, _figure(name, _get(system, more, "all_views_p99_ms"), "report", True)]


def _memory(memory: Any) -> list[dict[str, Any]]:
    """The services' and Redis' KB per table: started, at rest, after some finished."""
    found = memory or {}
    rest = next((v for k, v in found.items() if "_at_rest_after_" in k), None)
    finished = next((v for k, v in found.items() if k.endswith("_finished")), None)
    kbs = [
        (
            f"memory, services and Redis, per table, {size:,} started: KB",
            _get(memory, f"started_{size}", "kb_per_table"),
            "<= 64",
        )
        for size in (1000, 5000)
    ]
    kbs.append(
        ("memory, the same tables at rest: KB per table", _get(rest, "kb_per_table"), "<= 64, flat")
    )
    kbs.append(
        (
            "memory, after some of them finished: KB per table started",
            _get(finished, "kb_per_started_table"),
            "<= 64, flat",
        )
    )
    figures = []
    for name, per_table, target in kbs:
        kb = _services_kb(per_table)
        figures.append(_figure(name, kb, target, kb is not None and kb <= 64))
    return figures


# reported, no target: the simulator in one process, what the connection guard costs per request
# and refusing the dearest body (charged as 16 requests), and what a matching round of quick play
# costs as the queue grows (figure, bench, keys)
REPORTED = (
    [
        (
            "simulator, 6 seats, one process: games/s",
            "engine",
            ("simulator_6_seats_random_games_per_second_one_process",),
        ),
        (
            "simulator, 6 seats, one process: CPU ms per game",
            "engine",
            ("simulator_6_seats_random_cpu_ms_per_game",),
        ),
    ]
    + [
        (
            f"connection guard: server CPU per request, {mode.replace('_', ' ')} (us)",
            "edge",
            ("server_cpu_per_request", mode),
        )
        for mode in ("kept_alive", "new_connection")
    ]
    + [("the dearest 64 KiB body refused: CPU ms", "edge", ("refused_body", "dearest_ms"))]
    + [
        (
            f"quick play: one matching round, {int(size):,} waiting (ms)",
            "queue",
            ("matching_round", size, "median_ms"),
        )
        for size in ("1000", "10000")
    ]
)


def summary(found: dict[str, Any]) -> dict[str, Any]:
    system = found.get("system")
    figures = [*_closed_loops(system), *_scale(system), *_memory(found.get("memory"))]
    for name, bench, keys, target, test in THRESHOLDS:
        value = _get(found.get(bench), *keys)
        figures.append(_figure(name, value, target, value is not None and test(value)))
    figures += [
        _figure(name, _get(found.get(bench), *keys), "report", True)
        for name, bench, keys in REPORTED
    ]
    for figure in figures:
        path = next((p for name, p in MACHINE.items() if figure["figure"].startswith(name)), None)
        machine = _get(system, *path) if path else None
        if machine:
            figure["machine"] = machine
    short = [f["figure"] for f in figures if f["met"] is not True]
    return {"figures": figures, "short_or_missing": short}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    folder = Path(args[0] if args else ".bench")
    print(json.dumps(summary(_load(folder)), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
