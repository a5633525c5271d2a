"""Cross-origin browsers (docs/api.md, "Cross-origin browsers"): public reads are open to every
origin (``Access-Control-Allow-Origin: *``: the lobby, public views and streams, finished games'
histories and replays, the API document, the problem pages); writes and requests that carry a
seat's token get no permissive preflight, so a browser sends them only from the origins an
operator lists (``GCBC_CORS_ORIGINS``, Litestar's CORS configuration)."""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote_plus

from litestar.config.cors import CORSConfig
from litestar.datastructures import Headers, MutableScopeHeaders
from litestar.middleware import ASGIMiddleware
from litestar.types import ASGIApp, Receive, Scope, Send

from services.common.settings import Settings

# the routes a GET reads without a token (a view or stream without one is the public one)
PUBLIC_READS = frozenset(
    {
        "/tables",
        "/lobby/stream",
        "/tables/{table_id}",
        "/tables/{table_id}/view",
        "/tables/{table_id}/stream",
        "/tables/{table_id}/history",
        "/tables/{table_id}/replay",
        "/schema/openapi.json",
        "/schema/openapi.yaml",
        "/problems",
        "/problems/{code}",
    }
)
READS = ("GET", "HEAD")
# what a public read's preflight may ask for: an EventSource's reconnection, content types
SAFE_HEADERS = frozenset({"accept", "last-event-id", "cache-control"})
OPEN = [
    (b"access-control-allow-origin", b"*"),
    (b"access-control-expose-headers", b"Link, Retry-After"),
]
PREFLIGHT = [
    (b"access-control-allow-origin", b"*"),
    (b"access-control-allow-methods", b"GET, HEAD"),
    (b"access-control-allow-headers", b"Last-Event-ID"),
    (b"access-control-max-age", b"600"),
    (b"content-length", b"0"),
]


def operators(settings: Settings) -> CORSConfig | None:
    """The origins an operator allows for everything, writes and tokens too (none by default)."""
    if not settings.cors_origins:
        return None
    return CORSConfig(
        allow_origins=list(settings.cors_origins),
        allow_methods=["GET", "POST", "DELETE"],
        allow_headers=["Authorization", "Content-Type", "Last-Event-ID"],
        expose_headers=["Link", "Retry-After"],
    )


def _public(scope: Scope, headers: Headers) -> bool:
    """A read of public data: a public route, without a token or a stream ticket (its key read
    as the handler reads it: percent-encoded, ``%74icket`` is a ticket too)."""
    return (
        scope.get("path_template") in PUBLIC_READS
        and "authorization" not in headers
        and not _has_ticket(scope.get("query_string", b""))
    )


def _has_ticket(query: bytes) -> bool:
    """Whether a key of the query reads ``ticket``: only keys that are escaped are decoded (every
    public read passes here, so a long query costs a split, not a parse of each field)."""
    for field in query.split(b"&"):
        key = field.split(b"=", 1)[0]
        if key == b"ticket" or (
            (b"%" in key or b"+" in key) and unquote_plus(key.decode("latin-1")) == "ticket"
        ):
            return True
    return False


def _public_preflight(scope: Scope, headers: Headers) -> bool:
    asked = headers.get("access-control-request-headers", "")
    return (
        "origin" in headers
        and headers.get("access-control-request-method", "").upper() in READS
        and {h.strip().lower() for h in asked.split(",") if h.strip()} <= SAFE_HEADERS
        and _public(scope, headers)
    )


class PublicReads(ASGIMiddleware):
    """``Access-Control-Allow-Origin: *`` on public reads (their problems too), and their
    preflights answered; nothing for any other request."""

    async def handle(self, scope: Scope, receive: Receive, send: Send, next_app: ASGIApp) -> None:
        if scope["type"] != "http":
            await next_app(scope, receive, send)
            return
        method = scope.get("method", "")
        headers = Headers.from_scope(scope)
        if method == "OPTIONS" and _public_preflight(scope, headers):
            await send({"type": "http.response.start", "status": 204, "headers": PREFLIGHT})
            await send({"type": "http.response.body", "body": b""})
            return
        if method not in READS or not _public(scope, headers):
            await next_app(scope, receive, send)
            return

        async def opened(message: Any) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                sent = MutableScopeHeaders.from_message(message=message)
                if "access-control-allow-origin" not in sent:  # an operator's origin answered
                    message["headers"] = [*message["headers"], *OPEN]
            await send(message)

        await next_app(scope, receive, opened)
