"""The reference web client in a real browser, played as a person would: Debian's chromium driven
by Playwright (no browser download). A person opens a table with three house bots and plays their
seat to the end by clicking only what the page offers (moves, then their targets on the table or by
name, then the button that says the whole move), in English, Italian or Japanese, at 1280 and at
400 pixels; a second page watches it live (never showing a face-down card's identity); the finished
game is replayed step by step from a seat's point of view. Every page passes axe-core (pinned in
tests/e2e/axe, injected from its node_modules) with no serious or critical violation, a phone's
page never scrolls sideways, and the page's Content-Security-Policy refuses nothing it loads."""

from __future__ import annotations

import json
import os
import random
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

CHROMIUM = Path("/usr/bin/chromium")  # installed by make setup (deploy/ensure-chromium.sh)
AXE = Path(__file__).parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"  # make setup
CATALOGUES = Path(__file__).parents[2] / "services" / "table" / "web" / "i18n"
SHOTS = Path(__file__).parents[2] / "docs" / "web-table"
FLAGS = [  # no network beyond this machine: Chromium's background services stay off
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
LOCALES = {"en": "en-GB", "it": "it-IT", "ja": "ja-JP"}
WIDTHS = {1280: 900, 400: 860}
pytestmark = pytest.mark.timeout(600)


def words(lang: str) -> dict[str, str]:
    return json.loads((CATALOGUES / f"{lang}.json").read_text("utf-8"))


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    assert CHROMIUM.exists(), "chromium is missing: make setup installs it (as root)"
    assert AXE.exists(), "axe-core is missing: make setup installs it (npm ci in tests/e2e/axe)"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=FLAGS)
        yield b
        b.close()


class Player:
    """One browser context (a language, a screen width) and what went wrong in it: script
    errors and anything the Content-Security-Policy refused."""

    def __init__(self, browser: Browser, lang: str, width: int) -> None:
        self.lang, self.width = lang, width
        self.context: BrowserContext = browser.new_context(
            locale=LOCALES[lang], viewport={"width": width, "height": WIDTHS[width]}
        )
        # CDP's injection: the page's own policy (its own scripts only) still applies to the page
        self.context.add_init_script(path=str(AXE))
        self.errors: list[str] = []

    def page(self, url: str) -> Page:
        page = self.context.new_page()
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on(
            "console",
            lambda m: (
                self.errors.append(m.text)
                if m.type == "error" and "Content Security Policy" in m.text
                else None
            ),
        )
        page.goto(url)
        return page

    def close(self) -> None:
        self.context.close()


def status(page: Page) -> str:
    return page.locator(".status").get_attribute("data-status", timeout=10_000) or ""


def serious_violations(page: Page) -> list[dict]:
    return page.evaluate(
        """async () => {
            const r = await axe.run(document, { resultTypes: ["violations"] });
            return r.violations.filter((v) => ["serious", "critical"].includes(v.impact))
              .map((v) => ({ id: v.id, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ")) }));
        }"""
    )


def check_page(page: Page, width: int, where: str) -> None:
    assert serious_violations(page) == [], where
    if width <= 400:
        scroll = page.evaluate("document.documentElement.scrollWidth")
        assert scroll <= 400, f"{where}: {scroll} px wide"


RAW = re.compile(r"\{\w+\}|undefined|\bnull\b|\b[a-z]+(?:_[a-z0-9]+)*\.[a-z0-9_]+\b")


def raw_words(page: Page) -> list[str]:
    """What the page shows that no catalogue wrote: a key, a placeholder left unfilled, a
    JavaScript nothing (the table's id and chat aside, which are not words)."""
    text = page.locator("main").inner_text() + page.locator("header").inner_text()
    return [m for m in RAW.findall(text) if not m.endswith((".png", ".js"))]


def face_down_identities(page: Page) -> list[str]:
    """The text of every face-down card that is not the bare '?', while the game is on (at the
    end every card is revealed, RULES §10), read in one go with the status."""
    return page.evaluate(
        """() => {
            if (document.querySelector('.status')?.dataset.status === 'finished') return [];
            return [...document.querySelectorAll('.card.down .name')]
                .map(c => c.textContent).filter(t => t !== '?');
        }"""
    )


