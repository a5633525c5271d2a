"""The web client's pages and the API's documentation (services/table/webtable.py, apidocs.py): every
page is served only at its route, each with the same security headers, and loads only files this
server serves itself. In-process (no lifespan: pages need neither NATS nor Redis)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from litestar.testing import TestClient
from swagger_ui_bundle import swagger_ui_path

from services.common.settings import Settings
from services.table import apidocs, webtable
from services.table.app import create_app

TABLE = "0123456789abcdef"
SWAGGER = Path(swagger_ui_path).name  # the packaged copy: swagger-ui-<version>
PAGES = ["/", f"/play/{TABLE}", f"/watch/{TABLE}", f"/replay/{TABLE}", "/schema", "/schema/swagger"]
# the pages' files by their own paths, and the documentation UIs that loaded a third party's code
NOT_PAGES = [
    "/web/index.html",
    "/web/",
    "/web",
    "/pages/index.html",
    "/web/../pages/index.html",
    "/web/%2e%2e/pages/index.html",
    "/schema/redoc",
    "/schema/elements",
    "/schema/rapidoc",
    "/schema/oauth2-redirect.html",
    f"/schema/{SWAGGER}/index.html",
    f"/schema/{SWAGGER}/swagger-initializer.js",
    f"/schema/{SWAGGER}/oauth2-redirect.html",
]
LOADS = re.compile(r'(?:src|href)="([^"]*)"')


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    # never entered as a context: that would run the lifespan, which connects to NATS and Redis
    yield TestClient(create_app(Settings()))


def test_every_page_carries_the_same_security_headers(client):
    for path in PAGES:
        r = client.get(path)
        assert r.status_code == 200, path
        assert r.headers["content-type"] == "text/html; charset=utf-8", path
        for name, value in webtable.HEADERS.items():
            assert r.headers.get(name) == value, (path, name)
    policy = webtable.HEADERS["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert "unsafe" not in policy and "http" not in policy  # no inline code, no other host


def test_pages_are_served_only_at_their_routes(client):
    for path in NOT_PAGES:
        r = client.get(path)
        assert r.status_code == 404, path
        assert r.headers["content-type"] == "application/problem+json", path
        assert r.json()["code"] == "not_found", path
    # a page put among the static files would be served there without its headers
    assert not [f.name for f in webtable.FILES.iterdir() if f.suffix in (".html", ".htm")]


def test_every_page_loads_only_files_this_server_serves(client):
    for path in PAGES:
        loads = LOADS.findall(client.get(path).text)
        assert loads, path
        for url in loads:
            assert url.startswith("/") and not url.startswith("//"), (path, url)
            got = client.get(url)
            assert got.status_code == 200, (path, url)
            if url.startswith("/web/"):  # taken only as the type it is served as
                assert got.headers.get("x-content-type-options") == "nosniff", url
    assets = client.get(f"/schema/{SWAGGER}/swagger-ui-bundle.js")
    assert assets.headers["content-type"] == "text/javascript; charset=utf-8"
    assert "immutable" in assets.headers["cache-control"]  # its path names its version


def test_a_path_that_names_no_asset_is_a_404_never_a_500(client):
    """A NUL byte, a name too long, a path past a file: refused before the file system."""
    for path in ("/web/app.js%00", "/web/" + "a" * 300, "/web/app.js/x", "/web/" + "a/" * 300):
        for method in ("GET", "HEAD"):
            r = client.request(method, path)
            assert r.status_code == 404, (method, path)
    assert client.get("/web/i18n/en.json").status_code == 200  # one folder down: served


def test_an_asset_is_served_from_memory_and_not_sent_again_to_a_browser_that_has_it(client):
    """Before: every page view read every script, style and catalogue from the disk again (1.4
    ms each, 5x a page) and sent it whole, ETag or not."""
    r = client.get("/web/app.js")
    assert r.status_code == 200 and r.content == (webtable.FILES / "app.js").read_bytes()
    assert r.headers["content-type"] == "text/javascript; charset=utf-8"
    assert r.headers["cache-control"] == "no-cache" and r.headers["etag"]
    again = client.get("/web/app.js", headers={"If-None-Match": r.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    assert again.headers["etag"] == r.headers["etag"]
    assert client.get("/web/app.js", headers={"If-None-Match": '"other"'}).status_code == 200
    head = client.head("/web/style.css")
    assert head.status_code == 200 and head.content == b""
    assert head.headers["content-type"] == "text/css; charset=utf-8"
    assert client.get("/web/i18n/it.json").headers["content-type"] == "application/json"


def test_the_api_docs_large_files_are_sent_gzipped_to_a_client_that_takes_it(client):
    """The documentation's 1.5 MB script counts against its reader's requests by its bytes: a
    browser (which takes gzip) is sent a quarter of them; a client that does not take it, or
    refuses it (q=0), the file itself; either way the answer says it varies on it. Until the app's
    start has gzipped it (off the event loop), the file itself: no request waits for that."""
    path = f"/schema/{SWAGGER}/swagger-ui-bundle.js"
    plain = (Path(swagger_ui_path) / "swagger-ui-bundle.js").read_bytes()
    made = dict(apidocs._gzipped)
    apidocs._gzipped.clear()
    try:
        r = client.get(path, headers={"Accept-Encoding": "gzip"})
        assert "content-encoding" not in r.headers and r.content == plain  # not made yet
    finally:
        apidocs._gzipped.update(made)
    asyncio.run(apidocs.prepare([], {}))  # (as the app's start does, off the event loop)
    for taken in ("gzip, deflate, br", "br;q=1.0, gzip;q=0.5", "GZIP"):
        r = client.get(path, headers={"Accept-Encoding": taken})
        assert r.headers["content-encoding"] == "gzip", taken
        assert r.content == plain and r.num_bytes_downloaded < len(plain) / 3, taken
        assert r.headers["vary"] == "accept-encoding"
    for refused in ("identity", "gzip;q=0", "br"):
        r = client.get(path, headers={"Accept-Encoding": refused})
        assert "content-encoding" not in r.headers and r.content == plain, refused
        assert r.num_bytes_downloaded == len(plain) and r.headers["vary"] == "accept-encoding"
    assert "content-encoding" not in client.get(f"/schema/{SWAGGER}/favicon-32x32.png").headers
