"""Players through HTTP, on the real NATS and Redis: registered once with a token shown once,
names unique among players (compared as seat names are), a public profile, the token replaced
(the old one stops working at once), seats taken as a player (each still with its own token,
anonymous play unchanged, a bot player's seats shown as bots), the player's tables, and its token
acting for the seat it holds — and for no one else's."""

from __future__ import annotations

import secrets
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from gcbc_client.problems import Forbidden

from services.table.players import LOOKED_AT
from tests.e2e.conftest import TEST_ENV, auth
from tools.launcher import Stack

pytestmark = pytest.mark.timeout(300)


def _name(prefix: str = "p") -> str:
    return f"{prefix}{secrets.token_hex(4)}"


def _register(http: httpx.Client, name: str, **body) -> dict:
    r = http.post("/players", json={"name": name, **body})
    assert r.status_code == 201, r.text
    return r.json()


def _problem(r: httpx.Response, status: int, code: str) -> dict:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["code"] == code, r.text
    return r.json()


QUICK = {"turn": 0.3, "reaction": 0.3, "prompt": 0.3, "arrange": 0.3}  # deadlines, in seconds


async def _play_rated(client: Any, player: Any, seed: int) -> str:
    """A rated game of ``player`` against three heuristic house bots, played to its end."""
    from services.bots.seat import play_seat

    table = await client.create_table(
        4,
        deadlines=QUICK,
        bots={"seats": [1, 2, 3], "kind": "heuristic", "think": 0},
        rated=True,
    )
    seat = await player.join(table.table_id)
    await seat.start()
    await play_seat(seat, "random", seed)
    return table.table_id


def test_a_player_registers_once_and_its_name_is_its_own(http):
    name = _name("Ann ")
    got = _register(http, f"  {name.upper()}  ")
    assert got["name"] == name.upper() and got["bot"] is False
    player_id, token = got["player_id"], got["token"]
    assert len(player_id) == 16 and token
    # public profile: no secret in it
    r = http.get(f"/players/{player_id}")
    assert r.status_code == 200, r.text
    assert r.json() == {"player_id": player_id, "name": name.upper(), "bot": False}
    assert http.get("/players/me", headers=auth(token)).json()["player_id"] == player_id
    # a look-alike of the name is taken (case, width)
    for look_alike in (name, name.lower().replace("a", "\u0430", 1)):
        problem = _problem(http.post("/players", json={"name": look_alike}), 409, "name_taken")
        assert problem["field"] == "name"
    _problem(http.post("/players", json={"name": "House bot 3"}), 422, "name_reserved")
    _problem(http.post("/players", json={"name": "\u00a0 \u3000"}), 422, "bad_name")
    _problem(http.post("/players", json={"name": ""}), 422, "invalid_body")
    _problem(http.post("/players", json={"name": "x", "rating": 3000}), 422, "invalid_body")
    _problem(http.get("/players/0123456789abcdef"), 404, "no_player")
    _problem(http.get("/players/not-an-id"), 404, "no_player")


def test_a_registration_sent_again_with_its_key_gets_the_same_player_and_a_new_token(http):
    name, key = _name("cy"), "Key_" + "7" * 28
    first = _register(http, name, registration_key=key)
    again = _register(http, name, registration_key=key)  # as after an answer that never came
    assert again["player_id"] == first["player_id"] and again["token"] != first["token"]
    _problem(http.get("/players/me", headers=auth(first["token"])), 403, "forbidden")
    assert http.get("/players/me", headers=auth(again["token"])).status_code == 200
    other = http.post("/players", json={"name": name, "registration_key": "x" * 32})
    assert _problem(other, 409, "name_taken")["field"] == "name"
    for bad in ("short", "not a key, spaces" * 2, 7):
        r = http.post("/players", json={"name": _name("dee"), "registration_key": bad})
        assert _problem(r, 422, "invalid_body")["field"] == "registration_key", r.text


def test_the_token_is_replaced_and_the_old_one_stops_working(http):
    got = _register(http, _name())
    old = got["token"]
    _problem(http.post("/players/me/token"), 401, "unauthorized")
    _problem(http.get("/players/me", headers=auth(old + "x")), 403, "forbidden")
    r = http.post("/players/me/token", headers=auth(old))
    assert r.status_code == 201, r.text
    new = r.json()["token"]
    assert new != old and r.json()["player_id"] == got["player_id"]
    _problem(http.get("/players/me", headers=auth(old)), 403, "forbidden")
    _problem(http.post("/players/me/token", headers=auth(old)), 403, "forbidden")
    assert http.get("/players/me", headers=auth(new)).status_code == 200


