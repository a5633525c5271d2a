"""The sandbox: ``POST /tables`` names seats the house plays; the bot worker plays them through
the public API, so a client author plays one seat against the house. On a server's defaults the
house cannot be turned against the others: a table keeps a seat for a client, house bots think
like people, and the bot worker's pace is capped and shared by the tables in turn."""

from __future__ import annotations

import asyncio
import multiprocessing
import statistics
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psutil
import pytest
from gcbc_client import AsyncClient, AsyncSeat
from gcbc_client.problems import ApiProblem, RateLimited

from services.bots.seat import play_seat
from tests.e2e.conftest import auth
from tools.launcher import Stack

pytestmark = pytest.mark.timeout(300)
LONG = {"turn": 120, "reaction": 120, "prompt": 120, "arrange": 120}  # the autopilot never acts
# two clients of a stack at the server's defaults, told apart by the address its proxy names
GREEDY, OTHER = "10.0.0.1", "10.0.0.2"
# the stack's CPU one client's tables may take: a third of the two cores the server is sized
# for, so that another's game, left two thirds, is no slower than 1.5x its pace alone
GREEDY_CORES = 2 / 3


def test_three_house_bots_and_one_http_seat_play_to_the_end(stack):
    async def one_game(client: AsyncClient) -> tuple[set[int], set[int], list[Any]]:
        table = await client.create_table(
            4, bots={"seats": [1, 2, 3], "kind": "heuristic", "think": 0}, deadlines=LONG
        )
        listed = [t async for t in client.tables(limit=200) if t.table_id == table.table_id]
        assert listed and listed[0].taken == 3 and listed[0].bots.seats == (1, 2, 3)
        me = await client.join(table.table_id, "me")
        assert me.seat == 0  # the house's seats are taken: the first free one is mine
        await me.start()
        await play_seat(me, "random", 7)
        final = await me.view()
        assert final.status == "finished" and final.winners is not None
        assert final.bots is not None and final.bots.kind == "heuristic"
        names = [s.name for s in final.seats]
        assert names == ["me", "House bot 1", "House bot 2", "House bot 3"]
        history = await client.history(table.table_id)
        acted = {e.seat for e in history.events if type(e).__name__ == "ActionDeclared"}
        turns = [e.seat for e in history.events if type(e).__name__ == "TurnBegan"]
        # each house seat whose turn came acted (the last turn may end the game first)
        return {s for s in turns[:-1] if s in (1, 2, 3)}, acted, history.events

    async def go() -> None:
        async with AsyncClient(stack.api, timeout=60) as client:
            for _ in range(5):  # a game may end before any house seat's turn: another one then
                house_turns, acted, events = await one_game(client)
                if house_turns:
                    break
            # the house acted, not the autopilot (no deadline passed: they are long)
            assert house_turns and acted >= house_turns
            assert not any(type(e).__name__ == "AutopilotActed" for e in events)

    asyncio.run(go())


def test_a_scenario_table_of_house_bots_only_starts_and_plays_by_itself(http):
    body = {"seats": 4, "seed": 11, "bots": {"seats": [0, 1, 2, 3], "think": 0}}
    r = http.post("/tables", json=body)
    assert r.status_code == 201, r.text
    table_id = r.json()["table_id"]
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        v = http.get(f"/tables/{table_id}").json()
        if v["status"] == "finished":
            break
        time.sleep(0.5)
    assert v["status"] == "finished"
    assert v["bots"] == {"seats": [0, 1, 2, 3], "kind": "random", "think": 0}
    assert v["seeded"] is True


@pytest.mark.parametrize(
    "bots, field",
    [
        ({"seats": [4]}, "bots.seats"),
        ({"seats": [1, 1]}, "bots.seats"),
        ({"seats": []}, "bots.seats"),
        ({"seats": [1], "kind": "genius"}, "kind"),
    ],
)
def test_house_seats_are_distinct_seats_of_the_table_and_a_known_kind(http, bots, field):
    r = http.post("/tables", json={"seats": 4, "bots": bots})
    assert r.status_code == 422, r.text
    assert field in (r.json().get("field") or r.json()["detail"])


def test_nobody_acts_for_a_house_seat_without_its_token(http):
    r = http.post("/tables", json={"seats": 4, "bots": {"seats": [3]}})
    table_id = r.json()["table_id"]
    for token in ("", "0" * 64, table_id):
        got = http.post(
            f"/tables/{table_id}/start",
            headers={"Authorization": f"Bearer {token}"} if token else {},
        )
        assert got.status_code == (403 if token else 401), got.text


