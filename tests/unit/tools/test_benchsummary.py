"""make bench's one summary (tools/benchsummary.py): each figure with its target, the limit beside
it where there is one, and whether it is met; a bench that did not run is missing, never met."""

from __future__ import annotations

import json

from tools.benchsummary import main, summary

SYSTEM = {
    "limit": {
        "saturation": {"commands_per_s": 790.0},
        "latency": {"p99_ms": 11.7},
    },
    "limit_read_first": {"saturation": {"commands_per_s": 553.0}},
    "limit_read_first_every_entry": {"saturation": {"commands_per_s": 442.4}},
    "noop": {"saturation": {"commands_per_second": 364.0}},
    "rules": {
        "saturation": {"commands_per_second": 299.1},
        "latency": {"p99_ms": 17.0},
    },
    "scale": {"all_views_p99_ms": 314.7},
    "scale_2000": {"all_views_p99_ms": 612.0},
}
MEMORY = {
    "started_1000": {
        "kb_per_table": {
            "rules": 11.8,
            "projection": 17.3,
            "table": 15.4,
            "bots": 0.1,
            "nats": 23.3,
            "redis": 18.4,
            "total": 86.3,
        }
    },
    "started_5000": {
        "kb_per_table": {
            "rules": 11.2,
            "projection": 12.8,
            "table": 13.6,
            "bots": 0.0,
            "nats": 10.1,
            "redis": 18.1,
            "total": 65.8,
        }
    },
    "5000_at_rest_after_160_s": {
        "kb_per_table": {"rules": 30.0, "projection": 12.8, "table": 13.6, "redis": 18.1}
    },
}


def _by_name(result: dict) -> dict[str, dict]:
    return {f["figure"]: f for f in result["figures"]}


def test_each_figure_is_set_against_its_target_and_the_limit():
    got = _by_name(
        summary(
            {
                "system": SYSTEM,
                "memory": MEMORY,
                "engine": {
                    "simulator_6_seats_random_games_per_second": 130.1,
                    "decide_evolve": {"p99_us": 83.2},
                },
                "rebuild": {"entries_per_second": 52000},
                "restart": {"first_answer_seconds": 0.84},
                "edge": {"refused_body": {"dearest_ms": 16.5, "ms": {"long_floats": 16.5}}},
            }
        )
    )
    closed = got["50 tables closed loop, real rules: commands/s"]
    assert (closed["limit"], closed["ratio_to_limit"], closed["met"]) == (790.0, 0.379, False)
    # beside it, the limit played with a view read before each command: reported, not a target
    assert closed["ratio_to_limit_read_first"] == 0.541
    read_first = got[
        "50 tables closed loop, the limit reading each seat's view before its command: commands/s"
    ]
    assert (read_first["value"], read_first["ratio_to_limit"]) == (553.0, 0.7)
    # and once more with every process getting every entry, as this server's do: reported
    every = got[
        "50 tables closed loop, the same with every process getting every entry, as here:"
        " commands/s"
    ]
    assert (every["value"], every["target"], every["met"]) == (442.4, "report", True)
    assert every["ratio_to_limit_read_first"] == 0.8
    latency = got["1 table closed loop, real rules: POST->view p99 ms"]
    assert (latency["ratio_to_limit"], latency["met"]) == (1.453, True)
    scale = got["500 human-paced tables, every seat on SSE: POST->every changed view p99 ms"]
    assert scale["met"] is False
    more = got["2,000 human-paced tables, every seat on SSE: POST->every changed view p99 ms"]
    assert (more["value"], more["target"], more["met"]) == (612.0, "report", True)  # reported
    # NATS (the log) is not a service: 11.8 + 17.3 + 15.4 + 0.1 + 18.4
    started = got["memory, services and Redis, per table, 1,000 started: KB"]
    assert (started["value"], started["met"]) == (63.0, True)
    assert got["memory, the same tables at rest: KB per table"]["met"] is False  # 74.5
    assert got["simulator, 6 seats, a process per core: games/s"]["met"] is False
    assert got["decide+evolve p99 us"]["met"] is True
    assert got["rebuild, log entries/s"]["met"] is True
    assert got["restart with 10,000 tables: first answer s"]["met"] is True
    refused = got["the dearest 64 KiB body refused: CPU ms"]  # reported
    assert (refused["value"], refused["target"], refused["met"]) == (16.5, "report", True)