def test_a_player_takes_seats_lists_its_tables_and_plays_them_from_any_device(http):
    ann = _register(http, _name("ann"))
    robo = _register(http, _name("robo"), bot=True)
    r = http.post("/tables", json={"seats": 4})
    table_id = r.json()["table_id"]
    # ann takes a seat as a player: the seat's own token comes too, and works
    r = http.post(f"/tables/{table_id}/seats", json={"name": "ann"}, headers=auth(ann["token"]))
    assert r.status_code == 201, r.text
    seat, seat_token = r.json()["seat"], r.json()["token"]
    assert (
        http.get(f"/tables/{table_id}/view", headers=auth(seat_token)).json()["you"]["seat"] == seat
    )
    # one player, one seat at a table
    again = http.post(
        f"/tables/{table_id}/seats", json={"name": "ann2"}, headers=auth(ann["token"])
    )
    _problem(again, 409, "already_seated")
    # anonymous play as before; a bot player's seat shows bot
    r = http.post(f"/tables/{table_id}/seats", json={"name": "bob"})
    assert r.status_code == 201, r.text
    bob_token = r.json()["token"]
    r = http.post(f"/tables/{table_id}/seats", json={"name": "robo"}, headers=auth(robo["token"]))
    assert r.status_code == 201, r.text
    robo_seat = r.json()["seat"]
    seats = http.get(f"/tables/{table_id}").json()["seats"]
    assert seats[robo_seat]["bot"] is True and seats[seat]["bot"] is False
    # a token of a player form that is no player's takes no seat
    forged = f"{ann['player_id']}.{secrets.token_urlsafe(24)}"
    _problem(
        http.post(f"/tables/{table_id}/seats", json={"name": "eve"}, headers=auth(forged)),
        403,
        "forbidden",
    )

    # the player's tables, and its token acting for its seat there (another device)
    r = http.get("/players/me/tables", headers=auth(ann["token"]))
    assert r.status_code == 200, r.text
    assert r.json()["tables"][0] == {
        "table_id": table_id,
        "seat": seat,
        "status": "waiting",
        "view_url": f"/tables/{table_id}/view",
    }
    view = http.get(f"/tables/{table_id}/view", headers=auth(ann["token"])).json()
    assert view["you"]["seat"] == seat
    # another player's token opens none of ann's seats; robo's acts for robo's seat only
    view = http.get(f"/tables/{table_id}/view", headers=auth(robo["token"])).json()
    assert view["you"]["seat"] == robo_seat
    _problem(
        http.delete(f"/tables/{table_id}/seats/{seat}", headers=auth(robo["token"])),
        403,
        "forbidden",
    )
    # the last seat, then ann starts with her player's token and plays from it
    r = http.post(f"/tables/{table_id}/seats", json={"name": "cy"})
    assert r.status_code == 201, r.text
    r = http.post(f"/tables/{table_id}/start", headers=auth(ann["token"]))
    assert r.status_code in (200, 202), r.text
    deadline = time.time() + 30
    while time.time() < deadline:
        tables = http.get("/players/me/tables", headers=auth(ann["token"])).json()["tables"]
        if tables[0]["status"] == "playing":
            break
        time.sleep(0.1)
    assert tables[0]["status"] == "playing"
    r = http.post(f"/tables/{table_id}/tickets", headers=auth(ann["token"]))
    assert r.status_code == 201, r.text
    old_ticket = r.json()["ticket"]
    command = {"type": "arrange", "positions": [1, 2, 3]}
    r = http.post(f"/tables/{table_id}/commands", json=command, headers=auth(ann["token"]))
    assert r.status_code in (200, 202), r.text
    # the replaced token stops acting for the seat; the seat's own token still does
    r = http.post("/players/me/token", headers=auth(ann["token"]))
    new = r.json()["token"]
    _problem(http.get(f"/tables/{table_id}/view", headers=auth(ann["token"])), 403, "forbidden")
    assert http.get(f"/tables/{table_id}/view", headers=auth(new)).json()["you"]["seat"] == seat
    # a ticket the old token asked for opens no stream any more; one the new token asks for does
    stream = f"/tables/{table_id}/stream"
    with http.stream("GET", stream, params={"ticket": old_ticket}) as opened:
        assert opened.status_code == 403
    fresh = http.post(f"/tables/{table_id}/tickets", headers=auth(new)).json()["ticket"]
    with http.stream("GET", stream, params={"ticket": fresh}) as opened:
        assert opened.status_code == 200
    assert http.get(f"/tables/{table_id}/view", headers=auth(seat_token)).status_code == 200
    assert http.get(f"/tables/{table_id}/view", headers=auth(bob_token)).status_code == 200


