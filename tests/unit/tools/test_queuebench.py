"""The matching bench (tools/queuebench.py) writes each queue size's round, the tables it made and
the quiet round after (nothing timed here: the figures are docs/benchmarks.md's)."""

from __future__ import annotations

import json

from tools.queuebench import main


def test_the_bench_writes_each_sizes_round(tmp_path, capsys):
    out = tmp_path / "queue.json"
    assert main(["--sizes", "40,200", "--rounds", "1", "--out", str(out)]) == 0
    got = json.loads(out.read_text())["matching_round"]
    assert set(got) == {"40", "200"}
    for size, figures in got.items():
        assert figures["median_ms"] >= 0 and 0 < figures["tables"] <= int(size) // 4
        assert 0 <= figures["quiet_waiting"] < int(size)
    assert json.loads(capsys.readouterr().out) == {"matching_round": got}
