"""`python -m tools.bench --api URL`: the bench aims at a running deployment instead of
starting stacks of its own, and counts every answer that is not 2xx."""

from __future__ import annotations

import json

from tools import bench


def test_bench_against_a_running_deployment(stack, capsys):
    assert bench.main(["--api", stack.api, "--seconds", "1", "--tables", "2", "--skip-scale"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["api"] == stack.api
    for run in ("saturation", "latency"):
        result = out["rules"][run]
        assert result["commands"] > 0
        assert isinstance(result["non_2xx"], dict)
        assert not [k for k in result["non_2xx"] if k.split()[-1].startswith("5")], result


def test_answers_are_counted_by_route_and_status():
    answers = bench.Answers()
    answers.count("POST", "/tables/0123456789abcdef/commands", 200)
    answers.count("POST", "/tables/0123456789abcdef/commands", 409)
    answers.count("POST", "/tables/fedcba9876543210/commands", 409)
    answers.count("GET", "/tables/fedcba9876543210/view?after=3", 429)
    assert answers.non_2xx == {
        "POST /tables/{id}/commands 409": 2,
        "GET /tables/{id}/view 429": 1,
    }