def test_a_seat_left_in_the_lobby_is_no_longer_the_players(http):
    ann = _register(http, _name())
    table_id = http.post("/tables", json={"seats": 4}).json()["table_id"]
    r = http.post(f"/tables/{table_id}/seats", json={"name": "ann"}, headers=auth(ann["token"]))
    seat = r.json()["seat"]
    r = http.delete(f"/tables/{table_id}/seats/{seat}", headers=auth(ann["token"]))
    assert r.status_code in (202, 204), r.text
    tables = http.get("/players/me/tables", headers=auth(ann["token"])).json()["tables"]
    assert table_id not in [t["table_id"] for t in tables]
    _problem(http.get(f"/tables/{table_id}/view", headers=auth(ann["token"])), 403, "forbidden")


def test_the_players_tables_are_looked_for_among_the_200_it_joined_last(tmp_path):
    """A table joined stays noted once its seat is left: the list a request looks through is
    bounded, not every table the player ever asked a seat at. (A stack of its own: its 201
    tables waiting for players would crowd the shared lobby's first page.)"""
    s = Stack(tmp_path, env=TEST_ENV).start()
    try:
        with httpx.Client(base_url=s.api, timeout=30) as http:
            ann = _register(http, _name())
            joined = []
            for _ in range(LOOKED_AT + 1):
                table_id = http.post("/tables", json={"seats": 4}).json()["table_id"]
                r = http.post(
                    f"/tables/{table_id}/seats", json={"name": "ann"}, headers=auth(ann["token"])
                )
                assert r.status_code == 201, r.text
                joined.append(table_id)
            r = http.get("/players/me/tables", headers=auth(ann["token"]), params={"limit": 200})
            listed = [t["table_id"] for t in r.json()["tables"]]
            assert listed == joined[::-1][:LOOKED_AT]  # the oldest one is past the bound
    finally:
        s.stop()


def test_the_typed_client_registers_plays_as_a_player_and_picks_a_seat_up_elsewhere(stack):
    from gcbc_client import Client
    from gcbc_client.problems import Conflict, Forbidden

    with Client(stack.api, timeout=30) as client, Client(stack.api, timeout=30) as phone:
        ann = client.register(_name("ann"))
        assert client.player(ann.player_id).name == ann.name
        with pytest.raises(Conflict) as taken:
            client.register(ann.name.upper())
        assert taken.value.code == "name_taken"
        table = client.create_table(4)
        seat = ann.join(table.table_id)
        assert seat.view().seats[seat.seat].name == ann.name
        # another device: the player from its saved token, its seat picked up
        again = phone.as_player(ann.token)
        assert [t.table_id for t in again.tables()] == [table.table_id]
        assert again.seat(table.table_id).seat == seat.seat
        old = ann.token
        again.new_token()
        with pytest.raises(Forbidden):
            phone.as_player(old)
        assert phone.as_player(again.token).player_id == ann.player_id


def test_the_async_client_registers_and_joins_as_a_player(stack):
    import asyncio

    from gcbc_client import AsyncClient

    async def go() -> None:
        async with AsyncClient(stack.api, timeout=30) as client:
            bot = await client.register(_name("bot"), bot=True)
            table = await client.create_table(4)
            seat = await bot.join(table.table_id)
            assert (await seat.view()).seats[seat.seat].bot is True
            assert [t.seat for t in await bot.tables()] == [seat.seat]
            assert (
                await (await client.as_player(bot.token)).seat(table.table_id)
            ).seat == seat.seat
            await bot.new_token()
            assert (await client.player(bot.player_id)).bot is True

    asyncio.run(go())


