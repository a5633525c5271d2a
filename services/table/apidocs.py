"""The API's documentation at ``/schema``: Swagger UI from a pinned package (swagger-ui-bundle-v2,
the upstream release's dist files unchanged) served by the table service itself under the same
headers as the web client's pages, beside the document at ``/schema/openapi.json`` (and
``.yaml``). No other documentation UI, and nothing loaded from anywhere else."""

from __future__ import annotations

import asyncio
import gzip
from functools import cache
from pathlib import Path
from typing import Any

import msgspec
import yaml
from litestar import MediaType, Request, Response, Router, get
from litestar.datastructures import CacheControlHeader
from litestar.openapi.plugins import JsonRenderPlugin, OpenAPIRenderPlugin, YamlRenderPlugin
from litestar.params import FromPath
from litestar.serialization import encode_json
from swagger_ui_bundle import swagger_ui_path

from services.table.problems import ApiError, problem
from services.table.webtable import HEADERS, PAGES

SWAGGER = Path(swagger_ui_path)  # its folder's name carries the version: swagger-ui-5.31.0
# the only files of the package the page loads; the package's own index.html and its initializer
# load a third party's document, so they are never served
ASSETS = {
    "swagger-ui-bundle.js": "text/javascript",
    "swagger-ui.css": MediaType.CSS,
    "favicon-32x32.png": "image/png",
}
PAGE = (PAGES / "schema.html").read_text().replace("{swagger}", SWAGGER.name).encode()


# the large files, also sent gzipped to a client that takes it, once made off the event loop as
# the app starts (until then sent as they are): each answer's bytes count against its client's
# requests, and these are the largest answers the server gives
GZIPPED = ("swagger-ui-bundle.js", "swagger-ui.css")
_gzipped: dict[str, bytes] = {}


@cache
def _asset(name: str) -> bytes:
    return (SWAGGER / name).read_bytes()


def _gzip(name: str) -> None:
    _gzipped[name] = gzip.compress(_asset(name), 9, mtime=0)


def _takes_gzip(accept_encoding: str) -> bool:
    """Whether an Accept-Encoding header takes gzip (RFC 9110: ``gzip;q=0`` refuses it)."""
    for coding in accept_encoding.lower().split(","):
        name, _, parameters = coding.partition(";")
        if name.strip() in ("gzip", "x-gzip"):
            q = parameters.strip().removeprefix("q=").strip() if parameters else "1"
            try:
                return float(q) > 0
            except ValueError:
                return False
    return False


# the version is in the path, so a browser keeps each file until the package changes
@get(
    f"/{SWAGGER.name}/{{name:str}}",
    include_in_schema=False,
    sync_to_thread=False,
    cache_control=CacheControlHeader(max_age=31_536_000, public=True, immutable=True),
)
def swagger_asset(name: FromPath[str], request: Request) -> Response[bytes]:
    media_type = ASSETS.get(name)
    if media_type is None:
        raise ApiError(404, "not_found", "there is no such file")
    if name not in GZIPPED:
        return Response(_asset(name), media_type=media_type)
    headers = {"vary": "accept-encoding"}
    gzipped = _gzipped.get(name)
    if gzipped is not None and _takes_gzip(request.headers.get("accept-encoding", "")):
        headers["content-encoding"] = "gzip"
        return Response(gzipped, media_type=media_type, headers=headers)
    return Response(_asset(name), media_type=media_type, headers=headers)


class SwaggerPage(OpenAPIRenderPlugin):
    """The page at ``/schema`` (and ``/schema/swagger``): static, it fetches the document."""

    def __init__(self) -> None:
        super().__init__(path=["/", "/swagger"])

    def render(self, request: Request, openapi_schema: dict[str, Any]) -> bytes:
        return PAGE

    def receive_router(self, router: Router) -> None:
        router.register(swagger_asset)


class _RenderedOnce(OpenAPIRenderPlugin):
    """A document rendered once per app (each app has plugins of its own): rendering it again for
    every request, with no token and no budget, would let anyone keep the event loop busy; and
    rendered as the app starts (``prepare``), off the event loop, so that no request waits for
    the first rendering either (PyYAML's dump of it is slow: docs/benchmarks.md)."""

    _made: bytes | None = None

    def render(self, request: Request, openapi_schema: dict[str, Any]) -> bytes:
        if self._made is None:
            self._made = super().render(request, openapi_schema)
        return self._made

    @staticmethod
    def rendered(openapi_schema: dict[str, Any]) -> bytes:
        """The document as ``render`` makes it for this app (whose handlers name no type
        encoders of their own), with no request."""
        raise NotImplementedError

    async def prepare(self, openapi_schema: dict[str, Any]) -> None:
        made = await asyncio.to_thread(self.rendered, openapi_schema)
        if self._made is None:
            self._made = made


class JsonDocument(_RenderedOnce, JsonRenderPlugin):
    @staticmethod
    def rendered(openapi_schema: dict[str, Any]) -> bytes:
        return encode_json(openapi_schema)


class YamlDocument(_RenderedOnce, YamlRenderPlugin):
    @staticmethod
    def rendered(openapi_schema: dict[str, Any]) -> bytes:
        plain = msgspec.to_builtins(openapi_schema)
        return yaml.dump(plain, default_flow_style=False).encode("utf-8")


def plugins() -> list[OpenAPIRenderPlugin]:
    """The pages and documents under /schema, new for each app."""
    return [SwaggerPage(), JsonDocument(), YamlDocument()]


async def prepare(plugins: list[OpenAPIRenderPlugin], openapi_schema: dict[str, Any]) -> None:
    """Render the app's documents, and gzip the large assets, before the first request asks for
    them (off the event loop)."""
    for plugin in plugins:
        if isinstance(plugin, _RenderedOnce):
            await plugin.prepare(openapi_schema)
    for name in GZIPPED:
        if name not in _gzipped:
            await asyncio.to_thread(_gzip, name)


def _unknown_is_a_problem(response: Response[Any]) -> Response[Any]:
    """Litestar answers an unknown path under /schema with an HTML page of its own; every other
    unknown path of this server answers problem+json."""
    if response.status_code == 404 and response.media_type == MediaType.HTML:
        return problem(404, "not_found", "there is no such page")
    return response


def router() -> Router:
    """A new router for each app (a router belongs to one): every answer under /schema carries
    the pages' headers."""
    return Router(
        "/schema",
        route_handlers=[],
        include_in_schema=False,
        response_headers=HEADERS,
        after_request=_unknown_is_a_problem,
    )
