"""How a service is doing: ``/healthz`` (the process is up), ``/readyz`` (NATS and Redis
reachable, the durable consumers it depends on caught up within a bound) and ``/metrics``.

Every service serves them on the operators' port, one of its own (``serve``:
``GCBC_METRICS_PORT``); the table service also answers ``/healthz`` on its API port
(``services.table.monitoring``), with the same facts.
Checks go through the ports (``LogAdmin.group``, ``ModelAdmin.ping``), answered from a cache for a
second so probes never load the servers.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import msgspec

from gcbc.eventlog.port import LogAdmin, LogUnavailable
from gcbc.readmodel.port import ModelAdmin, ModelUnavailable
from services.common import metrics

log = logging.getLogger("gcbc.health")
READY_LAG = float(os.environ.get("GCBC_READY_LAG", "10"))  # seconds a consumer may be behind
CHECK_TIMEOUT = 2.0


class Readiness:
    """``check()``: (ready, {what: "ok" or why not}). ``groups``: the durable consumers to be
    caught up within ``lag`` seconds (their lag also goes to the metrics)."""

    def __init__(
        self,
        events: LogAdmin,
        model: ModelAdmin | None = None,
        groups: tuple[str, ...] = (),
        lag: float = READY_LAG,
        ttl: float = 1.0,
    ) -> None:
        self.events, self.model, self.groups, self.lag, self.ttl = events, model, groups, lag, ttl
        self._last: tuple[float, bool, dict[str, str]] | None = None
        self._lock = asyncio.Lock()

    async def check(self) -> tuple[bool, dict[str, str]]:
        async with self._lock:
            now = time.monotonic()
            if self._last is not None and now - self._last[0] < self.ttl:
                return self._last[1], self._last[2]
            facts = await self._check()
            ready = all(v == "ok" for v in facts.values())
            self._last = (now, ready, facts)
            return ready, facts

    async def _check(self) -> dict[str, str]:
        facts: dict[str, str] = {}
        now = time.time()
        nats_ok = True
        for name in self.groups or ("",):
            try:
                g = await asyncio.wait_for(self.events.group(name or "-"), CHECK_TIMEOUT)
            except (LogUnavailable, TimeoutError) as e:
                facts["nats"] = f"unreachable: {e or 'no answer'}"
                nats_ok = False
                break
            if not name:
                continue
            if g is None:
                facts[f"consumer {name}"] = "missing (its service has not started)"
                continue
            behind = g.lag_seconds(now)
            metrics.CONSUMER_LAG.labels(name).set(g.lag)
            metrics.CONSUMER_LAG_SECONDS.labels(name).set(behind)
            facts[f"consumer {name}"] = (
                "ok" if behind <= self.lag else f"{behind:.1f} s behind ({g.lag} entries)"
            )
        if nats_ok:
            facts["nats"] = "ok"
        if self.model is not None:
            try:
                await asyncio.wait_for(self.model.ping(), CHECK_TIMEOUT)
                facts["redis"] = "ok"
            except (ModelUnavailable, TimeoutError) as e:
                facts["redis"] = f"unreachable: {e or 'no answer'}"
        return facts


_encode = msgspec.json.Encoder().encode


def _asgi(readiness: Readiness) -> Callable[..., Awaitable[None]]:
    """/healthz, /readyz, /metrics: a plain ASGI app (uvicorn serves it)."""

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        path = scope.get("path", "")
        if path == "/healthz":
            status, body, kind = 200, b'{"status":"up"}', "application/json"
        elif path == "/readyz":
            ready, facts = await readiness.check()
            status = 200 if ready else 503
            body = _encode({"ready": ready, "checks": facts})
            kind = "application/json"
        elif path == "/metrics":
            body, kind = metrics.exposition()
            status = 200
        else:
            status, body, kind = 404, b'{"status":"not found"}', "application/json"
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [(b"content-type", kind.encode()), (b"cache-control", b"no-store")],
            }
        )
        await send({"type": "http.response.body", "body": body})

    return app


def metrics_port(default: int) -> int:
    """``GCBC_METRICS_PORT`` (0: no metrics server)."""
    return int(os.environ.get("GCBC_METRICS_PORT", str(default)))


@contextlib.asynccontextmanager
async def serve(readiness: Readiness, port: int) -> AsyncIterator[None]:
    """The metrics and health endpoints on ``port`` while the block runs (0: none). A port
    that cannot be had is logged: the service runs on without them."""
    if not port:
        yield
        return
    import uvicorn

    class Server(uvicorn.Server):
        @contextlib.contextmanager
        def capture_signals(self):  # type: ignore[no-untyped-def,override]
            yield  # the service's own runner handles SIGINT/SIGTERM

    host = os.environ.get("GCBC_METRICS_HOST", "127.0.0.1")
    try:
        sock = _shared_socket(host, port)
    except OSError as e:
        log.error("no metrics server on %s:%d: %s", host, port, e)
        yield
        return
    config = uvicorn.Config(
        _asgi(readiness),
        host=host,
        port=port,
        log_level="warning",
        lifespan="off",
        access_log=False,
    )
    server = Server(config)

    async def run() -> None:
        try:
            await server.serve(sockets=[sock])
        except (SystemExit, OSError) as e:  # uvicorn exits when it cannot bind
            log.error("no metrics server on %s:%d: %s", host, port, e)

    task = asyncio.create_task(run())
    await asyncio.sleep(0)
    log.info("metrics and health on http://%s:%d (/metrics, /healthz, /readyz)", host, port)
    try:
        yield
    finally:
        server.should_exit = True
        with contextlib.suppress(Exception):
            await asyncio.wait_for(task, 3)
        sock.close()


def _shared_socket(host: str, port: int) -> socket.socket:
    """The port, shared with this service's other processes on the machine (several
    table-service processes serve one API port, and each its operators' endpoints)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if hasattr(socket, "SO_REUSEPORT"):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    return sock


async def watch_lag(
    events: LogAdmin, group: str, stop: asyncio.Event, logger: logging.Logger, every: float = 5.0
) -> None:
    """Keep the consumer's lag in the metrics; while it is far behind (a restart, a backlog),
    say how far it is, with a rate and an estimate."""
    before: tuple[float, int] | None = None
    while not stop.is_set():
        try:
            g = await events.group(group)
        except Exception as e:  # noqa: BLE001  (NATS away: the readiness says so)
            logger.debug("lag check failed: %s", e)
            g = None
        if g is not None:
            now = time.time()
            metrics.CONSUMER_LAG.labels(group).set(g.lag)
            metrics.CONSUMER_LAG_SECONDS.labels(group).set(g.lag_seconds(now))
            if g.lag > 1000:
                rate = 0.0
                if before is not None and now > before[0]:
                    rate = (g.acked - before[1]) / (now - before[0])
                left = f"about {g.lag / rate:.0f} s left" if rate > 0 else "estimating"
                logger.info(
                    "catching up: %d entries behind (%.0f entries/s, %s)",
                    g.lag,
                    rate,
                    left,
                    extra={"consumer": group},
                )
            before = (now, g.acked)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), every)