@pytest.fixture(scope="module")
def default_stack(tmp_path_factory) -> Iterator[Stack]:
    """The server's defaults (its own NATS and Redis, so no other bot worker plays its tables);
    the loopback is its proxy, so each client names its own address."""
    env = {"GCBC_FORWARDED_ALLOW_IPS": "127.0.0.1"}
    s = Stack(Path(tmp_path_factory.mktemp("defaults")), env=env).start()
    yield s
    s.stop()


def test_a_table_keeps_a_seat_for_a_client_and_its_bots_think_like_people(default_stack):
    with httpx.Client(base_url=default_stack.api, timeout=30) as http:
        http.headers["X-Forwarded-For"] = "10.0.0.3"
        lobby = http.get("/tables").json()
        r = http.post("/tables", json={"seats": 4, "bots": {"seats": [0, 1, 2, 3]}})
        assert r.status_code == 422, r.text
        assert r.json()["code"] == "no_seat_for_you" and r.json()["field"] == "bots.seats"
        assert http.get("/tables").json() == lobby  # nothing opened

        r = http.post("/tables", json={"seats": 4, "bots": {"seats": [1, 2, 3], "think": 0.5}})
        assert r.status_code == 422, r.text
        assert r.json()["code"] == "invalid_body" and r.json()["field"] == "bots.think"

        # the server's default think is recorded with the table: every view shows it
        r = http.post("/tables", json={"seats": 4, "bots": {"seats": [1, 2, 3]}})
        assert r.status_code == 201, r.text
        table_id = r.json()["table_id"]
        shown = http.get(f"/tables/{table_id}").json()["bots"]
        assert shown == {"seats": [1, 2, 3], "kind": "random", "think": 2.0}
        r = http.post("/tables", json={"seats": 5, "bots": {"seats": [4], "think": 1.5}})
        assert r.status_code == 201, r.text
        assert http.get(r.json()["view_url"]).json()["bots"]["think"] == 1.5


def test_a_table_with_house_bots_cannot_be_slowed_to_hold_the_house_for_hours(default_stack):
    """Before: six addresses opened their three tables of seven house bots each, thinking an
    hour, with hour-long deadlines, and started them: the server's 120 house seats were held for
    about 40 hours (every other client's table with bots 503 house_full); at 30 s and 300 s, for
    most of an hour. A house bot thinks at most 10 s, and a table with house bots waits at most
    120 s; other tables, up to the hour."""
    with httpx.Client(base_url=default_stack.api, timeout=30) as http:
        http.headers["X-Forwarded-For"] = "10.0.0.4"
        lobby = http.get("/tables").json()
        bots = {"seats": [1, 2, 3]}
        r = http.post("/tables", json={"seats": 4, "bots": {**bots, "think": 11}})
        assert r.status_code == 422 and r.json()["field"] == "bots.think", r.text
        slow = {"turn": 121, "reaction": 20, "prompt": 20, "arrange": 60}
        r = http.post("/tables", json={"seats": 4, "bots": bots, "deadlines": slow})
        assert r.status_code == 422 and r.json()["field"] == "deadlines.turn", r.text
        assert "house bots" in r.json()["detail"]
        assert http.get("/tables").json() == lobby  # nothing opened
        r = http.post("/tables", json={"seats": 4, "bots": {**bots, "think": 10}})
        assert r.status_code == 201, r.text
        r = http.post("/tables", json={"seats": 4, "deadlines": {**slow, "turn": 3600}})
        assert r.status_code == 201, r.text  # people alone may take their time


class PlayerSeat:
    """A client's seat: at most ``RATE`` commands a second (under the server's limit of a seat),
    a 429 waited out; each command's round trip timed."""

    RATE = 25.0

    def __init__(self, api: AsyncSeat, took: list[float]) -> None:
        self.api, self.took = api, took
        self.seat = api.seat
        self.last = 0.0

    async def view(self, after: int | None = None, timeout: float = 0) -> Any:
        return await self.api.view(after=after, timeout=timeout)

    async def send(self, command: Any, command_id: str | None = None) -> Any:
        while True:
            await asyncio.sleep(max(0.0, self.last + 1 / self.RATE - time.perf_counter()))
            self.last = start = time.perf_counter()
            try:
                answer = await self.api.send(command, command_id)
            except RateLimited as e:
                await asyncio.sleep(e.retry_after or 1.0)
                continue
            self.took.append(time.perf_counter() - start)
            return answer


