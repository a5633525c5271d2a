"""The sandbox (issue 12, item 5): ``POST /tables`` names seats the house plays; the bot worker
plays them through the public API, so a client author plays one seat against the house."""

from __future__ import annotations

import asyncio
import time

import pytest
from gcbc_client import AsyncClient

from services.bots.seat import play_seat

pytestmark = pytest.mark.timeout(300)
LONG = {"turn": 600, "reaction": 600, "prompt": 600, "arrange": 600}  # the autopilot never acts


def test_three_house_bots_and_one_http_seat_play_to_the_end(stack):
    async def go() -> None:
        async with AsyncClient(stack.api, timeout=60) as client:
            table = await client.create_table(
                4, bots={"seats": [1, 2, 3], "kind": "heuristic"}, deadlines=LONG
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
            # the house acted, not the autopilot (no deadline passed: they are long)
            acted = {e.seat for e in history.events if type(e).__name__ == "ActionDeclared"}
            assert acted >= {1, 2, 3}
            assert not any(type(e).__name__ == "AutopilotActed" for e in history.events)

    asyncio.run(go())


def test_a_scenario_table_of_house_bots_only_starts_and_plays_by_itself(http):
    body = {"seats": 4, "seed": 11, "bots": {"seats": [0, 1, 2, 3]}}
    r = http.post("/tables", json=body)
    assert r.status_code == 201, r.text
    table_id = r.json()["table_id"]
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        v = http.get(f"/tables/{table_id}").json()
        if v["status"] == "finished":
            break
        time.sleep(0.5)
    assert v["status"] == "finished" and v["bots"] == {"seats": [0, 1, 2, 3], "kind": "random"}
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