def test_operators_see_the_players_and_rebuild_their_read_model_from_the_log(stack, http):
    import json

    from tests.e2e.test_ops_cli import ops

    ann = _register(http, _name("ann"))
    table_id = http.post("/tables", json={"seats": 4}).json()["table_id"]
    r = http.post(f"/tables/{table_id}/seats", json={"name": "a"}, headers=auth(ann["token"]))
    assert r.status_code == 201, r.text

    def listed() -> list[dict]:
        ran = ops(stack, "players", "list", "--json", "--limit", "100000")
        assert ran.returncode == 0, ran.stderr
        return [json.loads(line) for line in ran.stdout.splitlines()]

    deadline = time.time() + 20
    while time.time() < deadline:  # the projection follows the players' log
        ran = ops(stack, "players", "status", "--json")
        assert ran.returncode == 0, ran.stderr
        status = json.loads(ran.stdout)
        if status["read_model"]["behind_log"] == 0 and ann["player_id"] in {
            p["player_id"] for p in listed()
        }:
            break
        time.sleep(0.2)
    assert status["read_model"]["behind_log"] == 0, status
    assert status["consumer"]["name"] == "players"
    before = listed()
    assert {"player_id": ann["player_id"], "name": ann["name"], "bot": False} in [
        {k: p[k] for k in ("player_id", "name", "bot")} for p in before
    ]
    ran = ops(stack, "players", "rebuild", "--yes")
    assert ran.returncode == 0, ran.stderr
    assert listed() == before
    # a seat the rules refuse (a full table) is never noted among the player's tables
    full = http.post("/tables", json={"seats": 4, "bots": {"seats": [0, 1, 2, 3]}}).json()[
        "table_id"
    ]
    r = http.post(f"/tables/{full}/seats", json={"name": "a"}, headers=auth(ann["token"]))
    assert r.status_code == 409, r.text
    ran = ops(stack, "players", "show", ann["player_id"], "--json")
    assert ran.returncode == 0, ran.stderr
    folded = json.loads(ran.stdout.splitlines()[-1])
    assert folded["registered"] and folded["tables"] == [table_id]
    unknown = ops(stack, "players", "show", "0" * 16)
    assert unknown.returncode == 2 and "no player" in unknown.stderr  # a typo, as for tables
    assert http.get(f"/players/{ann['player_id']}").json()["name"] == ann["name"]


def test_a_players_seat_is_its_own_at_the_rematch_too(stack):
    import asyncio

    from gcbc_client import AsyncClient

    from services.bots.seat import play_seat

    async def go() -> None:
        async with AsyncClient(stack.api, timeout=60) as client:
            ann = await client.register(_name("ann"))
            table = await client.create_table(
                4, deadlines=QUICK, bots={"seats": [1, 2, 3], "think": 0}
            )
            seat = await ann.join(table.table_id)
            await seat.start()
            await play_seat(seat, "random", 1)
            # the rematch asked with the player's token: the new seat is the player's
            mine = await ann.seat(table.table_id)
            again = await mine.rematch()
            # "my tables" is a projection: it follows the rematch and the end shortly
            wanted = [(again.table_id, "waiting"), (table.table_id, "finished")]
            for _ in range(300):
                tables = await ann.tables()
                if [(t.table_id, t.status) for t in tables[:2]] == wanted:
                    break
                await asyncio.sleep(0.1)
            assert [(t.table_id, t.status) for t in tables[:2]] == wanted
            assert (await ann.seat(again.table_id)).seat == again.seat

    asyncio.run(go())


