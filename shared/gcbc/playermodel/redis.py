"""The players' read model in the read model's Redis (or Redis Cluster: one key per command).

Keys: ``gcbc:player:<id>`` a player's record (JSON); ``gcbc:player-tables:<id>`` its tables (a
sorted set, scored by the position each was joined at); ``gcbc:players`` every player (a sorted
set scored by the position it registered at); ``gcbc:players:position`` how far the projection
got."""

from __future__ import annotations

from typing import Any

import msgspec
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from gcbc.playermodel.port import PlayerRecord
from gcbc.readmodel.port import ModelUnavailable
from gcbc_contract.ids import checked

PLAYERS = "gcbc:players"
POSITION = "gcbc:players:position"
_ADVANCE = """
local now = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) > now then redis.call('SET', KEYS[1], ARGV[1]) end
return 1
"""
_record = msgspec.json.Decoder(PlayerRecord)
_encode = msgspec.json.Encoder().encode


def _player_key(player_id: str) -> str:
    return f"gcbc:player:{checked(player_id)}"


def _tables_key(player_id: str) -> str:
    return f"gcbc:player-tables:{checked(player_id)}"


class RedisPlayerModel:
    def __init__(self, redis: Any) -> None:
        self.redis = redis  # the read model's client (redis.asyncio: Redis or RedisCluster)

    async def _do(self, call: Any) -> Any:
        try:
            return await call
        except (RedisConnectionError, RedisTimeoutError, OSError) as e:
            raise ModelUnavailable(str(e) or type(e).__name__) from None

    async def put_player(self, record: PlayerRecord) -> None:
        await self._do(self.redis.set(_player_key(record.player_id), _encode(record)))
        await self._do(self.redis.zadd(PLAYERS, {record.player_id: record.registered}))

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

    async def tables(
        self, player_id: str, limit: int = 50, before: int | None = None
    ) -> list[tuple[str, int]]:
        top = "+inf" if before is None else f"({before}"
        got = await self._do(
            self.redis.zrevrangebyscore(
                _tables_key(player_id), top, "-inf", start=0, num=limit, withscores=True
            )
        )
        return [(t.decode() if isinstance(t, bytes) else t, int(score)) for t, score in got]

    async def players(self, limit: int = 100, after: int = 0) -> list[PlayerRecord]:
        ids = await self._do(
            self.redis.zrangebyscore(PLAYERS, f"({after}", "+inf", start=0, num=limit)
        )
        out = []
        for player_id in ids:
            record = await self.player(
                player_id.decode() if isinstance(player_id, bytes) else player_id
            )
            if record is not None:
                out.append(record)
        return out

    async def count(self) -> int:
        return int(await self._do(self.redis.zcard(PLAYERS)))

    async def clear(self) -> None:
        ids = await self._do(self.redis.zrange(PLAYERS, 0, -1))
        for player_id in ids:
            pid = player_id.decode() if isinstance(player_id, bytes) else player_id
            await self._do(self.redis.delete(_player_key(pid)))
            await self._do(self.redis.delete(_tables_key(pid)))
        await self._do(self.redis.delete(PLAYERS))
        await self._do(self.redis.delete(POSITION))
