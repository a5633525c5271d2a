"""``python -m tools.benchsummary DIR``: ``make bench``'s one summary. Each bench of the run wrote
its figures to DIR (``--out``); this prints one JSON object, each target's figure (and the
rebuild's and the restart's) with its target, the limit beside it where there is one, and whether
it is met. A bench that did not run is listed as missing, never as met.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

FILES = {
    "engine": "engine.json",  # python -m gcbc bench
    "rebuild": "rebuild.json",  # tools.rebuildbench
    "system": "system.json",  # tools.bench (with the limit, noop_pipeline.py, in the same run)
    "restart": "restart.json",  # tools.restartbench
    "memory": "memory.json",  # tools.membench
    "edge": "edge.json",  # tools.edgebench
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
    return round(value / limit, 2) if value and limit else None


def _services_kb(per_table: dict[str, float] | None) -> float | None:
    if not per_table:
        return None
    return round(sum(per_table.get(k, 0.0) for k in SERVICES), 1)


def summary(found: dict[str, Any]) -> dict[str, Any]:
    system, engine, memory = found.get("system"), found.get("engine"), found.get("memory")
    figures = []
    limit_rate = _get(system, "limit", "saturation", "commands_per_s")
    rate = _get(system, "rules", "saturation", "commands_per_second")
    paired = _get(system, "rules", "paired_with_limit", "saturation")
    if paired and paired.get("ratio"):
        # the server's runs each right after one of the limit's, alternated: the ratio of the
        # means over the pairs (the limit's first run, before the others, is their measure)
        rate, headline_limit = paired["server"], paired["limit"]
    else:
        headline_limit = limit_rate
    ratio = _ratio(rate, headline_limit)
    figures.append(
        _figure(
            "50 tables closed loop, real rules: commands/s",
            rate,
            ">= 0.50 x the limit's",
            ratio is not None and ratio >= 0.5,
            headline_limit,
            ratio,
        )
    )
    if paired:
        figures[0]["pairs"] = paired["pairs"]
    # reported beside the target, never instead of it: the same loop with no-op rules, and the
    # limit played as this game is (a read of the seat's view before each command: what the
    # protocol alone costs)
    read_first = _get(system, "limit_read_first", "saturation", "commands_per_s")
    reported = {
        "50 tables closed loop, no-op rules: commands/s": _get(
            system, "noop", "saturation", "commands_per_second"
        ),
        "50 tables closed loop, the limit reading each seat's view before its command:"
        " commands/s": read_first,
        "50 tables closed loop, the same with every process getting every entry, as here:"
        " commands/s": _get(system, "limit_read_first_every_entry", "saturation", "commands_per_s"),
    }
    for name, value in reported.items():
        figures.append(_figure(name, value, "report", True, limit_rate, _ratio(value, limit_rate)))
    if read_first:
        figures[0]["ratio_to_limit_read_first"] = _ratio(rate, read_first)
        figures[-1]["ratio_to_limit_read_first"] = _ratio(figures[-1]["value"], read_first)
    limit_p99 = _get(system, "limit", "latency", "p99_ms")
    p99 = _get(system, "rules", "latency", "p99_ms")
    paired_p99 = _get(system, "rules", "paired_with_limit", "latency")
    if paired_p99 and paired_p99.get("ratio"):  # the means of each side's p99s, as above
        p99, limit_p99 = paired_p99["server"], paired_p99["limit"]
    p99_ratio = _ratio(p99, limit_p99)
    figures.append(
        _figure(
            "1 table closed loop, real rules: POST->view p99 ms",
            p99,
            "<= 1.5 x the limit's",
            p99_ratio is not None and p99_ratio <= 1.5,
            limit_p99,
            p99_ratio,
        )
    )
    if paired_p99:
        figures[-1]["pairs"] = paired_p99["pairs"]
    views_p99 = _get(system, "scale", "all_views_p99_ms")  # the worst run's (tools.bench)
    figures.append(
        _figure(
            "500 human-paced tables, every seat on SSE: POST->every changed view p99 ms",
            views_p99,
            "< 50 in every run",
            views_p99 is not None and views_p99 < 50,
        )
    )
    if _get(system, "scale", "runs_all_views_p99_ms"):
        figures[-1]["runs"] = system["scale"]["runs_all_views_p99_ms"]
    more = next((k for k in sorted(system or {}) if k.startswith("scale_")), None)
    if more is not None:
        views_p99 = _get(system, more, "all_views_p99_ms")
        tables = int(more.split("_", 1)[1])
        figures.append(
            _figure(
                f"{tables:,} human-paced tables, every seat on SSE: POST->every changed view"
                " p99 ms",
                views_p99,
                "report",
                True,
            )
        )
    for size in (1000, 5000):
        kb = _services_kb(_get(memory, f"started_{size}", "kb_per_table"))
        figures.append(
            _figure(
                f"memory, services and Redis, per table, {size:,} started: KB",
                kb,
                "<= 64",
                kb is not None and kb <= 64,
            )
        )
    rest = next((v for k, v in (memory or {}).items() if "_at_rest_after_" in k), None)
    kb = _services_kb(_get(rest, "kb_per_table"))
    figures.append(
        _figure("memory, the same tables at rest: KB per table", kb, "<= 64, flat", kb and kb <= 64)
    )
    finished = next((v for k, v in (memory or {}).items() if k.endswith("_finished")), None)
    kb = _services_kb(_get(finished, "kb_per_started_table"))
    figures.append(
        _figure(
            "memory, after some of them finished: KB per table started",
            kb,
            "<= 64, flat",
            kb and kb <= 64,
        )
    )
    games = _get(engine, "simulator_6_seats_random_games_per_second")
    figures.append(
        _figure("simulator, 6 seats, one core: games/s", games, ">= 300", games and games >= 300)
    )
    decide = _get(engine, "decide_evolve", "p99_us")
    figures.append(_figure("decide+evolve p99 us", decide, "< 200", decide and decide < 200))
    rebuild = _get(found.get("rebuild"), "entries_per_second")
    figures.append(
        _figure("rebuild, log entries/s", rebuild, ">= 50,000", rebuild and rebuild >= 50_000)
    )
    restart = _get(found.get("restart"), "first_answer_seconds")
    figures.append(
        _figure(
            "restart with 10,000 tables: first answer s",
            restart,
            "<= 1",
            restart is not None and restart <= 1.0,
        )
    )
    crash = _get(found.get("restart"), "supervised_kill_answer_seconds")
    figures.append(
        _figure(
            "supervised kill -9 with 10,000 tables: next answer s",
            crash,
            "<= 1",
            crash is not None and crash <= 1.0,
        )
    )
    # the connection guard's cost (reported, no target: it is what the limits cost per request)
    for mode in ("kept_alive", "new_connection"):
        cost = _get(found.get("edge"), "server_cpu_per_request", mode)
        figures.append(
            {
                "figure": f"connection guard: server CPU per request, {mode.replace('_', ' ')} (us)",
                "value": cost,
                "target": "report",
                "met": "missing" if cost is None else True,
            }
        )
    # what the machine did during the runs (tools.bench.machine_during): a figure short on a
    # machine whose cores were stolen or busy elsewhere says so beside it
    runs = {
        "50 tables closed loop, real rules": ("rules", "saturation", "machine"),
        "1 table closed loop, real rules": ("rules", "latency", "machine"),
        "500 human-paced tables": ("scale", "machine"),
    }
    for figure in figures:
        path = next((p for name, p in runs.items() if figure["figure"].startswith(name)), None)
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
