"""`make load` (locust, tools/locustfile.py) against the real stack for a few seconds:
tables progress, and the report's failures are only the ones a game under load expects."""

from __future__ import annotations

import csv
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXPECTED = {409, 422}  # a seat acting on a view another seat had just made stale


def rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as f:
        return list(csv.DictReader(f))


@pytest.mark.timeout(120)
def test_make_load_plays_tables_without_server_errors(stack, tmp_path):
    assert shutil.which("make"), "make is needed (make test itself runs through it)"
    run = subprocess.run(
        [
            "make",
            "-s",
            "load",
            f"HOST={stack.api}",
            "USERS=7",
            "RATE=7",
            "DURATION=5s",
            f"LOAD_REPORT={tmp_path}",
            "LOAD_ARGS=--think 0.1-0.3 --watch 1-2 --seats 4-5",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=100,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert (tmp_path / "load.html").stat().st_size > 0

    stats = {(r["Type"], r["Name"]): r for r in rows(tmp_path / "load_stats.csv")}
    done = {key: int(r["Request Count"]) - int(r["Failure Count"]) for key, r in stats.items()}
    print({key: n for key, n in done.items()})
    assert done[("POST", "/tables/{id}/start")] >= 1, stats.keys()  # tables were filled and started
    assert done[("POST", "/tables/{id}/commands")] >= 10  # and played
    assert done[("PUSH", "POST command -> seat view received")] >= 1  # views pushed to seats
    assert done[("GET", "/tables/{id}/stream")] >= 1
    assert not any("{" not in name and re.search(r"/[0-9a-f]{16}", name) for _, name in stats)

    failures = rows(tmp_path / "load_failures.csv")
    unexpected = [
        f
        for f in failures
        if not ((m := re.match(r"HTTP (\d+)", f["Error"])) and int(m[1]) in EXPECTED)
    ]
    assert unexpected == [], failures
    assert rows(tmp_path / "load_exceptions.csv") == []