async def _play_tables(api: str, games: int, seed: int) -> tuple[list[float], float]:
    """The other client: tables of four seats it plays itself, with bots, one after another;
    each command's round trip, and the seconds each game took per command."""
    took: list[float] = []
    per_command = []
    async with AsyncClient(api, timeout=60) as client:
        client.http.headers["X-Forwarded-For"] = OTHER
        for game in range(games):
            table = await client.create_table(4)
            seats = [await client.join(table.table_id, f"p{i}") for i in range(4)]
            await seats[0].start()
            start, before = time.perf_counter(), len(took)
            await asyncio.gather(
                *(
                    play_seat(PlayerSeat(s, took), "random", seed + game * 10 + s.seat)
                    for s in seats
                )
            )
            per_command.append((time.perf_counter() - start) / (len(took) - before))
    return took, statistics.median(per_command)


def _greedy(api: str, ready: Any, address: str) -> None:
    """A client doing its worst within the server's limits (a process of its own: its CPU is
    not the other client's): as many tables of eight as it may open, seven seats the house's
    thinking as little as the server allows, the eighth played by itself as fast as its limits
    let it. ``address``: the client's own (the tables of an earlier run still count against its
    limits)."""

    async def go() -> None:
        async with AsyncClient(api, timeout=60) as client:
            client.http.headers["X-Forwarded-For"] = address
            seats = []
            bots: dict[str, Any] = {"seats": list(range(1, 8)), "kind": "heuristic", "think": 1}
            while len(seats) < 100:
                try:
                    table = await client.create_table(8, bots=bots)
                    seats.append(await client.join(table.table_id, "greedy"))
                    await seats[-1].start()
                except ApiProblem:
                    if "think" in bots:  # perhaps a server whose bots know no think: once more
                        del bots["think"]
                        continue
                    break  # a limit says no more
            ready.put(len(seats))
            await asyncio.gather(*(play_seat(PlayerSeat(s, []), "random", 1) for s in seats))

    asyncio.run(go())


def _cpu(stack: Stack) -> dict[str, float]:
    """CPU seconds each process of the stack has used so far."""
    procs = {name: p.pid for name, p in stack.procs.items()}
    procs |= {name: s.proc.pid for name, s in stack.servers.items()}
    return {name: sum(psutil.Process(pid).cpu_times()[:2]) for name, pid in procs.items()}


@pytest.mark.parametrize("games", [1, pytest.param(2, marks=pytest.mark.slow)])
def test_one_clients_house_tables_do_not_slow_another_clients_game(default_stack, games):
    """Another client's game is no slower than 1.5x its pace alone when the greedy client leaves
    it two thirds of the machine: the stack's CPU for the greedy tables is held to a third
    (what is asserted: the machine is shared, so the other's times are too noisy to); the
    other's command round trips and game time alone and among the greedy tables are measured
    and reported (over one game each in make test, two in make bench)."""
    api = default_stack.api
    alone, alone_per_command = asyncio.run(_play_tables(api, games, 1000))
    context = multiprocessing.get_context("spawn")
    ready = context.Queue()
    address = f"{GREEDY}{games}"  # a client of its own each run, on the one stack
    greedy = context.Process(target=_greedy, args=(api, ready, address), daemon=True)
    greedy.start()
    try:
        tables = ready.get(timeout=60)
        time.sleep(3)  # the house's bots under way at every table
        before, start = _cpu(default_stack), time.perf_counter()
        time.sleep(5)
        greedy_cores = _cores(before, _cpu(default_stack), time.perf_counter() - start)
        crowded, crowded_per_command = asyncio.run(_play_tables(api, games, 1000))
    finally:
        greedy.kill()
        greedy.join(10)
    p50 = statistics.median(crowded) / statistics.median(alone)
    p90 = statistics.quantiles(crowded, n=10)[-1] / statistics.quantiles(alone, n=10)[-1]
    game = crowded_per_command / alone_per_command
    figures = (
        f"{tables} greedy tables: the stack's cores for them {sum(greedy_cores.values()):.2f}"
        f" ({', '.join(f'{n} {c:.2f}' for n, c in sorted(greedy_cores.items()))}); another"
        f" client's command round trip p50 {statistics.median(alone) * 1000:.1f} ->"
        f" {statistics.median(crowded) * 1000:.1f} ms ({p50:.2f}x), p90 {p90:.2f}x; its game"
        f" time per command {alone_per_command * 1000:.1f} -> {crowded_per_command * 1000:.1f}"
        f" ms ({game:.2f}x)"
    )
    print(figures)
    assert tables >= 1, figures
    assert sum(greedy_cores.values()) <= GREEDY_CORES, figures


def _cores(before: dict[str, float], after: dict[str, float], seconds: float) -> dict[str, float]:
    return {name: (after[name] - before[name]) / seconds for name in after}


