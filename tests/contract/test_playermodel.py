"""One contract for the players' read model (gcbc.playermodel): the in-memory twin and Redis (one
server, and a cluster) keep players, their tables newest first and the position alike, and
forget it all on a clear; a rebuild's hold on the ratings refuses every other rating till it is
released or expires."""

from __future__ import annotations

import asyncio

import pytest

from gcbc.playermodel.memory import MemoryPlayerModel
from gcbc.playermodel.port import PlayerRecord, Rating, RatingsHeld
from gcbc.playermodel.redis import RedisPlayerModel
from gcbc.readmodel.redis import RedisReadModel


@pytest.fixture(params=["memory", "redis", "redis-cluster"])
def model_factory(request):
    def make():
        if request.param == "memory":
            return MemoryPlayerModel(), None
        if request.param == "redis-cluster":
            views = RedisReadModel.connect(request.getfixturevalue("redis_cluster").url)
        else:
            views = RedisReadModel.connect(
                request.getfixturevalue("redis_url").rsplit("/", 1)[0] + "/14"
            )
        return RedisPlayerModel(views.redis), views

    return make


def run(coro):
    return asyncio.run(coro)


def test_players_their_tables_and_the_position_are_kept_removed_and_cleared(model_factory):
    async def go():
        model, views = model_factory()
        try:
            await model.clear()
            ann = PlayerRecord(player_id="a" * 16, name="ann", registered=3)
            bob = PlayerRecord(player_id="b" * 16, name="bob", bot=True, registered=5)
            for record in (bob, ann, bob):  # again: the same
                await model.put_player(record)
            await model.joined(ann.player_id, "1" * 16, 7)
            await model.joined(ann.player_id, "2" * 16, 9)
            await model.joined(ann.player_id, "1" * 16, 7)
            await model.advance(9)
            await model.advance(4)  # never back
            assert await model.player(bob.player_id) == bob
            assert await model.player("c" * 16) is None
            assert await model.players() == [ann, bob]
            assert await model.players(limit=1, after=3) == [bob]
            assert await model.tables(ann.player_id) == [("2" * 16, 9), ("1" * 16, 7)]
            assert await model.tables(ann.player_id, limit=1) == [("2" * 16, 9)]
            assert await model.tables(ann.player_id, before=9) == [("1" * 16, 7)]
            assert await model.tables(ann.player_id, before=7) == []
            assert (await model.count(), await model.position()) == (2, 9)
            for _ in range(2):  # a withdrawn registration: gone (again: the same)
                await model.remove_player(bob.player_id)
            assert await model.player(bob.player_id) is None
            assert await model.players() == [ann] and await model.count() == 1
            await model.clear()
            assert (await model.count(), await model.position()) == (0, 0)
            assert await model.player(ann.player_id) is None
            assert await model.tables(ann.player_id) == []
        finally:
            if views is not None:
                await views.close()

    run(go())


def test_a_rated_tables_ratings_are_written_once_in_order_and_ranked(model_factory):
    async def go():
        model, views = model_factory()
        try:
            await model.clear_ratings()
            ann, bob = "a" * 16, "house:random"
            first = {
                ann: Rating(mu=27.0, sigma=8.0, games=1),
                bob: Rating(mu=23.0, sigma=8.0, games=1),
            }
            assert await model.rate_table(10, "base", "1" * 16, first, {ann: 1.5, bob: -1.5})
            again = {ann: Rating(mu=1.0, sigma=1.0, games=9)}
            assert not await model.rate_table(10, "base", "1" * 16, again, {})  # redelivered
            assert not await model.rate_table(9, "zombies", "2" * 16, again, {})  # out of order
            assert await model.rated_position() == 10
            assert await model.ratings("base", [ann, bob, "c" * 16]) == first
            assert await model.ratings("zombies", [ann]) == {}
            assert await model.leaderboard("base") == [(ann, first[ann]), (bob, first[bob])]
            assert await model.leaderboard("base", limit=1, offset=1) == [(bob, first[bob])]
            assert await model.changes("1" * 16) == {ann: 1.5, bob: -1.5}
            assert await model.changes("2" * 16) == {}
            await model.clear_ratings()
            assert await model.rated_position() == 0
            assert await model.leaderboard("base") == []
            assert await model.changes("1" * 16) == {}
        finally:
            if views is not None:
                await views.close()

    run(go())


def test_a_rebuild_holds_the_ratings_and_every_other_rating_waits_till_it_is_released(
    model_factory,
):
    async def go():
        model, views = model_factory()
        try:
            await model.clear_ratings()
            await model.release_ratings("rebuild:a")
            await model.release_ratings("rebuild:b")
            one = {"a" * 16: Rating(mu=26.0, sigma=8.0, games=1)}
            assert await model.hold_ratings("rebuild:a", 10)
            assert await model.hold_ratings("rebuild:a", 10)  # renewed
            assert not await model.hold_ratings("rebuild:b", 10)  # one rebuild at a time
            with pytest.raises(RatingsHeld):  # the projection, meanwhile: nothing written
                await model.rate_table(20, "base", "1" * 16, one, {})
            with pytest.raises(RatingsHeld):
                await model.rate_table(20, "base", "1" * 16, one, {}, holder="rebuild:b")
            assert await model.rated_position() == 0 and await model.changes("1" * 16) == {}
            assert await model.rate_table(10, "base", "2" * 16, one, {}, holder="rebuild:a")
            await model.release_ratings("rebuild:b")  # not its hold: nothing
            with pytest.raises(RatingsHeld):
                await model.rate_table(20, "base", "1" * 16, one, {})
            await model.release_ratings("rebuild:a")
            assert await model.rate_table(20, "base", "1" * 16, one, {})
            with pytest.raises(RatingsHeld):  # a hold it lost: its writes are refused
                await model.rate_table(30, "base", "3" * 16, one, {}, holder="rebuild:a")
            assert await model.hold_ratings("rebuild:b", 0.2)
            await asyncio.sleep(0.4)  # a rebuild that stopped: its hold expires
            assert await model.rate_table(30, "base", "3" * 16, one, {})
            assert await model.rated_position() == 30
            await model.clear_ratings()
        finally:
            if views is not None:
                await views.close()

    run(go())
