"""The reference web client (``services/table/web/``): static files served by the table service
itself, no build step. ``/`` is the lobby, ``/play/{id}`` a seat, ``/watch/{id}`` a spectator's
table, ``/replay/{id}`` a finished game step by step; each is the same page, which reads its path
and uses only the public API. None of it is in the OpenAPI document."""

from __future__ import annotations

from pathlib import Path

from litestar import Response, get
from litestar.static_files import create_static_files_router

FILES = Path(__file__).resolve().parent / "web"
PAGE = (FILES / "index.html").read_bytes()
# the page runs only its own script and talks only to this server; it is never framed
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def _page() -> Response[bytes]:
    return Response(PAGE, media_type="text/html; charset=utf-8", headers=HEADERS)


@get("/", include_in_schema=False, sync_to_thread=False)
def lobby_page() -> Response[bytes]:
    return _page()


@get(
    ["/play/{table_id:str}", "/watch/{table_id:str}", "/replay/{table_id:str}"],
    include_in_schema=False,
    sync_to_thread=False,
)
def table_page(table_id: str) -> Response[bytes]:
    return _page()  # the edge's guard answered 404 already for an id not of the server's form


ROUTES = [
    lobby_page,
    table_page,
    create_static_files_router(path="/web", directories=[FILES], include_in_schema=False),
]