@pytest.fixture(scope="module")
def small_house(tmp_path_factory) -> Iterator[Stack]:
    """A house of six seats, its bots at machine speed (its own NATS and Redis); the loopback is
    its proxy, so each client names its own address."""
    env = {
        "GCBC_FORWARDED_ALLOW_IPS": "127.0.0.1",
        "GCBC_HOUSE_SEATS": "6",
        "GCBC_HOUSE_SEATS_PER_CLIENT": "0",
        "GCBC_MIN_DEADLINE": "0.1",
        "GCBC_BOT_THINK": "0",
        "GCBC_BOT_THINK_MIN": "0",
        "GCBC_BOT_ACTIONS": "0",
    }
    s = Stack(Path(tmp_path_factory.mktemp("small-house")), env=env).start()
    yield s
    s.stop()


def test_the_house_plays_so_many_seats_at_once_and_quick_play_waits_for_room(small_house):
    """Before: every address could open its three house tables, however many addresses there
    were: past about 25 busy tables the bot worker's actions a second no longer answered their
    reaction windows in time, everyone's house tables alike. The house's seats in play over
    the whole server are capped: a table is not started past it (503 house_full), one asking for
    more house seats than are free is refused at its opening, quick play makes no table with
    house bots meanwhile, and a finished table gives its seats back. A table waiting for players
    holds none of them: counted from the opening, a few addresses opening tables with house
    bots and never starting them held them all, at no cost, renewed as each closed."""
    with httpx.Client(base_url=small_house.api, timeout=30) as http:

        def opened(bots: list[int], address: str) -> httpx.Response:
            table = {"seats": 4, "bots": {"seats": bots}, "deadlines": LONG}
            return http.post("/tables", json=table, headers={"X-Forwarded-For": address})

        def seated(r: httpx.Response, address: str, people: int = 1) -> tuple[str, dict]:
            """The table's free seats taken, each from an address of its own: the first's
            headers (its token, its address)."""
            assert r.status_code == 201, r.text
            table_id, first = r.json()["table_id"], None
            for n in range(people):
                took = http.post(
                    f"/tables/{table_id}/seats",
                    json={"name": f"me{n}"},
                    headers={"X-Forwarded-For": f"{address}{n}"},
                )
                assert took.status_code == 201, took.text
                first = first or {**auth(took.json()["token"]), "X-Forwarded-For": f"{address}0"}
            return table_id, first

        # twice the house's seats wait in tables not started: they hold none of them
        waiting = [seated(opened([1, 2, 3], f"10.0.1.{n}"), f"10.0.1.{n}") for n in range(4)]
        played = []  # five of the six house seats play: three at one table, two at another
        for n, bots in enumerate(([1, 2, 3], [1, 2])):
            table_id, me = seated(opened(bots, f"10.0.2.{n}"), f"10.0.2.{n}", 4 - len(bots))
            r = http.post(f"/tables/{table_id}/start", headers=me)
            assert r.status_code == 200, r.text
            played.append((table_id, me))

        table_id, me = waiting[0]
        r = http.post(f"/tables/{table_id}/start", headers=me)
        assert r.status_code == 503, r.text
        assert r.json()["code"] == "house_full" and int(r.headers["retry-after"]) > 1
        assert http.get(f"/tables/{table_id}").json()["status"] == "waiting"
        r = opened([1, 2, 3], "10.0.3.1")
        assert r.status_code == 503, r.text
        problem = r.json()
        assert problem["code"] == "house_full" and problem["field"] == "bots.seats"
        assert opened([1], "10.0.3.2").status_code == 201
        assert http.post("/tables", json={"seats": 4}).status_code == 201  # no house seat

        player = http.post("/players", json={"name": "quick"}).json()["token"]
        r = http.post("/queue", json={"seats": [4], "bots_after": 0}, headers=auth(player))
        assert r.status_code == 201, r.text
        time.sleep(3)  # three looks at the queue
        assert http.get("/queue", headers=auth(player)).json()["status"] == "waiting"

        # a started table's player leaves: the autopilot plays its seat at once, and the
        # game's end gives its three house seats back
        table_id, me = played[0]
        r = http.delete(f"/tables/{table_id}/seats/0", headers=me)
        assert r.status_code in (202, 204), r.text
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if http.get("/queue", headers=auth(player)).json()["status"] == "seated":
                break
            time.sleep(0.5)
        assert http.get(f"/tables/{table_id}").json()["status"] == "finished"
        assert http.get("/queue", headers=auth(player)).json()["status"] == "seated"
