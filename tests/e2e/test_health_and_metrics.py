"""How the system says how it is doing: /healthz and /readyz on the table service and
the same facts on the rules worker's and the projection's own port; Prometheus metrics of each
service; structured JSON logs."""

from __future__ import annotations

import json
import time

import httpx
from prometheus_client.parser import text_string_to_metric_families

from tests.e2e.conftest import auth, seated_table


def _metric(text: str, name: str, **labels: str) -> float:
    """The value of one sample in Prometheus's text format (0 if absent): read by
    prometheus_client's own parser, labels in any order."""
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name and all(sample.labels.get(k) == v for k, v in labels.items()):
                return sample.value
    return 0.0


def test_every_service_says_it_is_up_and_ready(stack):
    for name in ("table", "rules", "projection"):
        base = stack.metrics_url(name)
        assert httpx.get(f"{base}/healthz", timeout=10).json() == {"status": "up"}
        for _ in range(50):  # a consumer may still be starting
            r = httpx.get(f"{base}/readyz", timeout=10)
            if r.status_code == 200:
                break
            time.sleep(0.2)
        assert r.status_code == 200, (name, r.text)
        checks = r.json()["checks"]
        assert checks["nats"] == "ok"
        assert (checks.get("redis") == "ok") == (name != "rules")
    table_checks = httpx.get(f"{stack.metrics_url('table')}/readyz", timeout=10).json()["checks"]
    assert table_checks["consumer rules-worker"] == "ok"
    assert table_checks["consumer projection"] == "ok"


def test_the_metrics_count_commands_refusals_latencies_and_watchers(http, stack):
    table_id, tokens = seated_table(http)
    assert http.post(f"/tables/{table_id}/start", headers=auth(tokens[0])).status_code == 200
    refused = http.post(
        f"/tables/{table_id}/commands", headers=auth(tokens[2]), json={"type": "shoot"}
    )
    assert refused.status_code in (409, 422)
    with httpx.stream("GET", f"{stack.api}/tables/{table_id}/stream", timeout=10) as r:
        lines = r.iter_lines()  # kept: a collected iterator would close the stream
        for line in lines:
            if line.startswith("data:"):
                break
        table = httpx.get(f"{stack.metrics_url('table')}/metrics", timeout=10).text
        assert _metric(table, "gcbc_open_watchers", kind="sse") >= 1, [
            x for x in table.splitlines() if "watchers" in x
        ]
    assert (
        _metric(table, "gcbc_http_requests_total", method="POST", route="/tables", status="201")
        >= 1
    )
    assert _metric(table, "gcbc_http_problems_total", code=refused.json()["code"]) >= 1
    assert 'route="/tables/{table_id}/commands"' in table  # routes by template, never by table id
    assert table_id not in table
    rules = httpx.get(f"{stack.metrics_url('rules')}/metrics", timeout=10).text
    assert _metric(rules, "gcbc_commands_total", type="start", result="accepted") >= 1
    assert _metric(rules, "gcbc_append_to_answer_seconds_count") >= 1
    projection = httpx.get(f"{stack.metrics_url('projection')}/metrics", timeout=10).text
    assert _metric(projection, "gcbc_answer_to_views_seconds_count") >= 1
    assert _metric(projection, "gcbc_views_written_total") >= 1
    for text in (rules, projection):
        assert "gcbc_consumer_lag_entries" in text


def test_logs_are_json_lines(stack):
    lines = (stack.data_dir / "logs" / "rules.log").read_text().splitlines()
    parsed = [json.loads(x) for x in lines if x.startswith("{")]
    assert parsed and all({"time", "level", "service", "message"} <= set(x) for x in parsed)
    assert any("rules worker consuming" in x["message"] for x in parsed)


def _until(read, check, seconds: float = 10.0) -> str:
    """Scrape until ``check(text)`` holds (a deadline, a count refreshed every 2 s)."""
    end = time.monotonic() + seconds
    while True:
        text = read()
        if check(text) or time.monotonic() > end:
            return text
        time.sleep(0.2)


def test_deadlines_fired_autopilot_actions_and_tables_by_status(http, stack):
    fast = {"turn": 0.3, "reaction": 0.2, "prompt": 0.2, "arrange": 0.3}
    table_id, tokens = seated_table(http, deadlines=fast)
    rules_url = f"{stack.metrics_url('rules')}/metrics"
    before = _metric(httpx.get(rules_url, timeout=10).text, "gcbc_autopilot_actions_total")
    assert http.post(f"/tables/{table_id}/start", headers=auth(tokens[0])).status_code == 200
    # nobody plays: the waits expire, the rules worker says so and the autopilot acts
    rules = _until(
        lambda: httpx.get(rules_url, timeout=10).text,
        lambda t: _metric(t, "gcbc_autopilot_actions_total") > before,
    )
    assert _metric(rules, "gcbc_deadlines_fired_total", kind="deadline_passed") >= 1
    assert _metric(rules, "gcbc_commands_total", type="deadline_passed", result="accepted") >= 1
    assert _metric(rules, "gcbc_autopilot_actions_total") > before
    projection = _until(
        lambda: httpx.get(f"{stack.metrics_url('projection')}/metrics", timeout=10).text,
        lambda t: _metric(t, "gcbc_tables", status="playing") >= 1,
    )
    assert _metric(projection, "gcbc_tables", status="playing") >= 1
    assert _metric(projection, "gcbc_tables", status="lobby") >= 0


def test_an_anonymous_look_at_a_table_held_in_memory_reads_no_log(http, stack):
    """A spectator's view (and a token-less seat view) of a table the table service holds
    folded is answered from the read model alone: no round trip to the log per request (a crowd
    of spectators, or a client polling, would otherwise cost NATS one read each)."""
    table_id, tokens = seated_table(http)
    assert http.get(f"/tables/{table_id}").status_code == 200  # held since the seats were taken

    def reads() -> float:
        text = httpx.get(f"{stack.metrics_url('table')}/metrics", timeout=10).text
        return _metric(text, "gcbc_log_reads_total")

    def quiet(look, expected: int) -> bool:
        """True when some attempt of `look` cost exactly `expected` reads: the stack is shared by
        the worker's earlier tests, whose tables (house bots, deadlines) may read the log at any
        moment; a look that itself reads does so on every attempt."""
        for _ in range(10):
            before = reads()
            look()
            if reads() - before == expected:
                return True
        return False

    def anonymous_looks() -> None:
        for _ in range(5):
            assert http.get(f"/tables/{table_id}").status_code == 200
            assert http.get(f"/tables/{table_id}/view").status_code == 200

    assert quiet(anonymous_looks, 0)

    # a table it does not hold is still read once (to say 404 rightly)
    def look_at_a_missing_table() -> None:
        assert http.get("/tables/00000000000000ff").status_code == 404

    assert quiet(look_at_a_missing_table, 1)
    assert http.get(f"/tables/{table_id}/view", headers=auth(tokens[0])).status_code == 200
