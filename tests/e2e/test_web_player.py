"""The web table's player (services/table/web/player.js) in a real browser: a person registers in
the lobby on a phone and sees the token once, opens a table with house bots and sits as the player
under its name, finds it in "my tables", then picks the seat up in a second browser by signing in
with the token alone; the profile and the leaderboard pages, and a token replaced; quick play
(quickplay.js), seated with the house's bots or left. Every new panel
passes axe-core with no serious or critical violation, and a phone's page never scrolls sideways."""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from tests.e2e.test_web_client import (
    AXE,
    CHROMIUM,
    FLAGS,
    SHOTS,
    Player,
    check_page,
    play_by_clicks,
    raw_words,
    words,
)

pytestmark = pytest.mark.timeout(600)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    assert CHROMIUM.exists(), "chromium is missing: make setup installs it (as root)"
    assert AXE.exists(), "axe-core is missing: make setup installs it (npm ci in tests/e2e/axe)"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=FLAGS)
        yield b
        b.close()


def lobby(player: Player, api: str) -> Page:
    page = player.page(f"{api}/")
    page.get_by_role("heading", name=words(player.lang)["player.title"]).wait_for()
    return page


def test_a_player_registers_sits_and_picks_its_seat_up_in_another_browser(stack, browser: Browser):
    w = words("en")
    name = f"Ann {uuid.uuid4().hex[:6]}"  # names are unique among the stack's players
    phone, desk = Player(browser, "en", 400), Player(browser, "en", 1280)
    try:
        page = lobby(phone, stack.api)
        check_page(page, 400, "lobby, no player")
        page.get_by_label(w["player.name"]).fill(name)
        page.get_by_role("button", name=w["player.register"]).click()
        shown = page.locator("#fresh-token")
        shown.wait_for()
        assert page.locator("header").inner_text().count(name) == 1  # the header says who plays
        token = shown.input_value()
        assert len(token) >= 20
        once = page.locator(".token-once").inner_text()
        assert w["player.token_warning"].format(name=name) in once
        check_page(page, 400, "the token, shown once")
        if os.environ.get("GCBC_SCREENSHOTS"):
            page.screenshot(path=SHOTS / "player-token.png", full_page=True)
        kept = page.evaluate("JSON.parse(localStorage.getItem('gcbc:player'))")
        assert kept["token"] == token and kept["name"] == name and kept["bot"] is False
        page.get_by_role("button", name=w["player.token_saved"]).click()
        page.reload()
        page.get_by_text(w["player.signed_in"].format(name=name)).wait_for()
        assert page.locator("#fresh-token").count() == 0 and token not in page.content()
        page.get_by_text(w["player.no_ratings"]).wait_for()
        assert raw_words(page) == []

        # a table with three house bots, opened and sat at as the player, under its name
        assert page.get_by_label(w["lobby.your_name"]).input_value() == name
        page.get_by_label(w["lobby.house_bots"]).fill("3")
        page.get_by_role("button", name=w["lobby.create"]).click()
        page.wait_for_url("**/play/*")
        table_id = page.url.rsplit("/", 1)[-1]
        page.get_by_role("heading", name=w["you.title"].format(name=name)).wait_for()
        mine = httpx.get(
            f"{stack.api}/players/me/tables", headers={"Authorization": f"Bearer {token}"}
        ).json()["tables"]
        assert [(x["table_id"], x["seat"]) for x in mine] == [(table_id, 0)]
        page.get_by_role("button", name=w["cmd.start"]).click()
        page.locator('.status[data-status="playing"]').wait_for()

        # "my tables" on the phone: the table in play, a link to its seat
        page = lobby(phone, stack.api)
        playing = page.locator(f'.my-tables .playing li[data-table="{table_id}"] a')
        playing.wait_for()
        assert playing.get_attribute("href") == f"/play/{table_id}"
        check_page(page, 400, "lobby, a player with a table in play")
        if os.environ.get("GCBC_SCREENSHOTS"):
            page.screenshot(path=SHOTS / "player.png", full_page=True)

        # another browser: the token alone picks the seat up
        other = lobby(desk, stack.api)
        other.get_by_label(w["player.token"]).fill(token)
        other.get_by_role("button", name=w["player.sign_in"]).click()
        other.get_by_text(w["player.signed_in"].format(name=name)).wait_for()
        check_page(other, 1280, "lobby, signed in with a token")
        other.locator(f'.my-tables li[data-table="{table_id}"] a').click()
        other.wait_for_url(f"**/play/{table_id}")
        other.get_by_role("heading", name=w["you.title"].format(name=name)).wait_for()
        other.locator(".board .seat .who", has_text=name).wait_for()
        assert other.locator(".moves").count() == 1  # the seat's moves: it acts there
        assert other.evaluate(f"localStorage.getItem('gcbc:seat:{table_id}')") is None
        assert phone.errors == [] and desk.errors == []
    finally:
        phone.close()
        desk.close()


