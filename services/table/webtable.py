"""The reference web client: its pages (``services/table/pages/``) served only at their routes,
its scripts and styles (``services/table/web/``) under ``/web``, all by the table service itself,
no build step. ``/`` is the lobby, ``/play/{id}`` a seat, ``/watch/{id}`` a spectator's table,
``/replay/{id}`` a finished game step by step; each is the same page, which reads its path and
uses only the public API. None of it is in the OpenAPI document."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated

from litestar import MediaType, Request, Response, get
from litestar.exceptions import NotFoundException
from litestar.params import PathParameter
from litestar.static_files import create_static_files_router

HERE = Path(__file__).resolve().parent
FILES = HERE / "web"  # scripts and styles only: a page served from here would lack its headers
PAGES = HERE / "pages"
PAGE = (PAGES / "index.html").read_bytes()
# every page (these and the API's documentation) runs only this server's scripts and styles,
# talks only to this server and is never framed: a seat's token lives in this origin's storage
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; base-uri 'none';"
    " form-action 'self'; frame-ancestors 'none'",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def page(content: bytes) -> Response[bytes]:
    return Response(content, media_type=MediaType.HTML, headers=HEADERS)


@get("/", include_in_schema=False, sync_to_thread=False)
def lobby_page() -> Response[bytes]:
    return page(PAGE)


@get(
    ["/play/{table_id:str}", "/watch/{table_id:str}", "/replay/{table_id:str}"],
    include_in_schema=False,
    sync_to_thread=False,
)
def table_page(
    table_id: Annotated[str, PathParameter(description="the table's id")],
) -> Response[bytes]:
    return page(PAGE)  # the edge's guard answered 404 already for an id not of the server's form


# a script's, a style's or a catalogue's name, at most one folder down: anything else (a NUL
# byte, a name too long, a path past a file) is no file here, and never reaches the file system
_ASSET = re.compile(r"[A-Za-z0-9_-]{1,40}(/[A-Za-z0-9_-]{1,40})?\.(js|css|json)")


def _only_assets(request: Request) -> None:
    if not _ASSET.fullmatch(request.url.path.removeprefix("/web/")):
        raise NotFoundException()


def _nosniff(response: Response) -> Response:
    """A script or a style is taken only as the type it is served as."""
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


ROUTES = [
    lobby_page,
    table_page,
    create_static_files_router(
        path="/web",
        directories=[FILES],
        include_in_schema=False,
        before_request=_only_assets,
        after_request=_nosniff,
    ),
]
