"""The bench's no-op stack (tools/noop_rules.py through tools.launcher): the table service and the
rules worker started with the no-op rules answer a game command the real rules would refuse, and
the bench's load generator plays at it."""

from __future__ import annotations

import json

import httpx

from tools import bench, noop_rules
from tools.launcher import Stack


def test_the_noop_stack_answers_every_game_command_and_the_bench_plays_at_it(tmp_path, capsys):
    s = Stack(tmp_path, env=bench.BENCH_LIMITS, services=noop_rules.SERVICES).start()
    try:
        with httpx.Client(base_url=s.api, timeout=30) as http:
            table_id = http.post("/tables", json={"seats": 4}).json()["table_id"]
            tokens = [
                http.post(f"/tables/{table_id}/seats", json={"name": f"p{i}"}).json()["token"]
                for i in range(4)
            ]
            auth = [{"authorization": f"Bearer {t}"} for t in tokens]
            r = http.post(f"/tables/{table_id}/start", headers=auth[0])
            assert r.status_code == 200, r.text
            for seat in range(4):  # every seat passes, on its turn or not: nothing is checked
                r = http.post(
                    f"/tables/{table_id}/commands", json={"type": "pass"}, headers=auth[seat]
                )
                assert r.status_code == 200, r.text
        assert bench.main(["--api", s.api, "--noop", "--seconds", "1", "--tables", "2"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["noop"]["saturation"]["commands"] > 0
    finally:
        s.stop()
