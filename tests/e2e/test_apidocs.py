"""The API's documentation page (/schema) in a real browser (Debian's chromium driven by
Playwright): Swagger UI renders every operation from files this server serves itself, under the
web client's Content-Security-Policy, with every request to another host refused."""

from __future__ import annotations

import os
from collections.abc import Iterator
from urllib.parse import urlsplit

import httpx
import pytest
from playwright.sync_api import Browser, Route, sync_playwright

from tests.e2e.test_web_client import CHROMIUM, FLAGS

pytestmark = pytest.mark.timeout(300)
# every violation the page's policy reports, kept where the test can read it
WATCH_POLICY = """document.addEventListener("securitypolicyviolation", (e) => {
    (window.violations ||= []).push(`${e.violatedDirective} ${e.blockedURI}`);
});"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    assert CHROMIUM.exists(), "chromium is missing: make setup installs it (as root)"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=FLAGS)
        yield b
        b.close()


def test_the_docs_render_every_operation_from_this_server_alone(stack, browser: Browser):
    server = urlsplit(stack.api).netloc
    elsewhere: list[str] = []  # requests for any other host, refused

    def only_this_server(route: Route) -> None:
        if urlsplit(route.request.url).netloc == server:
            route.continue_()
        else:
            elsewhere.append(route.request.url)
            route.abort()

    context = browser.new_context()
    context.route("**/*", only_this_server)
    context.add_init_script(WATCH_POLICY)
    page = context.new_page()
    requested: list[str] = []
    errors: list[str] = []
    page.on("request", lambda r: requested.append(r.url))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    try:
        page.goto(f"{stack.api}/schema")
        document = httpx.get(f"{stack.api}/schema/openapi.json", timeout=30).json()
        operations = sum(len(methods) for methods in document["paths"].values())
        page.locator(".opblock").first.wait_for(timeout=30_000)
        assert page.locator(".opblock").count() == operations
        assert "Good Cop Bad Cop" in page.locator(".info .title").inner_text()
        if shot := os.environ.get("GCBC_DOCS_SCREENSHOT"):  # the page as a person sees it
            page.screenshot(path=shot)
        # an operation opened: its parameters and its answers' schemas render too
        lobby = page.locator(".opblock-get", has=page.locator("[data-path='/tables']"))
        lobby.locator(".opblock-summary").click()
        lobby.locator(".responses-table").first.wait_for(timeout=10_000)
        lobby.get_by_role("button", name="Try it out").click()
        lobby.get_by_role("button", name="Execute").click()
        answer = lobby.locator(".live-responses-table tbody .response-col_status")
        answer.wait_for(timeout=10_000)  # the request went to this server, which answered
        assert answer.inner_text().strip() == "200"
        violations = page.evaluate("window.violations || []")
    finally:
        context.close()
    assert elsewhere == []
    fetched = [u for u in requested if urlsplit(u).scheme != "data"]  # data: never leaves
    assert fetched and {urlsplit(u).netloc for u in fetched} == {server}, fetched
    assert violations == []
    assert errors == []
