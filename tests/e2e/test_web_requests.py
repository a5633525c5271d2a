"""The web table's own requests (services/table/web/api.js and its callers) in a real browser: a
page must never hammer the server or act twice. A lost stream is opened again after a backoff drawn
at random below a doubling ceiling (and after the server's Retry-After); a refusal that asking again
cannot change (the seat left, the token refused) stops it and forgets the seat; a command whose
outcome is unknown (503) is sent again with the same command_id; a second click, a second Enter or
a second submit while the first is on its way sends nothing; a join whose outcome is unknown keeps
the token its 503 carries, so the seat it may have taken is not lost."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, Request, Route, sync_playwright

from tests.e2e.test_web_client import CHROMIUM, FLAGS, Player, open_table, words

pytestmark = pytest.mark.timeout(300)
W = words("en")
UNKNOWN = {
    "type": "about:blank",
    "title": "Service Unavailable",
    "status": 503,
    "code": "outcome_unknown",
    "detail": "retry with the same command_id",
}


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=FLAGS)
        yield b
        b.close()


def requests_to(page: Page, part: str, method: str | None = None) -> list[Request]:
    """Every request the page makes from now on whose URL has ``part`` (and of ``method``)."""
    seen: list[Request] = []
    page.on(
        "request",
        lambda r: seen.append(r) if part in r.url and method in (None, r.method) else None,
    )
    return seen


def started_table(player: Player, api: str) -> tuple[Page, str]:
    page, table_id = open_table(player, api)
    page.get_by_role("button", name=W["cmd.start"]).click()
    page.locator('.status[data-status="playing"]').wait_for()
    return page, table_id


def test_backoff_is_drawn_below_a_ceiling_that_doubles_to_a_minute(stack, browser: Browser):
    player = Player(browser, "en", 1280)
    try:
        page = player.page(f"{stack.api}/")
        got = page.evaluate(
            """async () => {
                const { backoff } = await import("/web/api.js");
                const many = (f) => Array.from({ length: 200 }, f);
                return {
                    third: many(() => backoff(3)),
                    late: Math.max(...many(() => backoff(40))),
                    asked: Math.min(...many(() => backoff(1, 5))),
                };
            }"""
        )
    finally:
        player.close()
    assert all(0 <= d < 8000 for d in got["third"])  # below 2^3 s
    assert len(set(got["third"])) > 150  # drawn: pages that failed together come back apart
    assert max(got["third"]) > 4000  # and the ceiling did double
    assert got["late"] <= 60_000
    assert got["asked"] >= 5000  # never sooner than Retry-After


def test_leaving_a_waiting_table_forgets_the_seat_and_stops_asking(stack, browser: Browser):
    player = Player(browser, "en", 1280)
    try:
        page, table_id = open_table(player, stack.api)
        page.get_by_role("button", name=W["cmd.leave"]).click()
        page.get_by_text(W["play.no_seat"]).wait_for(timeout=10_000)
        assert page.evaluate(f"localStorage.getItem('gcbc:seat:{table_id}')") is None
        page.wait_for_timeout(500)
        asked = requests_to(page, f"/tables/{table_id}/")
        page.wait_for_timeout(5000)
        assert [r.url for r in asked] == []  # no ticket, no stream: the seat is gone
        assert player.errors == []
    finally:
        player.close()


def test_a_refused_ticket_stops_the_stream_and_forgets_the_seat(stack, browser: Browser):
    player = Player(browser, "en", 1280)
    try:
        page, table_id = open_table(player, stack.api)
        page.locator(".status").wait_for()
        tickets = requests_to(page, "/tickets")
        refused = {**UNKNOWN, "status": 401, "code": "bad_token", "detail": "token replaced"}
        page.route(
            "**/tickets",
            lambda route: route.fulfill(
                status=401, content_type="application/problem+json", body=json.dumps(refused)
            ),
        )
        page.reload()
        page.get_by_text(W["play.no_seat"]).wait_for(timeout=10_000)
        page.wait_for_timeout(5000)
        assert len(tickets) == 1  # asked once: a refused token is not asked about again
        assert page.evaluate(f"localStorage.getItem('gcbc:seat:{table_id}')") is None
    finally:
        player.close()


def test_an_unknown_outcome_is_sent_again_with_the_same_command_id(stack, browser: Browser):
    player = Player(browser, "en", 1280)
    try:
        page, _ = started_table(player, stack.api)
        sent: list[str] = []

        def first_unknown(route: Route) -> None:
            sent.append(route.request.post_data_json["command_id"])
            if len(sent) == 1:  # as if the log's answer were lost on the way
                route.fulfill(
                    status=503,
                    headers={"Retry-After": "0"},
                    content_type="application/problem+json",
                    body=json.dumps(UNKNOWN),
                )
            else:
                route.continue_()

        page.route("**/commands", first_unknown)
        toggle = page.locator("[data-key=auto-pass]")
        assert toggle.get_attribute("aria-pressed") == "false"
        toggle.click()
        page.locator('[data-key=auto-pass][aria-pressed="true"]').wait_for(timeout=10_000)
        assert len(sent) == 2 and sent[0] == sent[1]
        assert page.locator("#problem").inner_text() == ""
    finally:
        player.close()


def test_a_second_click_while_a_command_is_on_its_way_sends_nothing(stack, browser: Browser):
    player = Player(browser, "en", 1280)
    try:
        page, _ = started_table(player, stack.api)
        posts = requests_to(page, "/commands", "POST")
        page.evaluate(
            "() => { const b = document.querySelector('[data-key=auto-pass]'); b.click(); b.click(); }"
        )
        page.locator('[data-key=auto-pass][aria-pressed="true"]').wait_for(timeout=10_000)
        page.wait_for_timeout(1000)
        assert len(posts) == 1
    finally:
        player.close()


def test_enter_twice_says_a_chat_message_once(stack, browser: Browser):
    player = Player(browser, "en", 1280)
    try:
        page, _ = open_table(player, stack.api)
        posts = requests_to(page, "/chat", "POST")
        page.locator("[data-key=chat-input]").fill("hello once")
        page.evaluate(
            "() => { const f = document.querySelector('form.say'); f.requestSubmit(); f.requestSubmit(); }"
        )
        page.locator(".chat li", has_text="hello once").wait_for(timeout=10_000)
        page.wait_for_timeout(1000)
        assert len(posts) == 1
        assert page.locator(".chat li", has_text="hello once").count() == 1
        assert page.locator("[data-key=chat-input]").input_value() == ""
    finally:
        player.close()


def test_the_lobby_form_submitted_twice_opens_one_table(stack, browser: Browser):
    player = Player(browser, "en", 1280)
    try:
        page = player.page(f"{stack.api}/")
        page.get_by_role("heading", name=W["lobby.new"]).wait_for()
        page.get_by_label(W["lobby.house_bots"]).fill("3")
        creates = requests_to(page, "/tables", "POST")
        page.evaluate(
            """(name) => {
                const b = [...document.querySelectorAll("form button[type=submit]")]
                    .find((x) => x.textContent === name);
                b.form.requestSubmit(); b.form.requestSubmit();
            }""",
            W["lobby.create"],
        )
        page.wait_for_url("**/play/*")
        assert [r.url.rsplit("/", 1)[-1] for r in creates].count("tables") == 1
    finally:
        player.close()


def test_a_join_whose_outcome_is_unknown_keeps_the_token_it_carries(stack, browser: Browser):
    player = Player(browser, "en", 1280)
    try:
        page = player.page(f"{stack.api}/")
        page.get_by_role("heading", name=W["lobby.new"]).wait_for()

        def taken_but_unknown(route: Route) -> None:
            got = route.fetch()  # the seat is taken, and the answer lost on the way back
            token = got.json()["token"]
            body = {**UNKNOWN, "detail": "the seat may or may not have been taken", "token": token}
            route.fulfill(
                status=503, content_type="application/problem+json", body=json.dumps(body)
            )

        page.route("**/tables/*/seats", taken_but_unknown)
        page.get_by_label(W["lobby.house_bots"]).fill("3")
        page.get_by_role("button", name=W["lobby.create"]).click()
        page.wait_for_url("**/play/*")
        page.get_by_role("button", name=W["cmd.start"]).wait_for(timeout=10_000)  # seated
    finally:
        player.close()


# every EventSource the page opens, kept where the test can read its state
SOURCES = """
(() => {
  const Native = window.EventSource;
  window.__sources = [];
  window.EventSource = class extends Native {
    constructor(...args) { super(...args); window.__sources.push(this); }
  };
})();
"""
HIDE = """(hidden) => {
  Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
  document.dispatchEvent(new Event("visibilitychange"));
}"""
OPEN_STREAMS = "() => window.__sources.filter((s) => s.readyState !== EventSource.CLOSED)"


def test_a_hidden_page_lets_its_stream_go_and_follows_again_once_shown(stack, browser: Browser):
    player = Player(browser, "en", 1280)
    try:
        page, table_id = started_table(player, stack.api)
        page.add_init_script(SOURCES)
        page.reload()
        page.locator('.status[data-status="playing"]').wait_for()
        page.wait_for_function(f"{OPEN_STREAMS}.length === 1")
        page.evaluate("async () => { (await import('/web/api.js')).STREAMS.hiddenFor = 500; }")
        views = requests_to(page, f"/tables/{table_id}/view")
        page.evaluate(HIDE, True)
        page.wait_for_timeout(200)
        assert len(page.evaluate(OPEN_STREAMS)) == 1  # hidden a moment: kept
        page.wait_for_function(f"{OPEN_STREAMS}.length === 0", timeout=5000)  # then let go
        page.wait_for_timeout(1500)
        assert len(page.evaluate(OPEN_STREAMS)) == 0 and views == []  # and not opened again
        page.evaluate(HIDE, False)
        page.wait_for_function(
            f"{OPEN_STREAMS}.length === 1", timeout=10_000
        )  # shown: followed again
        assert len(views) == 1  # after reading the view it missed
        # shown before its time was up: the stream is kept
        page.evaluate(HIDE, True)
        page.wait_for_timeout(200)
        page.evaluate(HIDE, False)
        page.wait_for_timeout(1000)
        assert len(page.evaluate(OPEN_STREAMS)) == 1 and len(views) == 1
        assert player.errors == []
    finally:
        player.close()


def test_the_seats_kept_in_the_browser_are_pruned_by_age_and_count(stack, browser: Browser):
    player = Player(browser, "en", 1280)
    try:
        page = player.page(f"{stack.api}/")
        page.get_by_role("heading", name=W["lobby.new"]).wait_for()
        got = page.evaluate(
            """async () => {
                const { KEPT, seats } = await import("/web/api.js");
                const { invitations } = await import("/web/invitations.js");
                localStorage.clear();
                const month = KEPT.days * 86_400_000;
                const put = (key, value) => localStorage.setItem(key, JSON.stringify(value));
                put("gcbc:seat:old", { value: { seat: 1, token: "t-old" }, at: Date.now() - month - 1 });
                put("gcbc:seat:undated", { seat: 2, token: "t-undated" });  // written before dates
                put("gcbc:seat:recent", { value: { seat: 3, token: "t-recent" }, at: Date.now() - 1000 });
                put("gcbc:invitations:old", { value: ["c"], at: Date.now() - month - 1 });
                put("gcbc:language", "en");
                const before = seats.get("undated");
                seats.set("new", 0, "t-new");
                const after = Object.keys(localStorage).sort();
                for (const k of Object.keys(localStorage)) if (k.startsWith("gcbc:seat:")) localStorage.removeItem(k);
                KEPT.tables = 3;
                for (let i = 0; i < 5; i++) put(`gcbc:seat:n${i}`, { value: i, at: Date.now() - 9000 + i });
                seats.set("n5", 5, "t5");
                invitations.set("x", ["code"]);
                return {
                  before, after, invitations: invitations.get("x"), none: invitations.get("nope"),
                  counted: Object.keys(localStorage).filter((k) => k.startsWith("gcbc:seat:")).sort(),
                  newest: seats.get("n5"),
                };
            }"""
        )
    finally:
        player.close()
    assert got["before"] == {"seat": 2, "token": "t-undated"}  # read as before
    # a month untouched: dropped; undated: dated now, kept; another kind's entries untouched
    assert got["after"] == [
        "gcbc:invitations:old",
        "gcbc:language",
        "gcbc:seat:new",
        "gcbc:seat:recent",
        "gcbc:seat:undated",
    ]
    assert got["counted"] == ["gcbc:seat:n3", "gcbc:seat:n4", "gcbc:seat:n5"]  # the latest only
    assert got["newest"] == {"seat": 5, "token": "t5"}
    assert got["invitations"] == ["code"] and got["none"] == []