def test_a_players_history_lists_its_finished_games_newest_first_and_nothing_in_play(stack, http):
    import asyncio
    import json

    from gcbc_client import AsyncClient

    from services.bots.seat import play_seat

    async def go() -> tuple[str, str, str]:
        async with AsyncClient(stack.api, timeout=60) as client:
            ann = await client.register(_name("ann"))
            first = await client.create_table(
                4, deadlines=QUICK, bots={"seats": [1, 2, 3], "think": 0}
            )
            seat = await ann.join(first.table_id)
            await seat.start()
            await play_seat(seat, "random", 1)
            again = await seat.rematch()
            await again.start()
            await play_seat(again, "random", 2)
            waiting = await client.create_table(4)
            await ann.join(waiting.table_id)
            return ann.player_id, first.table_id, again.table_id

    player_id, first, second = asyncio.run(go())
    seen, before = [], None
    for _ in range(5):
        params = {"limit": 1, **({"before": before} if before is not None else {})}
        r = http.get(f"/players/{player_id}/games", params=params)
        assert r.status_code == 200, r.text
        page = r.json()
        seen += page["games"]
        before = page["next"]
        if before is None:
            break
    assert [g["table_id"] for g in seen] == [second, first]  # newest first, nothing in play
    game = seen[0]
    mine = game["seats"][game["seat"]]
    assert mine["player"] == player_id and mine["team"] == game["team"]
    assert game["won"] == mine["won"]
    assert len(game["seats"]) == 4 and all(s["team"] for s in game["seats"])
    assert [s["bot"] for s in game["seats"]] == [i != game["seat"] for i in range(4)]
    assert game["win_team"] and game["finished_at"].endswith("+00:00")
    _problem(http.get("/players/0123456789abcdef/games"), 404, "no_player")
    from gcbc_client import Client

    with Client(stack.api, timeout=30) as client:
        games = list(client.games(player_id, page=1))
    assert [g.table_id for g in games] == [second, first] and games[0].seat == game["seat"]
    assert http.get(seen[0]["history_url"]).status_code == 200
    # the export: every finished game as the pages list them, one JSON a line, newest first
    r = http.get(f"/players/{player_id}/games/export")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("application/x-ndjson")
    assert r.content.endswith(b"\n") and [json.loads(x) for x in r.content.splitlines()] == seen
    newest = http.get(f"/players/{player_id}/games/export", params={"max": 1})
    assert [json.loads(x) for x in newest.content.splitlines()] == seen[:1]
    _problem(http.get("/players/0123456789abcdef/games/export"), 404, "no_player")
    too_few = http.get(f"/players/{player_id}/games/export", params={"max": 0})
    assert _problem(too_few, 400, "invalid_parameter")["field"] == "max"
    nobody = _register(http, _name("bea"))["player_id"]  # a player with no finished game
    r = http.get(f"/players/{nobody}/games/export")
    assert r.status_code == 200 and r.content == b"", r.text
    with Client(stack.api, timeout=30) as client:
        assert list(client.export_games(player_id)) == games
        assert list(client.export_games(player_id, most=1)) == games[:1]
        assert list(client.export_games(nobody)) == []

    async def exported() -> list:
        async with AsyncClient(stack.api, timeout=30) as client:
            return [g async for g in client.export_games(player_id)]

    assert asyncio.run(exported()) == games
    # each seat's view shows its player: the player's own, none for the house's bots
    public = http.get(f"/tables/{second}").json()
    shown = [player_id if i == game["seat"] else None for i in range(4)]
    assert [s["player"] for s in public["seats"]] == shown
    # and a replay as the log tells it: nobody's before the seats are taken, the player's after
    seats = [
        [
            s["player"]
            for s in http.get(f"/tables/{second}/replay", params={"step": step}).json()["view"][
                "seats"
            ]
        ]
        for step in (1, 10_000)
    ]
    assert seats == [[None] * 4, shown]