def test_the_profile_leaderboard_and_a_replaced_token(stack, browser: Browser, http):
    for lang, width in (("en", 1280), ("ja", 400), ("it", 400)):
        w = words(lang)
        got = http.post("/players", json={"name": f"Bea {uuid.uuid4().hex[:6]}"})
        assert got.status_code == 201, got.text
        me = got.json()
        person = Player(browser, lang, width)
        try:
            board = person.page(f"{stack.api}/?leaderboard=base")
            board.get_by_role(
                "heading", name=w["player.leaderboard_title"].format(pool=w["pool.base"])
            ).wait_for()
            board.locator(".leaderboard tbody tr").first.wait_for()
            check_page(board, width, f"leaderboard, {lang}")
            board.get_by_label(w["player.pool"]).select_option("zombies")
            board.get_by_role(
                "heading", name=w["player.leaderboard_title"].format(pool=w["pool.zombies"])
            ).wait_for()

            profile = person.page(f"{stack.api}/?player={me['player_id']}")
            profile.get_by_role(
                "heading", name=w["player.profile_title"].format(name=me["name"])
            ).wait_for()
            profile.get_by_text(w["player.no_games"]).wait_for()
            profile.get_by_text(w["player.no_ratings"]).wait_for()
            check_page(profile, width, f"profile, {lang}")
            assert raw_words(profile) == []

            page = lobby(person, stack.api)
            page.get_by_label(w["player.token"]).fill(me["token"])
            page.get_by_role("button", name=w["player.sign_in"]).click()
            page.get_by_role("button", name=w["player.new_token"]).click()
            fresh = page.locator("#fresh-token")
            fresh.wait_for()
            new = fresh.input_value()
            assert new != me["token"]
            check_page(page, width, f"a replaced token, {lang}")
            old = http.get("/players/me", headers={"Authorization": f"Bearer {me['token']}"})
            assert old.status_code == 403
            page.get_by_role("button", name=w["player.sign_out"]).click()
            page.get_by_role("button", name=w["player.register"]).wait_for()
            assert page.evaluate("localStorage.getItem('gcbc:player')") is None
            assert page.locator("header .player-badge").count() == 0
            # a browser still keeping the old token (replaced elsewhere) signs out, and says why
            page.evaluate("(p) => localStorage.setItem('gcbc:player', JSON.stringify(p))", me)
            page.reload()
            page.get_by_role("alert").get_by_text(w["player.problem_forbidden"]).wait_for()
            page.get_by_role("button", name=w["player.register"]).wait_for()
            assert page.evaluate("localStorage.getItem('gcbc:player')") is None
            assert person.errors == []
        finally:
            person.close()


def test_a_finished_rated_game_shows_in_the_profile_ratings_and_leaderboard(
    stack, browser: Browser, http
):
    w = words("en")
    me = http.post("/players", json={"name": f"Cy {uuid.uuid4().hex[:6]}"}).json()
    person = Player(browser, "en", 1280)
    try:
        page = lobby(person, stack.api)
        page.get_by_label(w["player.token"]).fill(me["token"])
        page.get_by_role("button", name=w["player.sign_in"]).click()
        page.get_by_text(w["player.signed_in"].format(name=me["name"])).wait_for()
        page.get_by_label(w["lobby.house_bots"]).fill("3")
        page.get_by_label(w["lobby.rated"]).check()
        page.get_by_role("button", name=w["lobby.create"]).click()
        page.wait_for_url("**/play/*")
        table_id = page.url.rsplit("/", 1)[-1]
        page.get_by_role("button", name=w["cmd.start"]).click()
        page.locator('.status[data-status="playing"]').wait_for()
        assert play_by_clicks(page) > 0
        page.locator(".end .why").wait_for()

        # the player's table is finished: "my tables" opens its replay
        page = lobby(person, stack.api)
        page.locator(f'.my-tables .finished li[data-table="{table_id}"] a').wait_for()
        assert (
            page.locator(f'.my-tables .finished li[data-table="{table_id}"] a').get_attribute(
                "href"
            )
            == f"/replay/{table_id}"
        )

        # a rated table (a player and the house's bots): its rating, its game, its place
        profile = person.page(f"{stack.api}/?player={me['player_id']}")
        game = profile.locator(f'.games li[data-table="{table_id}"]')
        for _ in range(50):  # the ratings are a projection: they follow the end shortly
            if game.count() and profile.locator(".ratings-list li").count():
                break
            profile.wait_for_timeout(200)
            profile.reload()
        assert game.locator("a").get_attribute("href") == f"/replay/{table_id}"
        line = game.inner_text()
        assert w["player.rating_change"].split("{")[0] in line
        assert (w["player.won"] in line) != (w["player.lost"] in line)
        rating = profile.locator(".ratings-list li").first.inner_text()
        assert rating.startswith(w["pool.base"])
        check_page(profile, 1280, "profile with a game")
        if os.environ.get("GCBC_SCREENSHOTS"):
            profile.screenshot(path=SHOTS / "profile.png", full_page=True)
        assert raw_words(profile) == []
        # the table's seats: the player's name links its profile, with its rating in this pool
        watched = person.page(f"{stack.api}/watch/{table_id}")
        seat = watched.locator(f'.board .seat a.who[href="/?player={me["player_id"]}"]')
        seat.wait_for()
        assert seat.inner_text() == me["name"]
        assert watched.locator(".board .seat a.who").count() == 1  # the house's bots: no player
        watched.locator(".board .seat .rating", has_text=w["seat.rating"].split("{")[0]).wait_for()
        check_page(watched, 1280, "a table with a player's seat")
        assert raw_words(watched) == []
        # its games for download, as JSON lines
        export = profile.get_by_role("link", name=w["player.download_games"])
        assert export.get_attribute("href") == f"/players/{me['player_id']}/games/export"
        with profile.expect_download() as got:
            export.click()
        lines = Path(got.value.path()).read_bytes().splitlines()
        assert [json.loads(x)["table_id"] for x in lines] == [table_id]
        board = person.page(f"{stack.api}/?leaderboard=base")
        listed = board.locator(".leaderboard").get_by_role("link", name=me["name"], exact=True)
        listed.wait_for()
        check_page(board, 1280, "leaderboard with the player")
        if os.environ.get("GCBC_SCREENSHOTS"):
            board.screenshot(path=SHOTS / "leaderboard.png", full_page=True)
        listed.click()
        board.wait_for_url(f"**/?player={me['player_id']}")
        assert person.errors == []
    finally:
        person.close()


