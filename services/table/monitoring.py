"""The table service's health and metrics: ``/healthz`` on the API (the process is up: a load
balancer's probe), and a middleware that counts requests by route and status and times them;
problem answers counted by code. ``/readyz`` and ``/metrics`` say more (consumers, lag,
connections) and are the operators': they are served on a port of their own
(``GCBC_METRICS_PORT``, ``services.common.operators``), as for the rules worker and the projection.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import msgspec
from litestar import MediaType, Request, Response, get, head
from litestar.middleware import ASGIMiddleware
from litestar.types import ASGIApp, Receive, Scope, Send

from services.common import metrics


@get("/healthz", include_in_schema=False, sync_to_thread=False)
def healthz() -> Response[bytes]:
    return Response(b'{"status":"up"}', media_type=MediaType.JSON)


@head("/healthz", include_in_schema=False, sync_to_thread=False)
def healthz_head() -> None:
    """Probes that ask with ``HEAD`` (many uptime monitors do): up, no body."""


ROUTES = [healthz, healthz_head]
_QUIET = {"/healthz"}  # probes: not counted


class HttpMetrics(ASGIMiddleware):
    """Requests by method, route (its template: no table ids in labels) and status; durations.
    Each label set's child metric is found once (prometheus_client's ``labels`` checks and locks
    at every call): a few routes, methods and statuses (Litestar answers an unknown path or a
    method a route does not take before any route's middleware, so a client cannot add keys)."""

    def __init__(self) -> None:
        super().__init__()
        self._counted: dict[tuple[str, str, int], Any] = {}
        self._timed: dict[tuple[str, str], Any] = {}

    async def handle(self, scope: Scope, receive: Receive, send: Send, next_app: ASGIApp) -> None:
        if scope["type"] != "http" or scope.get("path") in _QUIET:
            await next_app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def sending(message: Any) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await next_app(scope, receive, sending)
        finally:
            route = scope.get("path_template") or "unrouted"
            method = scope.get("method", "")
            counted = self._counted.get((method, route, status))
            if counted is None:
                counted = metrics.HTTP_REQUESTS.labels(method, route, str(status))
                self._counted[(method, route, status)] = counted
            counted.inc()
            timed = self._timed.get((method, route))
            if timed is None:
                timed = self._timed[(method, route)] = metrics.HTTP_SECONDS.labels(method, route)
            timed.observe(time.perf_counter() - started)


_problem = msgspec.json.Decoder(dict[str, Any])


def counted(handlers: dict[Any, Callable[..., Response]]) -> dict[Any, Callable[..., Response]]:
    """The problem handlers, each answer counted by its code."""

    def wrap(handler: Callable[..., Response]) -> Callable[..., Response]:
        def count(request: Request, exc: Exception) -> Response:
            response = handler(request, exc)
            try:
                code = _problem.decode(response.content).get("code", "unknown")
            except (msgspec.DecodeError, TypeError):
                code = "unknown"
            metrics.PROBLEMS.labels(str(code)).inc()
            return response

        return count

    return {kind: wrap(handler) for kind, handler in handlers.items()}