def test_a_bench_that_did_not_run_is_missing_not_met(tmp_path, capsys):
    (tmp_path / "system.json").write_text(json.dumps(SYSTEM))
    assert main([str(tmp_path)]) == 0
    printed = json.loads(capsys.readouterr().out)
    got = _by_name(printed)
    assert got["rebuild, log entries/s"]["met"] == "missing"
    assert got["memory, after some of them finished: KB per table started"]["met"] == "missing"
    assert "rebuild, log entries/s" in printed["short_or_missing"]
    assert got["50 tables closed loop, no-op rules: commands/s"]["ratio_to_limit"] == 0.461


def test_the_50_table_figure_is_over_the_pairs_run_beside_the_limit():
    """The real rules' runs each right after one of the limit's (tools.bench --pairs): the ratio
    of the means over the pairs, each pair shown; the limit's first run stays the measure of
    the figures reported beside it."""
    from tools.bench import combined_latencies, combined_runs, paired_ratio

    runs = [
        {
            "commands": 100,
            "commands_per_second": 700.0,
            "cpu_ms_per_command": {"table": 0.8},
            "non_2xx": {"POST /tables/{id}/commands 409": 1},
        },
        {
            "commands": 120,
            "commands_per_second": 800.0,
            "cpu_ms_per_command": {"table": 0.6},
            "non_2xx": {"POST /tables/{id}/commands 409": 2},
        },
    ]
    paired = paired_ratio(
        [{"commands_per_s": 1600.0}, {"commands_per_s": 1400.0}],
        runs,
        "commands_per_s",
        "commands_per_second",
    )
    assert [p["ratio"] for p in paired["pairs"]] == [0.438, 0.571]
    assert (paired["limit"], paired["server"]) == (1500.0, 750.0)
    assert paired["ratio"] == 0.5
    both = combined_runs(runs)
    assert both["commands_per_second"] == 750.0 and both["runs"] == [700.0, 800.0]
    assert both["cpu_ms_per_command"] == {"table": 0.7} and both["commands"] == 220
    assert both["non_2xx"] == {"POST /tables/{id}/commands 409": 3}
    latencies = [
        {"commands": 50, "commands_per_second": 200.0, "p50_ms": 3.0, "p95_ms": 5.0, "p99_ms": 6.0},
        {"commands": 40, "commands_per_second": 160.0, "p50_ms": 4.0, "p95_ms": 6.0, "p99_ms": 9.0},
    ]
    both_latencies = combined_latencies(latencies)
    assert (both_latencies["p99_ms"], both_latencies["runs_p99_ms"]) == (7.5, [6.0, 9.0])
    assert (both_latencies["p50_ms"], both_latencies["commands"]) == (3.5, 90)
    paired_p99 = paired_ratio([{"p99_ms": 4.0}, {"p99_ms": 6.0}], latencies, "p99_ms", "p99_ms", 2)
    assert (paired_p99["limit"], paired_p99["server"], paired_p99["ratio"]) == (5.0, 7.5, 1.5)
    system = {
        **SYSTEM,
        "rules": {
            **SYSTEM["rules"],
            "paired_with_limit": {"saturation": paired, "latency": paired_p99},
        },
    }
    one = _by_name(summary({"system": system}))[
        "1 table closed loop, real rules: POST->view p99 ms"
    ]
    assert (one["value"], one["limit"], one["ratio_to_limit"], one["met"]) == (7.5, 5.0, 1.5, True)
    assert one["pairs"] == paired_p99["pairs"]
    closed = _by_name(summary({"system": system}))["50 tables closed loop, real rules: commands/s"]
    assert (closed["value"], closed["limit"], closed["ratio_to_limit"], closed["met"]) == (
        750.0,
        1500.0,
        0.5,
        True,
    )
    assert closed["pairs"] == paired["pairs"]
    noop = _by_name(summary({"system": system}))["50 tables closed loop, no-op rules: commands/s"]
    assert noop["limit"] == 790.0  # beside the limit's first run, as before


