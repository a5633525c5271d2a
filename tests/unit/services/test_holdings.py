"""What one client address holds at once (services/table/holdings.py): seats, house seats and
tables waiting for players, given back once a table is over (or started) or a seat left, looked at
again only at the cap."""

from __future__ import annotations

import asyncio

import pytest

from services.table.holdings import Holdings
from services.table.problems import ApiError


def test_a_client_at_its_seat_cap_is_refused_until_one_is_given_back():
    h = Holdings(seats_per_client=2, house_seats_per_client=1)
    over: set[str] = set()
    asked: list[str] = []

    async def still_held(table: str, token: str | None) -> bool:
        asked.append(table)
        return table not in over

    async def scenario() -> None:
        for table in ("t1", "t2"):
            await h.hold_seat("ann", table, f"hash-{table}", still_held)
        assert asked == []  # below the cap nothing is looked at
        with pytest.raises(ApiError) as refused:
            await h.hold_seat("ann", "t3", "hash-t3", still_held)
        assert refused.value.status == 429 and refused.value.code == "too_many_held"
        await h.hold_seat("bob", "t3", "hash-b", still_held)  # another address is not held back
        over.add("t1")  # the game at t1 ended
        await h.hold_seat("ann", "t3", "hash-t3", still_held)
        assert ("t1", "hash-t1") not in h.seats["ann"]

    asyncio.run(scenario())


def test_seats_asked_for_together_all_count_before_any_is_taken():
    """Each is noted as its room is found, before its append: the third of three sent at once
    to a client with room for two is refused, not let through while the others wait."""
    h = Holdings(seats_per_client=2, house_seats_per_client=0)

    async def still_held(table: str, token: str | None) -> bool:
        await asyncio.sleep(0.01)  # (a read of the table's log)
        return True

    async def take(table: str) -> bool:
        try:
            await h.hold_seat("ann", table, f"hash-{table}", still_held)
        except ApiError:
            return False
        await asyncio.sleep(0.05)  # its append, and its answer
        return True

    async def scenario() -> list[bool]:
        return await asyncio.gather(*(take(f"t{i}") for i in range(8)))

    assert sum(asyncio.run(scenario())) == 2


def test_house_seats_are_counted_while_their_table_is_in_play():
    h = Holdings(seats_per_client=0, house_seats_per_client=8)
    in_play = {"t1", "t2"}

    async def still_held(table: str, token: str | None) -> bool:
        return table in in_play

    async def scenario() -> None:
        await h.hold_house_seats("ann", "t1", 7, still_held)
        await h.hold_house_seats("ann", "t2", 1, still_held)
        with pytest.raises(ApiError) as refused:
            await h.hold_house_seats("ann", "t3", 1, still_held)
        assert "8 house seats in play and has 8 (asked 1)" in refused.value.detail
        await h.hold_house_seats("bob", "t1", 7, still_held)  # another address is not held back
        in_play.discard("t1")  # its game is over: its seven seats are given back
        await h.hold_house_seats("ann", "t3", 7, still_held)
        assert h.house["ann"] == {"t2": 1, "t3": 7}
        await h.hold_seat("ann", "t9", "x", still_held)  # no seat cap: nothing kept
        assert h.seats == {}
        with pytest.raises(ApiError) as never:  # more than the cap itself: never, not later
            await h.hold_house_seats("cy", "t4", 9, still_held)
        assert (never.value.status, never.value.field) == (422, "bots.seats")

    asyncio.run(scenario())


def test_a_place_asked_again_replaces_its_own_house_seats_and_a_refused_one_keeps_them():
    """Before: a player queued for six seats with house bots (five booked) asked again for four
    (refused: already queued), and its booking became three: the address then opened a table of
    five house bots, ten in play against its cap of eight."""
    h = Holdings(seats_per_client=0, house_seats_per_client=8)

    async def still_held(table: str, token: str | None) -> bool:
        return True

    async def scenario() -> None:
        assert await h.hold_house_seats("ann", "q:p1", 5, still_held) is None
        before = await h.hold_house_seats("ann", "q:p1", 3, still_held)  # not 5 + 3
        assert before == 5 and h.house["ann"] == {"q:p1": 3}
        h.give_back_house_seats("ann", "q:p1", before)  # the join was refused
        assert h.house["ann"] == {"q:p1": 5}
        assert await h.hold_house_seats("ann", "t1", 3, still_held) is None
        h.give_back_house_seats("ann", "t1", None)  # a new one refused further on: gone
        assert h.house["ann"] == {"q:p1": 5}

    asyncio.run(scenario())


def test_tables_waiting_for_players_are_counted_until_they_leave_the_lobby():
    h = Holdings(seats_per_client=0, house_seats_per_client=0, lobby_tables_per_client=2)
    waiting: set[str] = set()

    async def in_lobby(table: str, token: str | None) -> bool:
        return table in waiting

    async def scenario() -> None:
        for table in ("t1", "t2"):
            await h.room_for_lobby_table("ann", in_lobby)
            h.opened_table("ann", table)
            waiting.add(table)
        with pytest.raises(ApiError) as refused:
            await h.room_for_lobby_table("ann", in_lobby)
        assert refused.value.status == 429 and refused.value.code == "too_many_held"
        await h.room_for_lobby_table("bob", in_lobby)  # another address is not held back
        waiting.discard("t1")  # t1 started (or closed)
        await h.room_for_lobby_table("ann", in_lobby)
        assert list(h.lobby["ann"]) == ["t2"]

    asyncio.run(scenario())


def test_the_oldest_client_is_forgotten_past_the_books_size():
    h = Holdings(seats_per_client=1, house_seats_per_client=0)
    h.KEEP_CLIENTS = 2

    async def held(table: str, token: str | None) -> bool:
        return True

    for client in ("a", "b", "c"):
        asyncio.run(h.hold_seat(client, "t", "x", held))
    assert list(h.seats) == ["b", "c"]