def open_table(
    player: Player,
    api: str,
    shot: Path | None = None,
    options: tuple[str, ...] = (),
    seats: int = 4,
) -> tuple[Page, str]:
    w = words(player.lang)
    page = player.page(f"{api}/")
    page.get_by_role("heading", name=w["lobby.new"]).wait_for()
    assert page.evaluate("document.documentElement.lang") == player.lang
    page.get_by_label(w["lobby.your_name"]).fill("Ann")
    page.get_by_label(w["lobby.seat_count"]).fill(str(seats))
    page.get_by_label(w["lobby.house_bots"]).fill(str(seats - 1))
    page.get_by_label(w["lobby.bot_kind"]).select_option("heuristic")
    for option in options:  # zombies, bombers_traitors, extra_equipment; classic: the edition
        if option == "classic":
            page.get_by_label(w["lobby.edition"]).select_option("classic")
        else:
            page.get_by_label(w[f"option.{option}"]).check()
    if shot:
        page.screenshot(path=shot, full_page=True)
    page.get_by_role("button", name=w["lobby.create"]).click()
    page.wait_for_url("**/play/*")
    table_id = page.url.rsplit("/", 1)[-1]
    assert "token" not in page.url  # the token stays in the browser's storage
    return page, table_id


def play_by_clicks(page: Page, shots: dict[str, Path] | None = None, watcher: Page | None = None):
    """Click through a whole game: a move, then its choices (on the table when the table offers
    them, else by name), then the button saying the whole move, each picked at random (seeded)
    from what is offered. Returns the clicks made; takes the screenshots asked for on the way
    (turn, reaction, prompt) once each."""
    shots = dict(shots or {})
    rng = random.Random(1)
    clicks = 0
    for i in range(5000):
        if status(page) == "finished":
            return clicks
        if i % 25 == 0:
            assert raw_words(page) == []
        if watcher is not None:
            assert face_down_identities(watcher) == []
        phase = page.locator(".status").get_attribute("data-phase") or ""
        must = page.locator(".moves.must-act").count() > 0
        asking = page.locator(".moves .question").count() > 0
        if must and phase == "action" and not asking and "turn" in shots:
            page.screenshot(path=shots.pop("turn"), full_page=True)
        guns = page.locator(".board svg.arrows line.gun").count()
        if must and not asking and guns >= 2 and "table" in shots:  # the README's picture
            page.screenshot(path=shots.pop("table"), full_page=True)
        if must and phase == "reaction" and "reaction" in shots:
            page.screenshot(path=shots.pop("reaction"), full_page=True)
        on_table = page.locator(".board button.choosable")
        if asking and "prompt" in shots:
            page.screenshot(path=shots.pop("prompt"), full_page=True)
        choices = on_table if on_table.count() else page.locator(".moves button.cmd")
        n = choices.count()
        if not n:
            page.wait_for_timeout(100)
            continue
        # a seeded pick, not always the first: a player that always makes the same move (and
        # bots that never shoot it) could go round the table for ever
        target = choices.nth(rng.randrange(n))
        try:
            target.click(timeout=2000)
            clicks += 1
        except Exception:  # the view changed under the click (a bot acted): look again
            continue
    raise AssertionError("the game did not end")


def replay_by_clicks(player: Player, api: str, table_id: str, shot: Path | None = None) -> Page:
    w = words(player.lang)
    replay = player.page(f"{api}/replay/{table_id}")
    at = lambda n: replay.locator(f'.step[data-step="{n}"]').wait_for()  # noqa: E731
    replay.locator(".replay-controls .step").wait_for()
    replay.get_by_role("button", name=w["replay.last"]).click()
    replay.locator(".end").wait_for()
    replay.get_by_label(w["replay.whose"], exact=True).select_option("0")
    replay.get_by_role("heading", name=w["you.title"].replace("{name}", "Ann")).wait_for()
    check_page(replay, player.width, "replay")
    if shot:
        replay.screenshot(path=shot, full_page=True)
    replay.get_by_role("button", name=w["replay.first"]).click()
    at(1)
    replay.get_by_role("button", name=w["replay.forward"]).click()
    at(2)
    replay.keyboard.press("ArrowRight")
    at(3)
    replay.get_by_role("button", name=w["replay.back"]).click()
    at(2)
    return replay