def test_each_run_says_what_the_machine_did_meanwhile(monkeypatch):
    """A run's figure beside the machine's busy and stolen shares and the CPU of processes the
    bench did not start (tools.bench.machine_during): a slow minute shows as such."""
    from tools.bench import combined_runs, machine

    readings = iter([(1000, 50, 4000), (1700, 250, 6000)])  # (busy, stolen, all) ticks
    monkeypatch.setattr(machine, "machine_ticks", lambda: next(readings))
    monkeypatch.setattr(machine.os, "sysconf", lambda name: 100)  # ticks per second
    before = machine.machine_ticks()
    # 700 busy ticks = 7,000 ms, of which the runs measured 5,000: 2,000 ms others over 400
    got = machine.machine_during(before, 5000.0, 400)
    assert got == {"busy_share": 0.35, "stolen_share": 0.1, "others_cpu_ms_per_command": 5.0}
    runs = [
        {"commands": 10, "commands_per_second": 5.0, "machine": got},
        {"commands": 10, "commands_per_second": 7.0, "machine": {**got, "stolen_share": 0.3}},
    ]
    assert combined_runs(runs)["machine"]["stolen_share"] == 0.2
    system = {
        **SYSTEM,
        "rules": {"saturation": {"commands_per_second": 299.1, "machine": got}, "latency": {}},
        "scale": {"all_views_p99_ms": 61.0, "machine": got},
    }
    figures = _by_name(summary({"system": system}))
    assert figures["50 tables closed loop, real rules: commands/s"]["machine"] == got
    scale = "500 human-paced tables, every seat on SSE: POST->every changed view p99 ms"
    assert figures[scale]["machine"] == got and figures[scale]["met"] is False
    assert "machine" not in figures["1 table closed loop, real rules: POST->view p99 ms"]


def test_the_machine_reading_is_this_machines():
    from tools.bench import machine_ticks

    busy, stolen, every = machine_ticks()
    assert 0 <= busy <= every and 0 <= stolen <= every


def test_the_500_table_target_holds_in_every_run():
    """The scale run made twice (tools.bench --scale-runs): the figure is the worst run's, each
    run's p99 beside it, and one run over 50 ms is short."""
    from tools.bench import worst_of

    runs = [
        {"all_views_p99_ms": 27.8, "all_views_p50_ms": 8.8, "commands": 6400},
        {"all_views_p99_ms": 51.2, "all_views_p50_ms": 9.1, "commands": 6390},
    ]
    worst = worst_of(runs)
    assert worst["all_views_p99_ms"] == 51.2 and worst["commands"] == 6390
    assert worst["runs_all_views_p99_ms"] == [27.8, 51.2]
    figure = _by_name(summary({"system": {**SYSTEM, "scale": worst}}))[
        "500 human-paced tables, every seat on SSE: POST->every changed view p99 ms"
    ]
    assert (figure["value"], figure["met"], figure["runs"]) == (51.2, False, [27.8, 51.2])
    assert worst_of(runs[:1]) == runs[0]  # one run: as it is
    # a run that measured nothing (its p99 NaN) is the worst, never hidden behind a good one
    empty = {"all_views_p99_ms": float("nan"), "all_views_p50_ms": float("nan"), "commands": 0}
    assert worst_of([runs[0], empty])["commands"] == 0
    assert worst_of([empty, runs[0]])["commands"] == 0


def test_a_ratio_just_short_of_its_target_is_short():
    """0.495 of the limit is short of 0.50, though it rounds to it."""
    system = {
        "limit": {"saturation": {"commands_per_s": 1000.0}},
        "rules": {"saturation": {"commands_per_second": 495.0}},
    }
    closed = _by_name(summary({"system": system}))["50 tables closed loop, real rules: commands/s"]
    assert (closed["ratio_to_limit"], closed["met"]) == (0.495, False)


def test_the_matching_round_is_reported_per_queue_size(tmp_path, capsys):
    queue = {"matching_round": {"1000": {"median_ms": 15.2}, "10000": {"median_ms": 34.0}}}
    (tmp_path / "queue.json").write_text(json.dumps(queue))
    assert main([str(tmp_path)]) == 0
    got = _by_name(json.loads(capsys.readouterr().out))
    assert got["quick play: one matching round, 1,000 waiting (ms)"]["value"] == 15.2
    assert got["quick play: one matching round, 10,000 waiting (ms)"]["met"] is True
    assert (
        _by_name(summary({}))["quick play: one matching round, 1,000 waiting (ms)"]["met"]
        == "missing"
    )
