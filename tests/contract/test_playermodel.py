"""One contract for the players' read model (gcbc.playermodel): the in-memory twin and Redis (one
server, and a cluster) keep players, their tables newest first and the position alike; a
rebuild's hold on the ratings refuses every other rating till it is released or expires, and its
ratings replace every rating at once, only while it holds them."""

from __future__ import annotations

import asyncio

import pytest

from gcbc.playermodel import redis as redis_model
from gcbc.playermodel.memory import MemoryPlayerModel
from gcbc.playermodel.port import PlayerRecord, Rating, RatingsHeld, RatingsMade
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

    async def emptied():
        """A model with no player and no rating (the Redis ones' keys of earlier tests dropped)."""
        model, views = make()
        if views is not None:
            for match in ("gcbc:player*", "gcbc:{ratings}:*"):
                async for key in views.redis.scan_iter(match=match):
                    await views.redis.delete(key)
        return model, views

    return emptied


def run(coro):
    return asyncio.run(coro)


def test_players_their_tables_and_the_position_are_kept_and_removed(model_factory):
    async def go():
        model, views = await model_factory()
        try:
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
            got = await model.records([bob.player_id, "c" * 16, ann.player_id])
            assert got == {bob.player_id: bob, ann.player_id: ann}
            assert await model.records([]) == {}
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
        finally:
            if views is not None:
                await views.close()

    run(go())


def test_a_rated_tables_ratings_are_written_once_in_order_and_ranked(model_factory):
    async def go():
        model, views = await model_factory()
        try:
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
        finally:
            if views is not None:
                await views.close()

    run(go())


def test_a_rebuild_holds_the_ratings_and_every_other_rating_waits_till_it_is_released(
    model_factory,
):
    async def go():
        model, views = await model_factory()
        try:
            one = {"a" * 16: Rating(mu=26.0, sigma=8.0, games=1)}
            assert await model.hold_ratings("rebuild:a", 10)
            assert await model.hold_ratings("rebuild:a", 10)  # renewed
            assert not await model.hold_ratings("rebuild:b", 10)  # one rebuild at a time
            with pytest.raises(RatingsHeld):  # the projection, meanwhile: nothing written
                await model.rate_table(20, "base", "1" * 16, one, {})
            assert await model.rated_position() == 0 and await model.changes("1" * 16) == {}
            with pytest.raises(RatingsHeld):  # not its hold: nothing replaced
                await model.replace_ratings(RatingsMade(10, {"base": one}), "rebuild:b")
            await model.replace_ratings(RatingsMade(10, {"base": one}), "rebuild:a")
            await model.release_ratings("rebuild:b")  # not its hold: nothing
            with pytest.raises(RatingsHeld):
                await model.rate_table(20, "base", "1" * 16, one, {})
            await model.release_ratings("rebuild:a")
            assert await model.rate_table(20, "base", "1" * 16, one, {})
            with pytest.raises(RatingsHeld):  # a hold it lost: nothing replaced
                await model.replace_ratings(RatingsMade(), "rebuild:a")
            assert await model.hold_ratings("rebuild:b", 0.2)
            await asyncio.sleep(0.4)  # a rebuild that stopped: its hold expires
            assert await model.rate_table(30, "base", "3" * 16, one, {})
            assert await model.rated_position() == 30
        finally:
            if views is not None:
                await views.close()

    run(go())


def test_a_rebuilds_ratings_replace_every_rating_at_once(model_factory, monkeypatch):
    monkeypatch.setattr(redis_model, "_BATCH", 2)  # a pool written in parts, as a large one is

    async def go():
        model, views = await model_factory()
        try:
            raters = {f"{i:016x}": Rating(mu=20.0 + i, sigma=7.0, games=i) for i in range(5)}
            old = {r: Rating(mu=30.0, sigma=5.0, games=9) for r in ["f" * 16, *raters]}
            assert await model.rate_table(50, "zombies", "1" * 16, old, {"f" * 16: 2.0})
            assert await model.rate_table(60, "base", "2" * 16, old, {"f" * 16: 3.0})
            if views is not None:  # a rebuild that stopped after staging: its keys go first
                await views.redis.hset(f"{redis_model.STAGED}zombies", "e" * 16, "{}")
            made = RatingsMade(
                40, {"base": raters, "zombies": {}}, {"3" * 16: {"0" * 16: -1.0, "1" * 16: 1.0}}
            )
            assert await model.hold_ratings("rebuild:c", 10)
            await model.replace_ratings(made, "rebuild:c")
            await model.release_ratings("rebuild:c")
            ranked = sorted(raters.items(), key=lambda item: item[1].ordinal, reverse=True)
            assert await model.leaderboard("base") == ranked
            assert await model.ratings("base", ["f" * 16, *raters]) == raters
            assert await model.leaderboard("zombies") == []
            assert await model.changes("1" * 16) == {} and await model.changes("2" * 16) == {}
            assert await model.changes("3" * 16) == {"0" * 16: -1.0, "1" * 16: 1.0}
            assert await model.rated_position() == 40
            assert not await model.rate_table(40, "base", "4" * 16, old, {})  # rated by it
            if views is not None:
                assert [
                    k async for k in views.redis.scan_iter(match=f"{redis_model.STAGED}*")
                ] == []
        finally:
            if views is not None:
                await views.close()

    run(go())
