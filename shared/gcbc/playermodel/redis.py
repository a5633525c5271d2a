"""The players' read model in the read model's Redis (or Redis Cluster: one key per command).

Keys: ``gcbc:player:<id>`` a player's record (JSON); ``gcbc:player-tables:<id>`` its tables (a
sorted set, scored by the position each was joined at); ``gcbc:players`` every player (a sorted
set scored by the position it registered at); ``gcbc:players:position`` how far the projection
got. Ratings (services.common.ratings) share one hash slot, ``gcbc:{ratings}:…``, so each rated
table's writes are one atomic script, on a cluster too: ``…:<pool>`` each rater's rating (JSON),
``…:board:<pool>`` the pool's leaderboard (a sorted set by ordinal), ``…:changes:<table>`` each
rater's change at a table, ``…:position`` the last rated table's position, ``…:hold`` who holds
the ratings (a rebuild; it expires), ``…:staged:…`` a rebuild's ratings, each under the name it
takes when they are put in place."""

from __future__ import annotations

from typing import Any

import msgspec

from gcbc.playermodel.port import POOLS, PlayerRecord, Rating, RatingsHeld, RatingsMade
from gcbc.readmodel.port import ModelUnavailable
from gcbc.readmodel.redisbase import UNREACHABLE, text
from gcbc_contract.ids import checked

PLAYERS = "gcbc:players"
POSITION = "gcbc:players:position"
_ADVANCE = """
local now = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) > now then redis.call('SET', KEYS[1], ARGV[1]) end
return 1
"""
RATED = "gcbc:{ratings}:position"
HOLD = "gcbc:{ratings}:hold"
_RATE = """
if redis.call('EXISTS', KEYS[5]) == 1 then return -1 end
local now = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) <= now then return 0 end
local n = tonumber(ARGV[2])
for i = 0, n - 1 do
  local rater, rating, ordinal, change = ARGV[3 + 4*i], ARGV[4 + 4*i], ARGV[5 + 4*i], ARGV[6 + 4*i]
  redis.call('HSET', KEYS[2], rater, rating)
  redis.call('ZADD', KEYS[3], ordinal, rater)
  redis.call('HSET', KEYS[4], rater, change)
end
redis.call('SET', KEYS[1], ARGV[1])
return 1
"""
SLOT = "gcbc:{ratings}:"  # every key of the ratings: one hash slot
STAGED = f"{SLOT}staged:"
# KEYS: the hold, the rated position, then ARGV[3] live keys to drop, then each staged key and
# the live key it becomes; ARGV: the holder, the position, the number dropped
_REPLACE = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return -1 end
local dropped = tonumber(ARGV[3])
for i = 3, 2 + dropped do redis.call('DEL', KEYS[i]) end
for i = 3 + dropped, #KEYS, 2 do redis.call('RENAME', KEYS[i], KEYS[i + 1]) end
redis.call('SET', KEYS[2], ARGV[2])
return 1
"""
_BATCH = 1000  # staged writes sent at once
_HOLD = """
local hold = redis.call('GET', KEYS[1])
if hold and hold ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
"""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
"""
_record = msgspec.json.Decoder(PlayerRecord)
_rating = msgspec.json.Decoder(Rating)
_encode = msgspec.json.Encoder().encode


def _player_key(player_id: str) -> str:
    return f"gcbc:player:{checked(player_id)}"


def _ratings_key(pool: str) -> str:
    return f"gcbc:{{ratings}}:{pool}"


def _board_key(pool: str) -> str:
    return f"gcbc:{{ratings}}:board:{pool}"


def _changes_key(table_id: str) -> str:
    return f"gcbc:{{ratings}}:changes:{checked(table_id)}"


def _tables_key(player_id: str) -> str:
    return f"gcbc:player-tables:{checked(player_id)}"