def test_a_rated_table_rates_its_players_and_the_house_and_operators_rebuild_and_verify(
    stack, http
):
    import asyncio
    import json

    from gcbc_client import AsyncClient

    from services.bots.seat import play_seat
    from tests.e2e.test_ops_cli import ops

    async def go() -> tuple[str, str, str, str]:
        async with AsyncClient(stack.api, timeout=60) as client:
            ann = await client.register(_name("ann"))
            rated = await _play_rated(client, ann, 3)
            # a rated table's seats are players' only
            players_only = await client.create_table(4, bots={"seats": [2, 3]}, rated=True)
            with pytest.raises(Forbidden) as anonymous:
                await client.join(players_only.table_id, "anon")
            assert anonymous.value.code == "players_only"
            # a table not opened rated is not rated, whoever holds its seats
            unrated = await client.create_table(
                4, deadlines=QUICK, bots={"seats": [1, 2, 3], "think": 0}
            )
            mine = await ann.join(unrated.table_id)
            await mine.start()
            await play_seat(mine, "random", 4)
            return ann.player_id, ann.token, rated, unrated.table_id

    player_id, token, rated, unrated = asyncio.run(go())
    deadline = time.time() + 20
    while time.time() < deadline:
        ratings = http.get(f"/players/{player_id}/ratings").json()["ratings"]
        if ratings:
            break
        time.sleep(0.2)
    assert [(r["pool"], r["games"]) for r in ratings] == [("base", 1)]
    assert ratings[0]["ordinal"] == pytest.approx(ratings[0]["mu"] - 3 * ratings[0]["sigma"])
    games = http.get(f"/players/{player_id}/games").json()["games"]
    changes = {g["table_id"]: g["rating_change"] for g in games}
    assert changes[rated] is not None and changes[unrated] is None
    board = http.get("/leaderboards/base", params={"limit": 200}).json()
    names = {e["player_id"] or e["name"]: e for e in board["entries"]}
    assert player_id in names and "House bots (heuristic)" in names
    assert [e["rank"] for e in board["entries"]] == list(range(1, len(board["entries"]) + 1))
    _problem(http.get("/leaderboards/nope"), 400, "invalid_parameter")

    # an imported copy of the rated game (gcbc-ops import --as) rates nobody a second time,
    # live or rebuilt
    exported = ops(stack, "export", rated)
    assert exported.returncode == 0, exported.stderr
    file = Path(tempfile.mkdtemp()) / "rated.jsonl"
    file.write_text(exported.stdout)
    ran = ops(stack, "import", str(file), "--as", "c1" + secrets.token_hex(7))
    assert ran.returncode == 0, ran.stderr

    async def again() -> None:  # the ratings' consumer, in the log's order, passes the copy first
        async with AsyncClient(stack.api, timeout=60) as client:
            await _play_rated(client, await client.as_player(token), 5)

    asyncio.run(again())
    deadline = time.time() + 20
    while time.time() < deadline:
        ratings = http.get(f"/players/{player_id}/ratings").json()["ratings"]
        if ratings[0]["games"] > 1:
            break
        time.sleep(0.2)
    assert [(r["pool"], r["games"]) for r in ratings] == [("base", 2)]  # not 3

    before = http.get("/leaderboards/base", params={"limit": 200}).json()
    ran = ops(stack, "players", "verify")
    assert ran.returncode == 0, ran.stdout + ran.stderr
    ran = ops(stack, "players", "verify", "--json")
    assert ran.returncode == 0 and json.loads(ran.stdout)["pools_differ"] == [], ran.stdout
    ran = ops(stack, "players", "rebuild", "--yes")
    assert ran.returncode == 0, ran.stderr
    assert http.get("/leaderboards/base", params={"limit": 200}).json() == before
    ran = ops(stack, "players", "leaderboard", "base", "--json", "--limit", "1000")
    assert player_id in {json.loads(line)["rater"] for line in ran.stdout.splitlines()}


def test_operators_rebuild_the_players_while_rated_games_end_and_the_ratings_stay_the_logs(
    stack, http
):
    import asyncio
    import threading

    from gcbc_client import AsyncClient

    from tests.e2e.test_ops_cli import ops

    played: dict[str, str] = {}  # player -> its rated table
    failed: list[BaseException] = []

    async def play() -> None:
        async with AsyncClient(stack.api, timeout=60) as client:

            async def one(i: int) -> None:
                p = await client.register(_name(f"r{i}"))
                played[p.player_id] = await _play_rated(client, p, i)

            await asyncio.gather(*(one(i) for i in range(4)))

    def games() -> None:
        try:
            asyncio.run(play())
        except BaseException as e:  # noqa: BLE001  (reported by the test's thread)
            failed.append(e)

    playing = threading.Thread(target=games)
    playing.start()
    rebuilds = 0
    while playing.is_alive() or rebuilds < 2:  # rebuilt again and again while games end
        ran = ops(stack, "players", "rebuild", "--yes")
        assert ran.returncode == 0, ran.stdout + ran.stderr
        rebuilds += 1
    playing.join()
    assert not failed, failed
    deadline = time.time() + 30
    while time.time() < deadline:  # the projection goes on from the rebuilt ratings
        counts = {
            p: [r["games"] for r in http.get(f"/players/{p}/ratings").json()["ratings"]]
            for p in played
        }
        if all(c == [1] for c in counts.values()):
            break
        time.sleep(0.2)
    assert all(c == [1] for c in counts.values()), counts
    for p, table_id in played.items():
        games_ = http.get(f"/players/{p}/games").json()["games"]
        assert [g["rating_change"] is not None for g in games_ if g["table_id"] == table_id] == [
            True
        ]
        assert http.get(f"/players/{p}").status_code == 200
    ran = ops(stack, "players", "verify")  # the ratings are the whole log's, rated again
    assert ran.returncode == 0, ran.stdout + ran.stderr