def whole_game(
    stack,
    browser: Browser,
    lang: str,
    width: int,
    shots: Path | None,
    options: tuple[str, ...] = (),
    seats: int = 4,
) -> None:
    """A whole game in one language at one width, played only by clicks, every page checked."""
    player = Player(browser, lang, width)
    w = words(lang)
    try:
        lobby_page, table_id = open_table(player, stack.api, None, options, seats)
        check_page(lobby_page, width, "table, before the start")
        lobby = player.page(f"{stack.api}/")
        lobby.locator("ul.tables").wait_for()
        check_page(lobby, width, "lobby")
        if shots:
            lobby.screenshot(path=shots / "lobby.png", full_page=True)
        lobby.close()
        page = lobby_page
        page.get_by_role("button", name=w["cmd.start"]).click()
        page.locator('.status[data-status="playing"]').wait_for()
        check_page(page, width, "table in play")
        asked = {k: shots / f"{k}.png" for k in ("turn", "reaction", "prompt")} if shots else {}
        assert play_by_clicks(page, asked) > 0
        page.locator(".end .why").wait_for()
        assert w["end.title"] in page.locator(".end").inner_text()
        assert raw_words(page) == []
        check_page(page, width, "the end")
        if shots:
            page.screenshot(path=shots / "end.png", full_page=True)
        replay_by_clicks(player, stack.api, table_id, shots / "replay.png" if shots else None)
        assert player.errors == []
    finally:
        player.close()


def test_create_play_watch_and_replay_a_table_in_the_browser(stack, browser: Browser):
    """English at 1280 pixels, watched live at 400; the screenshots for docs/ when asked
    (GCBC_SCREENSHOTS=1 writes docs/web-table/*.png; ja-400/ and it-1280/ from the games below)."""
    shots = SHOTS if os.environ.get("GCBC_SCREENSHOTS") else None
    if shots:
        shots.mkdir(exist_ok=True)
    player = Player(browser, "en", 1280)
    phone = Player(browser, "en", 400)
    w = words("en")
    try:
        page, table_id = open_table(player, stack.api, shots / "lobby.png" if shots else None)
        watcher = phone.page(f"{stack.api}/watch/{table_id}")
        watcher.locator(".seat").first.wait_for()
        page.get_by_role("button", name=w["cmd.start"]).click()
        page.locator('.status[data-status="playing"]').wait_for()
        # an equipment card in hand shows its rules' text on a tap, and stays open as views come
        page.locator(".hand details summary").first.click()
        text = page.locator(".hand details p").first
        text.wait_for()
        assert text.inner_text() in {v for k, v in w.items() if k.startswith("equipment_text.")}
        page.wait_for_timeout(300)
        assert page.locator(".hand details[open]").count() == 1
        page.locator(".hand details summary").first.click()  # closed again
        kinds = ("turn", "reaction", "prompt", "table")
        asked = {k: shots / f"{k}.png" for k in kinds} if shots else {}
        assert play_by_clicks(page, asked, watcher=watcher) > 0
        page.locator(".end .why").wait_for()
        end = page.locator(".end").inner_text()
        assert w["end.winners"].split("{")[0] in end
        assert page.locator(".end table.teams tbody tr").count() == 4  # every seat, its team
        names = page.locator(".board .card .name").all_inner_texts()
        assert len(names) == 12 and "?" not in names  # every card revealed
        if shots:
            page.screenshot(path=shots / "end.png", full_page=True)
        watcher.locator('.status[data-status="finished"]').wait_for()
        assert watcher.locator(".end .why").inner_text() == page.locator(".end .why").inner_text()
        check_page(watcher, 400, "watching, on a phone")
        public = httpx.get(f"{stack.api}/tables/{table_id}").json()
        assert public["status"] == "finished"
        final = httpx.get(f"{stack.api}/tables/{table_id}/view").json()  # the rules' teams
        teams = page.locator(".end table.teams tbody td:first-of-type").all_inner_texts()
        assert teams == [w[f"team.{s['team']}"] for s in final["seats"]]
        replay_by_clicks(player, stack.api, table_id, shots / "replay.png" if shots else None)
        assert player.errors == [] and phone.errors == []
    finally:
        player.close()
        phone.close()


def test_a_whole_game_on_a_phone_in_japanese(stack, browser: Browser):
    shots = SHOTS / "ja-400" if os.environ.get("GCBC_SCREENSHOTS") else None
    if shots:
        shots.mkdir(parents=True, exist_ok=True)
    whole_game(stack, browser, "ja", 400, shots)


def test_a_whole_game_with_both_expansions_in_italian(stack, browser: Browser):
    shots = SHOTS / "it-1280" if os.environ.get("GCBC_SCREENSHOTS") else None
    if shots:
        shots.mkdir(parents=True, exist_ok=True)
    options = ("zombies", "bombers_traitors", "extra_equipment")
    whole_game(stack, browser, "it", 1280, shots, options, seats=6)


@pytest.mark.slow
@pytest.mark.parametrize("width", list(WIDTHS))
@pytest.mark.parametrize("lang", list(LOCALES))
def test_a_whole_game_in_each_language_at_each_width(stack, browser: Browser, lang, width):
    whole_game(stack, browser, lang, width, None)