class RedisPlayerModel:
    def __init__(self, redis: Any) -> None:
        self.redis = redis  # the read model's client (redis.asyncio: Redis or RedisCluster)

    async def _do(self, call: Any) -> Any:
        try:
            return await call
        except UNREACHABLE as e:
            raise ModelUnavailable(str(e) or type(e).__name__) from None

    async def put_player(self, record: PlayerRecord) -> None:
        await self._do(self.redis.set(_player_key(record.player_id), _encode(record)))
        await self._do(self.redis.zadd(PLAYERS, {record.player_id: record.registered}))

    async def remove_player(self, player_id: str) -> None:
        await self._do(self.redis.zrem(PLAYERS, player_id))
        await self._do(self.redis.delete(_player_key(player_id)))
        await self._do(self.redis.delete(_tables_key(player_id)))

    async def joined(self, player_id: str, table_id: str, position: int) -> None:
        await self._do(self.redis.zadd(_tables_key(player_id), {checked(table_id): position}))

    async def advance(self, position: int) -> None:
        await self._do(self.redis.eval(_ADVANCE, 1, POSITION, position))

    async def position(self) -> int:
        got = await self._do(self.redis.get(POSITION))
        return int(got) if got else 0

    async def player(self, player_id: str) -> PlayerRecord | None:
        got = await self._do(self.redis.get(_player_key(player_id)))
        return _record.decode(got) if got else None

    async def records(self, player_ids: list[str]) -> dict[str, PlayerRecord]:
        """One round trip: a pipeline of gets (a cluster's sends each node its share)."""
        if not player_ids:
            return {}
        pipe = self.redis.pipeline()
        for player_id in player_ids:
            pipe.get(_player_key(player_id))
        got = await self._do(pipe.execute())
        return {p: _record.decode(g) for p, g in zip(player_ids, got, strict=True) if g}

    async def tables(
        self, player_id: str, limit: int = 50, before: int | None = None
    ) -> list[tuple[str, int]]:
        top = "+inf" if before is None else f"({before}"
        key = _tables_key(player_id)
        got = await self._do(
            self.redis.zrevrangebyscore(key, top, "-inf", start=0, num=limit, withscores=True)
        )
        return [(text(t), int(score)) for t, score in got]

    async def players(self, limit: int = 100, after: int = 0) -> list[PlayerRecord]:
        ids = [
            text(player_id)
            for player_id in await self._do(
                self.redis.zrangebyscore(PLAYERS, f"({after}", "+inf", start=0, num=limit)
            )
        ]
        records = await self.records(ids)
        return [records[player_id] for player_id in ids if player_id in records]

    async def count(self) -> int:
        return int(await self._do(self.redis.zcard(PLAYERS)))

    async def ratings(self, pool: str, raters: list[str]) -> dict[str, Rating]:
        if not raters:
            return {}
        got = await self._do(self.redis.hmget(_ratings_key(pool), raters))
        return {r: _rating.decode(g) for r, g in zip(raters, got, strict=True) if g}

    async def rate_table(
        self,
        position: int,
        pool: str,
        table_id: str,
        ratings: dict[str, Rating],
        changes: dict[str, float],
    ) -> bool:
        args: list[Any] = [position, len(ratings)]
        for rater, rating in ratings.items():
            args += [rater, _encode(rating), repr(rating.ordinal), repr(changes.get(rater, 0.0))]
        keys = [RATED, _ratings_key(pool), _board_key(pool), _changes_key(table_id), HOLD]
        done = await self._do(self.redis.eval(_RATE, len(keys), *keys, *args))
        if done == -1:
            raise RatingsHeld("the ratings are held by a rebuild")
        return bool(done)

    async def hold_ratings(self, holder: str, seconds: float) -> bool:
        ms = max(1, int(seconds * 1000))
        return bool(await self._do(self.redis.eval(_HOLD, 1, HOLD, holder, ms)))

    async def release_ratings(self, holder: str) -> None:
        await self._do(self.redis.eval(_RELEASE, 1, HOLD, holder))

    async def rated_position(self) -> int:
        got = await self._do(self.redis.get(RATED))
        return int(got) if got else 0

    async def leaderboard(
        self, pool: str, limit: int = 50, offset: int = 0
    ) -> list[tuple[str, Rating]]:
        got = await self._do(self.redis.zrevrange(_board_key(pool), offset, offset + limit - 1))
        raters = [text(r) for r in got]
        held = await self.ratings(pool, raters)
        return [(r, held[r]) for r in raters if r in held]

    async def changes(self, table_id: str) -> dict[str, float]:
        got = await self._do(self.redis.hgetall(_changes_key(table_id)))
        return {text(k): float(v) for k, v in got.items()}

    async def replace_ratings(self, made: RatingsMade, holder: str) -> None:
        """Staged beside the ratings in use (a stopped rebuild's staged keys dropped first), then
        put in their place by one script: every key shares the ratings' slot, so a cluster runs
        it whole on one node."""
        await self._drop(f"{STAGED}*")
        moves: dict[str, str] = {}  # each staged key: the live key it becomes
        pipe, queued = self.redis.pipeline(), 0
        for live, mapping, board in _staged(made):
            staged = STAGED + live.removeprefix(SLOT)
            if board:
                pipe.zadd(staged, mapping)
            else:
                pipe.hset(staged, mapping=mapping)
            moves[staged] = live
            queued += 1
            if queued == _BATCH:
                await self._do(pipe.execute())
                pipe, queued = self.redis.pipeline(), 0
        if queued:
            await self._do(pipe.execute())
        dropped = [key for pool in POOLS for key in (_ratings_key(pool), _board_key(pool))]
        dropped += [key async for key in self._keys("gcbc:{ratings}:changes:*")]
        keys = [HOLD, RATED, *dropped, *(key for move in moves.items() for key in move)]
        args = [holder, made.position, len(dropped)]
        if await self._do(self.redis.eval(_REPLACE, len(keys), *keys, *args)) == -1:
            raise RatingsHeld("the rebuild does not hold the ratings")

    async def _keys(self, match: str) -> Any:
        """The keys of the ratings' slot that ``match`` (SCAN; a cluster: on its node)."""
        try:
            async for key in self.redis.scan_iter(match=match, count=1000):
                yield text(key)
        except UNREACHABLE as e:
            raise ModelUnavailable(str(e) or type(e).__name__) from None

    async def _drop(self, match: str) -> None:
        for key in [key async for key in self._keys(match)]:
            await self._do(self.redis.delete(key))


def _staged(made: RatingsMade) -> Any:
    """Each live key a rebuild's ratings write, with what it holds, in parts small enough to
    send at once, and whether it is a board (a sorted set; the others are hashes)."""
    for pool, raters in made.pools.items():
        items = list(raters.items())
        for i in range(0, len(items), _BATCH):
            part = items[i : i + _BATCH]
            yield _ratings_key(pool), {r: _encode(x) for r, x in part}, False
            yield _board_key(pool), {r: x.ordinal for r, x in part}, True
    for table, changes in made.changes.items():
        if changes:
            yield _changes_key(table), {r: repr(c) for r, c in changes.items()}, False
