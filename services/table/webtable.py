"""The reference web client: its pages (``services/table/pages/``) served only at their routes,
its scripts and styles (``services/table/web/``) under ``/web``, all by the table service itself,
no build step. ``/`` is the lobby, ``/play/{id}`` a seat, ``/watch/{id}`` a spectator's table,
``/replay/{id}`` a finished game step by step; each is the same page, which reads its path and
uses only the public API. None of it is in the OpenAPI document."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Annotated, NamedTuple

from litestar import HttpMethod, MediaType, Request, Response, get, route
from litestar.exceptions import NotFoundException
from litestar.params import PathParameter

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


_TYPES = {".js": "text/javascript", ".css": "text/css", ".json": "application/json"}  # (UTF-8)


class Asset(NamedTuple):
    data: bytes
    media_type: str
    etag: str


def _assets() -> dict[str, Asset]:
    """Every script, style and catalogue, read once (a page's every asset would otherwise be
    read from the disk at each view), with its ETag (its content's digest)."""
    out = {}
    for path in sorted(FILES.rglob("*")):
        name = path.relative_to(FILES).as_posix()
        if path.is_file() and _ASSET.fullmatch(name):
            data = path.read_bytes()
            etag = '"' + hashlib.sha256(data).hexdigest()[:20] + '"'
            out[name] = Asset(data, _TYPES[path.suffix], etag)
    return out


ASSETS = _assets()


@route(
    "/web/{name:path}",
    http_method=[HttpMethod.GET, HttpMethod.HEAD],
    include_in_schema=False,
    sync_to_thread=False,
)
def asset(
    name: Annotated[str, PathParameter(description="the asset's path")], request: Request
) -> Response[bytes]:
    """An asset; 304 to a browser that has it (each use asks again, as the names carry no
    version: a new deployment is seen at once). A script or a style is taken only as the type
    it is served as."""
    got = ASSETS.get(name.removeprefix("/"))
    if got is None:
        raise NotFoundException()
    headers = {"ETag": got.etag, "Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"}
    if got.etag in request.headers.get("if-none-match", ""):
        return Response(b"", status_code=304, headers=headers)
    body = b"" if request.method == HttpMethod.HEAD else got.data
    headers["Content-Length"] = str(len(got.data))
    return Response(body, media_type=got.media_type, headers=headers)


ROUTES = [lobby_page, table_page, asset]
