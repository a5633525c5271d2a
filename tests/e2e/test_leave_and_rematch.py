"""Players' expectations: a seat may leave a started game (it is away: its
autopilot plays, its secrets stay secret, its token brings it back until the end), and a finished
table offers a rematch (the same seats and options at a new table, new tokens)."""

from __future__ import annotations

import asyncio

import pytest
from gcbc_client import AsyncClient, AsyncSeat
from gcbc_client.problems import Conflict, Forbidden

from services.bots.seat import play_seat

pytestmark = pytest.mark.timeout(300)
QUICK = {"turn": 0.3, "reaction": 0.3, "prompt": 0.3, "arrange": 0.3}


def test_a_player_leaves_a_started_game_its_autopilot_plays_and_it_comes_back(stack):
    async def go() -> None:
        async with AsyncClient(stack.api, timeout=60) as client:
            table = await client.create_table(4, deadlines={"turn": 60, "arrange": 60})
            seats = [await client.join(table.table_id, f"p{i}") for i in range(4)]
            await seats[0].start()
            leaver = seats[3]
            await leaver.leave()  # 204: away at once
            v = await leaver.view()
            assert v.seats[3].absent and v.you is not None and v.you.seat == 3
            assert v.you.team is not None  # still its own seat and cards
            public = await client.table(table.table_id)
            assert public.seats[3].absent
            assert all(c.card is None for c in public.seats[3].cards if not c.face_up)
            with pytest.raises(Conflict) as again:
                await leaver.leave()
            assert again.value.code == "already_away"
            back = await leaver.send({"type": "resume"})
            v = back if hasattr(back, "seats") else await leaver.view()
            assert not v.seats[3].absent
            # it leaves again and the others play to the end: the autopilot plays seat 3
            await leaver.leave()
            await asyncio.gather(*(play_seat(s, "random", 5 + s.seat) for s in seats[:3]))
            final = await leaver.view()
            assert final.status == "finished"

    asyncio.run(go())


def test_a_finished_table_offers_a_rematch_with_the_same_seats_and_new_tokens(stack):
    async def go() -> None:
        async with AsyncClient(stack.api, timeout=60) as client:
            options = {"edition": "classic", "extra_equipment": True}
            table = await client.create_table(
                4, options=options, deadlines=QUICK, bots={"seats": [2], "think": 0}
            )
            seats = [await client.join(table.table_id, f"p{i}", bot=i == 3) for i in (0, 1, 3)]
            assert [s.seat for s in seats] == [0, 1, 3]
            with pytest.raises(Conflict) as early:
                await seats[0].rematch()
            assert early.value.code == "not_finished_yet"
            await seats[0].start()
            await asyncio.gather(*(play_seat(s, "random", s.seat) for s in seats))

            again = [await s.rematch() for s in seats]
            new_id = again[0].table_id
            assert new_id != table.table_id and {s.table_id for s in again} == {new_id}
            assert [s.seat for s in again] == [0, 1, 3]
            assert all(a.token != s.token for a, s in zip(again, seats, strict=True))
            twice = await seats[1].rematch()  # asked again (an answer lost): the same seat
            assert (twice.table_id, twice.seat, twice.token) == (new_id, 1, again[1].token)
            v = await again[1].view()
            assert [s.name for s in v.seats] == ["p0", "p1", "House bot 2", "p3"]
            assert [s.bot for s in v.seats] == [False, False, True, True]  # a bot's stays one
            assert v.options.edition == "classic" and v.options.extra_equipment
            assert v.bots is not None and v.bots.seats == (2,)
            # the old tokens are the old table's only
            with pytest.raises(Forbidden):
                await AsyncSeat(client, new_id, 0, seats[0].token).view()
            await again[0].start()
            await asyncio.gather(*(play_seat(s, "random", 9 + s.seat) for s in again))
            assert (await again[0].view()).status == "finished"

    asyncio.run(go())


def test_a_stranger_takes_only_a_seat_nobody_holds(stack, http):
    async def go() -> str:
        async with AsyncClient(stack.api, timeout=60) as client:
            table = await client.create_table(
                4, deadlines=QUICK, bots={"seats": [1, 2, 3], "think": 0}
            )
            me = await client.join(table.table_id, "me")
            await me.start()
            await play_seat(me, "random", 1)
            again = await me.rematch()
            assert again.seat == 0
            return again.table_id

    new_id = asyncio.run(go())
    r = http.post(f"/tables/{new_id}/seats", json={"name": "stranger"})
    assert r.status_code == 409 and r.json()["code"] == "table_full"