def signed_in(person: Player, api: str, token: str, name: str) -> Page:
    w = words(person.lang)
    page = lobby(person, api)
    page.get_by_label(w["player.token"]).fill(token)
    page.get_by_role("button", name=w["player.sign_in"]).click()
    page.get_by_text(w["player.signed_in"].format(name=name)).wait_for()
    return page


def test_quick_play_with_the_house_bots_seats_the_player_and_opens_its_table(
    stack, browser: Browser, http
):
    w = words("en")
    name = f"Di {uuid.uuid4().hex[:6]}"
    person = Player(browser, "en", 400)
    try:
        page = lobby(person, stack.api)
        page.get_by_label(w["player.name"]).fill(name)
        page.get_by_role("button", name=w["player.register"]).click()
        page.get_by_role("button", name=w["player.token_saved"]).click()
        page.get_by_role("heading", name=w["quick.title"]).wait_for()
        check_page(page, 400, "quick play's form")
        page.get_by_label(w["quick.min"]).fill("4")
        page.get_by_label(w["quick.max"]).fill("4")
        page.get_by_label(w["quick.bots_after"]).fill("1")
        page.get_by_role("button", name=w["quick.join"]).click()
        # the place shows until the bots fill the table a second later, then the table opens
        page.wait_for_url("**/play/*")
        table_id = page.url.rsplit("/", 1)[-1]
        page.get_by_role("heading", name=w["you.title"].format(name=name)).wait_for()
        page.locator(".board .seat .who", has_text=name).wait_for()
        assert page.evaluate(f"localStorage.getItem('gcbc:seat:{table_id}')") is None
        assert raw_words(page) == []
        assert person.errors == []
    finally:
        person.close()


def test_a_queued_player_sees_its_place_on_load_and_leaves_the_queue(stack, browser: Browser, http):
    w = words("en")
    me = http.post("/players", json={"name": f"Ed {uuid.uuid4().hex[:6]}"}).json()
    person = Player(browser, "en", 400)
    try:
        page = signed_in(person, stack.api, me["token"], me["name"])
        page.get_by_label(w["quick.min"]).fill("7")
        page.get_by_label(w["quick.max"]).fill("8")
        page.get_by_label(w["quick.rated"]).check()
        page.get_by_role("button", name=w["quick.join"]).click()
        place = page.locator(".quick-play .place")
        place.wait_for()
        shown = place.inner_text()
        assert w["quick.waiting"].split("{")[0] in shown and "7–8" in shown
        assert w["quick.is_rated"] in shown
        check_page(page, 400, "quick play's place")

        # the place is the server's: a page loaded again shows it
        page.reload()
        place.wait_for()
        assert "7–8" in place.inner_text()
        auth = {"Authorization": f"Bearer {me['token']}"}
        assert http.get("/queue", headers=auth).json()["status"] == "waiting"
        page.get_by_role("button", name=w["quick.leave"]).click()
        page.get_by_role("button", name=w["quick.join"]).wait_for()
        assert place.count() == 0
        assert http.get("/queue", headers=auth).json()["status"] == "none"
        page.reload()
        page.get_by_role("button", name=w["quick.join"]).wait_for()
        assert place.count() == 0 and raw_words(page) == []
        assert person.errors == []
    finally:
        person.close()