@pytest.mark.slow
@pytest.mark.parametrize("width", list(WIDTHS))
def test_a_whole_game_at_eight_seats_in_the_classic_edition(stack, browser: Browser, width):
    whole_game(stack, browser, "en", width, None, ("classic", "zombies"), seats=8)


def test_an_invitation_link_takes_the_kept_seat_and_only_it_does(stack, browser: Browser):
    """Ann opens a table keeping a seat for a friend; the friend opens the link in another
    browser, gives only a name and sits there; a stranger finds the table full, a wrong code
    refused and the spent link refused, each in words."""
    host, guest, stranger = (
        Player(browser, "en", 1280),
        Player(browser, "it", 400),
        Player(browser, "en", 1280),
    )
    w, wi = words("en"), words("it")
    try:
        page = host.page(f"{stack.api}/")
        page.get_by_label(w["lobby.your_name"]).fill("Ann")
        page.get_by_label(w["lobby.house_bots"]).fill("2")
        page.get_by_label(w["lobby.invitations"]).fill("1")
        page.get_by_role("button", name=w["lobby.create"]).click()
        page.wait_for_url("**/play/*")
        table_id = page.url.rsplit("/", 1)[-1]
        links = page.locator(".invitations input")
        links.first.wait_for()
        assert links.count() == 1
        link = links.first.input_value()
        assert link == f"{stack.api}/play/{table_id}#invite=" + link.split("#invite=")[1]
        page.get_by_role("button", name=w["invite.copy"]).click()
        page.get_by_role(
            "button", name=re.compile(f"^({w['invite.copied']}|{w['invite.select']})$")
        ).wait_for()
        check_page(page, 1280, "the invitations")
        assert raw_words(page) == []

        lobby = host.page(f"{stack.api}/")
        listed = lobby.locator("ul.tables li", has=lobby.locator(f'a[href="/watch/{table_id}"]'))
        assert listed.locator(".reserved").inner_text() == w["lobby.reserved_one"]
        lobby.close()

        asked = stranger.page(f"{stack.api}/play/{table_id}")
        asked.on("dialog", lambda d: d.accept("Cy"))
        asked.get_by_role("button", name=w["lobby.take_seat"]).click()
        asked.get_by_role("alert").get_by_text(w["problem.table_full"]).wait_for()
        wrong = stranger.page(f"{stack.api}/play/{table_id}#invite=not-this-tables-code")
        wrong.get_by_label(w["lobby.your_name"]).fill("Cy")
        wrong.get_by_role("button", name=w["invite.join"]).click()
        wrong.get_by_role("alert").get_by_text(w["problem.bad_invitation"]).wait_for()

        friend = guest.page(link)
        friend.get_by_role("heading", name=wi["invite.welcome"]).wait_for()
        check_page(friend, 400, "an invitation opened")
        friend.get_by_label(wi["lobby.your_name"]).fill("Bea")
        friend.get_by_role("button", name=wi["invite.join"]).click()
        friend.get_by_role("heading", name=wi["you.title"].replace("{name}", "Bea")).wait_for()
        assert "invite" not in friend.url  # the code left the address bar
        seat = page.locator('.invitations li[data-seat="1"]')
        seat.get_by_text(w["invite.taken"].format(n=2, name="Bea")).wait_for()

        spent = stranger.page(link)
        spent.get_by_label(w["lobby.your_name"]).fill("Cy")
        spent.get_by_role("button", name=w["invite.join"]).click()
        spent.get_by_role("alert").get_by_text(w["problem.invitation_used"]).wait_for()
        page.get_by_role("button", name=w["cmd.start"]).click()
        page.locator('.status[data-status="playing"]').wait_for()
        assert host.errors == [] and guest.errors == [] and stranger.errors == []
    finally:
        for player in (host, guest, stranger):
            player.close()


def test_the_page_follows_the_browser_and_the_switcher(stack, browser: Browser):
    player = Player(browser, "it", 1280)
    try:
        page = player.page(f"{stack.api}/")
        page.get_by_role("heading", name=words("it")["lobby.title"], exact=True).wait_for()
        page.get_by_label(words("it")["lang.label"]).select_option("ja")
        page.get_by_role("heading", name=words("ja")["lobby.title"], exact=True).wait_for()
        page.reload()  # the choice is kept
        page.get_by_role("heading", name=words("ja")["lobby.title"], exact=True).wait_for()
        assert page.evaluate("document.documentElement.lang") == "ja"
        assert player.errors == []
    finally:
        player.close()


