"""The Redis adapter of the read model: one hash per table (position + every view), replaced by
one Lua script run (atomic), which refuses a position not newer than the stored one and then
publishes a wake-up on the table's channel."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from gcbc.contract.ids import checked
from gcbc.readmodel.port import LobbyPage, ModelUnavailable

F = TypeVar("F", bound=Callable[..., Awaitable[Any]])

KEY = "gcbc:views:{table}"
LOBBY = "gcbc:lobby"  # table id -> summary of a table waiting for players
LOBBY_ORDER = "gcbc:lobby:order"  # the same ids, scored by the position they were first listed at
EPOCH = "gcbc:epoch"  # set by the projection: gone means the read model was wiped
CHANNEL = "gcbc:changed:{table}"

# KEYS[1] = the table's hash, KEYS[2] = the lobby, KEYS[3] = its order; ARGV[1] = position;
# ARGV[2] = channel;
# ARGV[3] = the wake-up message; ARGV[4] = the table id; ARGV[5] = its lobby summary ("": not
# listed); ARGV[6..] = field, value, ... The views, the listing and the wake-up: one atomic step.
_PUT = """
local stored = tonumber(redis.call('HGET', KEYS[1], 'position') or '0')
local position = tonumber(ARGV[1])
if stored >= position then return 0 end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'position', ARGV[1], unpack(ARGV, 6))
if ARGV[5] == '' then
  redis.call('HDEL', KEYS[2], ARGV[4])
  redis.call('ZREM', KEYS[3], ARGV[4])
else
  redis.call('HSET', KEYS[2], ARGV[4], ARGV[5])
  redis.call('ZADD', KEYS[3], 'NX', position, ARGV[4])
end
redis.call('PUBLISH', ARGV[2], ARGV[3])
return 1
"""


def _key(table: str) -> str:
    return KEY.format(table=checked(table))  # a wildcard or space could reach other keys


def wake_message(position: int, changed: list[str] | None) -> str:
    """``<position> <viewer,viewer,...>``; ``*``: every viewer may have changed, ``-``: none."""
    if changed is None:
        return f"{position} *"
    return f"{position} {','.join(changed) or '-'}"


def parse_wake(message: str) -> tuple[int, list[str] | None]:
    position, _, viewers = message.partition(" ")
    if viewers in ("*", ""):
        return int(position), None
    return int(position), [] if viewers == "-" else viewers.split(",")


def _unavailable(method: F) -> F:
    """Connection failures (once the pool's retries are spent) as ModelUnavailable."""

    @functools.wraps(method)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return await method(*args, **kwargs)
        except (RedisConnectionError, RedisTimeoutError, OSError) as e:
            raise ModelUnavailable(str(e) or type(e).__name__) from None

    return wrapper  # type: ignore[return-value]


def connection_pool(url: str, connections: int = 64) -> aioredis.BlockingConnectionPool:
    """A bounded pool that waits for a free connection (thousands of long-polls share it). A
    connection found dead (a restarted Redis) is retried on a new one, briefly, before an error."""
    return aioredis.BlockingConnectionPool.from_url(
        url,
        max_connections=connections,
        timeout=5,
        decode_responses=False,
        retry=Retry(ExponentialBackoff(cap=0.25, base=0.02), 3),
        retry_on_error=[RedisConnectionError, RedisTimeoutError],
        socket_connect_timeout=2,
        socket_timeout=5,  # a connection gone silent (a partition) fails instead of hanging
        health_check_interval=15,
    )


class RedisReadModel:
    def __init__(self, client: aioredis.Redis) -> None:
        self.redis = client
        self._put = client.register_script(_PUT)

    @classmethod
    def connect(cls, url: str, connections: int = 64) -> RedisReadModel:
        return cls(aioredis.Redis(connection_pool=connection_pool(url, connections)))

    async def close(self) -> None:
        await self.redis.aclose()

    @_unavailable
    async def put(
        self,
        table: str,
        views: dict[str, bytes],
        position: int,
        changed: list[str] | None = None,
        listing: bytes | None = None,
    ) -> bool:
        message = wake_message(position, changed)
        args: list[bytes | str | int] = [
            position,
            CHANNEL.format(table=checked(table)),
            message,
            table,
            listing or b"",
        ]
        for viewer, data in views.items():
            args += [viewer, data]
        return bool(await self._put(keys=[_key(table), LOBBY, LOBBY_ORDER], args=args))

    @_unavailable
    async def get(self, table: str, viewer: str) -> tuple[int, bytes] | None:
        position, data = await self.redis.hmget(_key(table), ["position", viewer])
        if position is None or data is None:
            return None
        return int(position), data

    @_unavailable
    async def position(self, table: str) -> int:
        position = await self.redis.hget(_key(table), "position")
        return int(position) if position is not None else 0

    @_unavailable
    async def delete(self, table: str) -> None:
        await self.redis.delete(_key(table))

    @_unavailable
    async def open_tables(self, limit: int = 50, after: int = 0) -> LobbyPage:
        found = await self.redis.zrangebyscore(
            LOBBY_ORDER, f"({after}", "+inf", start=0, num=limit + 1, withscores=True
        )
        page = found[:limit]
        if not page:
            return LobbyPage([], None)
        listings = await self.redis.hmget(LOBBY, [table for table, _ in page])
        more = int(page[-1][1]) if len(found) > limit else None
        return LobbyPage([x for x in listings if x is not None], more)

    @_unavailable
    async def claim_epoch(self) -> bool:
        """True if the read model had no epoch mark (new or wiped) and this call set it."""
        return bool(await self.redis.set(EPOCH, b"1", nx=True))
