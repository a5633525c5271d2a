"""Seat names through HTTP: a look-alike of a name at the table is taken (409 ``name_taken``), the
house's names are its own (422 ``name_reserved``), a blank name is refused (422 ``bad_name``),
each with the field named and nothing recorded; a name is shown as it is kept, normalised."""

from __future__ import annotations

import asyncio

import pytest
from gcbc_client import AsyncClient

from services.bots.seat import play_seat

pytestmark = pytest.mark.timeout(300)
QUICK = {"turn": 0.3, "reaction": 0.3, "prompt": 0.3, "arrange": 0.3}

LOOK_ALIKES = ["ann", "\u0430nn", "ａｎｎ", "ann\u00a0", "  ann  ", "ANN"]  # Cyrillic а, full width
HOUSE = ["House bot 3", "house  bot 5", "ＨＯＵＳＥ ＢＯＴ ３", "Hоusе bоt 3"]  # Cyrillic о, е


def _refused(http, table_id: str, name: str, status: int, code: str) -> None:
    r = http.post(f"/tables/{table_id}/seats", json={"name": name})
    assert r.status_code == status, (name, r.text)
    assert r.headers["content-type"].startswith("application/problem+json")
    assert (r.json()["code"], r.json()["field"]) == (code, "name"), (name, r.text)


def test_look_alikes_and_the_house_names_are_refused_and_a_name_is_kept_normalised(http):
    r = http.post("/tables", json={"seats": 8, "bots": {"seats": [3]}})
    assert r.status_code == 201, r.text
    table_id = r.json()["table_id"]
    assert http.post(f"/tables/{table_id}/seats", json={"name": "ann"}).status_code == 201
    version = http.get(f"/tables/{table_id}").json()["version"]

    for name in LOOK_ALIKES:
        _refused(http, table_id, name, 409, "name_taken")
    for name in HOUSE:
        _refused(http, table_id, name, 422, "name_reserved")
    _refused(http, table_id, "\u00a0 \u3000", 422, "bad_name")
    assert http.get(f"/tables/{table_id}").json()["version"] == version  # nothing recorded

    r = http.post(f"/tables/{table_id}/seats", json={"name": "\u00a0Ｚｏë\u00a0\u00a0 Ray "})
    assert r.status_code == 201, r.text
    seats = http.get(f"/tables/{table_id}").json()["seats"]
    assert [s["name"] for s in seats[:4]] == ["ann", "Zoë Ray", None, "House bot 3"]


def test_a_newcomer_may_not_take_the_name_a_rematch_keeps_for_its_player(stack, http):
    async def go() -> None:
        async with AsyncClient(stack.api, timeout=60) as client:
            table = await client.create_table(4, deadlines=QUICK, bots={"seats": [2, 3]})
            ann, bob = [await client.join(table.table_id, name) for name in ("ann", "bob")]
            await ann.start()
            await asyncio.gather(play_seat(ann, "random", 1), play_seat(bob, "random", 2))
            again = await ann.rematch()  # bob has not come back yet: seat 1 is kept for him
            await again.leave()  # seat 0 is free for a newcomer
            _refused(http, again.table_id, "Bob", 409, "name_taken")
            r = http.post(f"/tables/{again.table_id}/seats", json={"name": "cy"})
            assert r.status_code == 201 and r.json()["seat"] == 0, r.text
            back = await bob.rematch()  # under his name, as before
            assert back.seat == 1
            names = [s.name for s in (await back.view()).seats]
            assert names == ["cy", "bob", "House bot 2", "House bot 3"]

    asyncio.run(go())