def test_keyboard_play_reaches_and_operates_the_moves(stack, browser: Browser):
    """Tab to a move and press Enter, then its choices and its confirmation, without a mouse."""
    player = Player(browser, "en", 1280)
    w = words("en")
    try:
        page, _ = open_table(player, stack.api)
        page.get_by_role("button", name=w["cmd.start"]).focus()
        page.keyboard.press("Enter")
        page.locator('.status[data-status="playing"]').wait_for()
        page.locator(".moves.must-act button.cmd").first.wait_for(timeout=30_000)
        version = page.locator(".log li").count()
        for _ in range(60):  # Tab from the top of the page to the first move
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.matches('.moves button.cmd')"):
                break
        else:
            raise AssertionError("no move reachable with Tab")
        for _ in range(10):  # Enter on the move, each choice, then the whole move
            if not page.evaluate("document.activeElement.matches('.moves button.cmd')"):
                break
            page.keyboard.press("Enter")
            page.wait_for_timeout(200)
        page.locator(f".log li >> nth={version}").wait_for()  # the move is in the log
        assert player.errors == []
    finally:
        player.close()


def test_the_page_draws_the_view_it_fetched_before_any_stream(stack, browser: Browser, http):
    table_id = http.post("/tables", json={"seats": 4}).json()["table_id"]
    http.post(f"/tables/{table_id}/seats", json={"name": "Bea"})
    player = Player(browser, "en", 1280)
    try:
        player.context.route("**/stream*", lambda route: route.abort())  # no stream ever opens
        page = player.page(f"{stack.api}/watch/{table_id}")
        page.locator(".seat .who", has_text="Bea").wait_for(timeout=5_000)
    finally:
        player.close()


def test_the_log_follows_new_entries_unless_the_reader_scrolled_back(stack, browser: Browser):
    player = Player(browser, "en", 1280)
    w = words("en")
    log = ".log"
    overflowing = f"(() => {{ const l = document.querySelector('{log}'); return l.scrollHeight > l.clientHeight + 40; }})()"
    at_bottom = f"(() => {{ const l = document.querySelector('{log}'); return l.scrollTop + l.clientHeight >= l.scrollHeight - 8; }})()"

    def click_until_more_entries() -> None:
        before = page.locator(f"{log} li").count()
        for _ in range(200):
            if page.locator(f"{log} li").count() > before:
                return
            moves = page.locator(".moves button.cmd")
            if moves.count():
                try:
                    moves.first.click(timeout=2000)
                except Exception:  # the view changed under the click
                    pass
            page.wait_for_timeout(100)
        raise AssertionError("the log did not grow")

    try:
        page, _ = open_table(player, stack.api)
        page.get_by_role("button", name=w["cmd.start"]).click()
        page.locator('.status[data-status="playing"]').wait_for()
        while not page.evaluate(overflowing):
            click_until_more_entries()
        assert page.evaluate(at_bottom)  # it followed
        page.evaluate(f"document.querySelector('{log}').scrollTop = 0")  # the reader scrolls back
        click_until_more_entries()
        assert page.evaluate(f"document.querySelector('{log}').scrollTop") == 0
        page.evaluate(
            f"(() => {{ const l = document.querySelector('{log}'); l.scrollTop = l.scrollHeight; }})()"
        )
        click_until_more_entries()
        assert page.evaluate(at_bottom)  # back at the bottom: it follows again
    finally:
        player.close()


def test_a_refused_command_shows_its_problem_in_words(stack, browser: Browser):
    for lang in ("en", "it"):
        player = Player(browser, lang, 1280)
        w = words(lang)
        try:
            page = player.page(f"{stack.api}/")
            page.get_by_label(w["lobby.house_bots"]).fill("2")  # a seat stays free: no start
            page.get_by_role("button", name=w["lobby.create"]).click()
            page.wait_for_url("**/play/*")
            page.get_by_role("button", name=w["cmd.start"]).click()
            alert = page.get_by_role("alert")
            alert.get_by_text(w["problem.seats_not_filled"]).wait_for()
            assert alert.get_attribute("data-code") == "seats_not_filled"
        finally:
            player.close()


def test_pages_and_assets_are_served_by_the_table_service(stack):
    with httpx.Client(base_url=stack.api) as http:
        for path in ("/", "/watch/0123456789abcdef", "/web/app.js", "/web/style.css"):
            r = http.get(path)
            assert r.status_code == 200, path
        for lang in LOCALES:
            assert http.get(f"/web/i18n/{lang}.json").json()["lobby.title"]
        assert "default-src 'self'" in http.get("/").headers["content-security-policy"]
        assert http.get("/watch/..%2F..").status_code == 404
        schema = http.get("/schema/openapi.json").json()
        assert "/" not in schema["paths"] and "/watch/{table_id}" not in schema["paths"]
