"""The reference web client (issue 15) in a real browser: Debian's chromium driven by Playwright
(no browser download). A person creates a table with three house bots, plays their seat to the end
by clicking only what the page offers, a second page watches it live (never showing a face-down
card's identity), and the finished game is replayed step by step from a seat's point of view."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, sync_playwright

CHROMIUM = Path("/usr/bin/chromium")  # installed by make setup (deploy/ensure-chromium.sh)
FLAGS = [  # no network beyond this machine: Chromium's background services stay off
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
pytestmark = pytest.mark.timeout(600)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    assert CHROMIUM.exists(), "chromium is missing: make setup installs it (as root)"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=FLAGS)
        yield b
        b.close()


def status(page: Page) -> str:
    return page.locator(".status").inner_text(timeout=10_000)


def face_down_identities(page: Page) -> list[str]:
    """The text of every face-down card on the page that is not the bare '?', while the game
    is on (at the end every card is revealed, RULES §10), read in one go with the status."""
    return page.evaluate(
        """() => {
            const status = document.querySelector('.status')?.textContent || '';
            if (status.includes('finished')) return [];
            return [...document.querySelectorAll('.card:not(.up) .name')]
                .map(c => c.textContent).filter(t => t !== '?');
        }"""
    )


def test_create_play_watch_and_replay_a_table_in_the_browser(
    stack, browser: Browser, tmp_path: Path
):
    errors: list[str] = []
    page = browser.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{stack.api}/")
    page.get_by_role("heading", name="New table").wait_for()
    page.get_by_label("House bots").fill("3")
    page.get_by_label("Bot kind").select_option("heuristic")
    page.get_by_role("button", name="Create and sit down").click()
    page.wait_for_url("**/play/*")
    table_id = page.url.rsplit("/", 1)[-1]
    assert "token" not in page.url  # the token stays in the browser's storage

    watcher = browser.new_page(viewport={"width": 420, "height": 900})  # a narrow screen too
    watcher.on("pageerror", lambda e: errors.append(str(e)))
    watcher.goto(f"{stack.api}/watch/{table_id}")
    watcher.locator(".seat").first.wait_for()

    page.get_by_role("button", name="Start the game").click()
    page.wait_for_function("document.querySelector('.status')?.textContent.includes('playing')")
    clicks = 0
    shot = False
    for _ in range(3000):
        if "Status: finished" in status(page):
            break
        assert face_down_identities(watcher) == []
        commands = page.locator("button.cmd")
        if commands.count() == 0:
            page.wait_for_timeout(100)
            continue
        try:
            commands.first.click(timeout=2000)
            clicks += 1
        except Exception:  # the view changed under the click (a bot acted): look again
            continue
        if clicks == 12 and not shot:  # a table in play, for the README (GCBC_SCREENSHOT=path)
            shot = True
            path = os.environ.get("GCBC_SCREENSHOT") or str(tmp_path / "table-in-play.png")
            page.screenshot(path=path, full_page=True)
    assert "Status: finished" in status(page)
    assert clicks > 0
    watcher.wait_for_function("document.querySelector('.status')?.textContent.includes('finished')")
    assert "Winners" in status(watcher)
    public = httpx.get(f"{stack.api}/tables/{table_id}").json()
    assert public["status"] == "finished"

    replay = browser.new_page()
    replay.on("pageerror", lambda e: errors.append(str(e)))
    replay.goto(f"{stack.api}/replay/{table_id}")
    replay.get_by_text("step 1 of").wait_for()
    replay.get_by_role("button", name="Last ⏭").click()
    replay.locator(".status").get_by_text("Winners").wait_for()
    replay.get_by_label("whose view").select_option("0")
    replay.get_by_text("You: seat 0").wait_for()  # the seat's own view: its team, its hand
    replay.get_by_role("button", name="⏮ First").click()
    replay.get_by_text("step 1 of").wait_for()
    replay.get_by_role("button", name="Forward ▶").click()
    replay.get_by_text("step 2 of").wait_for()
    replay.keyboard.press("ArrowRight")
    replay.get_by_text("step 3 of").wait_for()
    replay.get_by_role("button", name="◀ Back").click()
    replay.get_by_text("step 2 of").wait_for()
    assert errors == []


def test_a_refused_command_shows_its_problem(stack, browser: Browser):
    page = browser.new_page()
    page.goto(f"{stack.api}/")
    page.get_by_label("House bots").fill("2")  # one seat stays free: the table cannot start
    page.get_by_role("button", name="Create and sit down").click()
    page.wait_for_url("**/play/*")
    page.get_by_role("button", name="Start the game").click()
    alert = page.get_by_role("alert")
    alert.get_by_text("seats_not_filled").wait_for()


def test_pages_and_assets_are_served_by_the_table_service(stack):
    with httpx.Client(base_url=stack.api) as http:
        for path in ("/", "/watch/0123456789abcdef", "/web/app.js", "/web/style.css"):
            r = http.get(path)
            assert r.status_code == 200, path
        assert "default-src 'self'" in http.get("/").headers["content-security-policy"]
        assert http.get("/watch/..%2F..").status_code == 404
        schema = http.get("/schema/openapi.json").json()
        assert "/" not in schema["paths"] and "/watch/{table_id}" not in schema["paths"]
