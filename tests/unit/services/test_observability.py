"""How a service says how it is doing, without servers: JSON or text log lines with
their context, progress with a rate and an estimate, readiness from the ports' facts, and the
health and metrics endpoints of the rules worker and the projection."""

from __future__ import annotations

import asyncio
import json
import logging
import time

import httpx
import pytest

from gcbc.eventlog.port import GroupStatus, LogUnavailable
from gcbc.readmodel.port import ModelUnavailable
from services.common import logs, metrics, operators
from services.common.progress import ProgressLog


def _record(msg: str = "answered %s", *args: object, **extra: object) -> logging.LogRecord:
    record = logging.LogRecord("gcbc.rules", logging.INFO, __file__, 1, msg, args or ("x",), None)
    record.__dict__.update(extra)
    return record


def test_a_json_line_carries_the_context_that_applies():
    line = logs.JsonFormatter("rules worker").format(
        _record(table="abcd", seq=7, seat=2, command="shoot", unrelated="no")
    )
    got = json.loads(line)
    assert "\n" not in line
    assert {k: got[k] for k in ("level", "service", "logger", "message")} == {
        "level": "info",
        "service": "rules worker",
        "logger": "gcbc.rules",
        "message": "answered x",
    }
    assert (got["table"], got["seq"], got["seat"], got["command"]) == ("abcd", 7, 2, "shoot")
    assert "unrelated" not in got and "time" in got
    plain = json.loads(logs.JsonFormatter("table").format(_record()))
    assert not {"table", "seq", "seat", "command"} & set(plain)


def test_an_error_stays_on_its_one_line():
    try:
        raise ValueError("boom\nsecond line")
    except ValueError:
        import sys

        record = logging.LogRecord("x", logging.ERROR, __file__, 1, "failed", (), sys.exc_info())
    line = logs.JsonFormatter("table").format(record)
    assert "\n" not in line and "boom" in json.loads(line)["error"]


def test_text_for_a_terminal(monkeypatch):
    line = logs.TextFormatter("projection").format(_record(table="abcd", seq=3))
    assert "projection: answered x [table=abcd seq=3]" in line
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    try:
        monkeypatch.setenv("GCBC_LOG_FORMAT", "text")
        monkeypatch.setenv("GCBC_LOG_LEVEL", "debug")
        logs.setup("table")
        assert isinstance(root.handlers[0].formatter, logs.TextFormatter)
        assert root.level == logging.DEBUG
        monkeypatch.delenv("GCBC_LOG_FORMAT")
        monkeypatch.delenv("GCBC_LOG_LEVEL")
        logs.setup("table")
        assert isinstance(root.handlers[0].formatter, logs.JsonFormatter)
        assert root.level == logging.INFO
        # before: the bot worker logged a line per request it sent (ten a second)
        assert not logging.getLogger("httpx").isEnabledFor(logging.INFO)
    finally:
        root.handlers[:], _ = saved
        root.setLevel(saved[1])
        logging.getLogger("httpx").setLevel(logging.NOTSET)


def test_progress_says_how_far_with_a_rate_and_an_estimate(caplog):
    caplog.set_level(logging.INFO)
    progress = ProgressLog(logging.getLogger("t"), "folding tables", 100, every=0.0)
    progress.started -= 10  # ten seconds in
    progress.step(25)
    progress.finish()
    first, last = (r.getMessage() for r in caplog.records)
    assert first.startswith("folding tables: 25/100 tables (") and "about 30 s left" in first
    assert last.startswith("folding tables: 25 tables in 10.0 s")


class _Log:
    def __init__(self, groups: dict[str, GroupStatus], away: bool = False) -> None:
        self.groups, self.away = groups, away

    async def group(self, name: str) -> GroupStatus | None:
        if self.away:
            raise LogUnavailable("no servers available")
        return self.groups.get(name)


class _Model:
    def __init__(self, away: bool = False) -> None:
        self.away = away

    async def ping(self) -> None:
        if self.away:
            raise ModelUnavailable("connection refused")


def _check(events: _Log, model: _Model | None, groups: tuple[str, ...], lag: float = 10):
    return asyncio.run(operators.Readiness(events, model, groups, lag=lag).check())  # type: ignore[arg-type]


def test_ready_when_both_servers_answer_and_the_consumers_are_caught_up():
    now = time.time()
    groups = {
        "rules-worker": GroupStatus("rules-worker"),
        "projection": GroupStatus("projection", pending=3, oldest_at=now - 1),
    }
    ready, facts = _check(_Log(groups), _Model(), ("rules-worker", "projection"))
    assert ready and set(facts.values()) == {"ok"}
    assert set(facts) == {"nats", "redis", "consumer rules-worker", "consumer projection"}


@pytest.mark.parametrize(
    ("events", "model", "what", "why"),
    [
        (_Log({}, away=True), _Model(), "nats", "unreachable"),
        (
            _Log({"projection": GroupStatus("projection")}),
            _Model(away=True),
            "redis",
            "unreachable",
        ),
        (_Log({}), _Model(), "consumer projection", "missing"),
        (
            _Log(
                {"projection": GroupStatus("projection", pending=500, oldest_at=time.time() - 60)}
            ),
            _Model(),
            "consumer projection",
            "behind (500 entries)",
        ),
    ],
)
def test_not_ready_says_why(events, model, what, why):
    ready, facts = _check(events, model, ("projection",))
    assert not ready and why in facts[what], facts


def test_the_lag_goes_to_the_metrics():
    lagging = GroupStatus("projection", pending=40, ack_pending=2, oldest_at=time.time() - 5)
    _check(_Log({"projection": lagging}), None, ("projection",))
    assert metrics.CONSUMER_LAG.labels("projection")._value.get() == 42  # noqa: SLF001
    assert 4 < metrics.CONSUMER_LAG_SECONDS.labels("projection")._value.get() < 30  # noqa: SLF001


def test_the_workers_health_and_metrics_endpoints():
    readiness = operators.Readiness(_Log({}, away=True), None, ("rules-worker",))  # type: ignore[arg-type]
    app = operators._asgi(readiness)  # noqa: SLF001

    async def get(path: str) -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://worker") as client:
            return await client.get(path)

    async def all_three() -> list[httpx.Response]:
        return [await get(p) for p in ("/healthz", "/readyz", "/metrics", "/nothing")]

    up, ready, scraped, other = asyncio.run(all_three())
    assert up.status_code == 200 and up.json() == {"status": "up"}
    assert ready.status_code == 503 and ready.json()["checks"]["nats"].startswith("unreachable")
    assert scraped.status_code == 200 and "gcbc_commands_total" in scraped.text
    assert scraped.headers["content-type"].startswith("text/plain")
    assert other.status_code == 404


def test_a_commands_label_is_its_wire_tag():
    from gcbc_contract import commands as C

    assert metrics.kind_of(C.StartGame(seat=0, random_seed=1)) == "start"
    assert metrics.kind_of(C.DeadlinePassed(wait=3)) == "deadline_passed"
