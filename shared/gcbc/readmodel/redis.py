"""The Redis adapter of the read model: one hash per table (position + every view), replaced by
one Lua script run (atomic), which refuses a position not newer than the stored one and then
publishes a wake-up on the table's channel."""

from __future__ import annotations

import redis.asyncio as aioredis

KEY = "gcbc:views:{table}"
LOBBY = "gcbc:lobby"  # table id -> summary of a table waiting for players
EPOCH = "gcbc:epoch"  # set by the projection: gone means the read model was wiped
CHANNEL = "gcbc:changed:{table}"

# KEYS[1] = the table's hash, KEYS[2] = the lobby; ARGV[1] = position; ARGV[2] = channel;
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
else
  redis.call('HSET', KEYS[2], ARGV[4], ARGV[5])
end
redis.call('PUBLISH', ARGV[2], ARGV[3])
return 1
"""


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


class RedisReadModel:
    def __init__(self, client: aioredis.Redis) -> None:
        self.redis = client
        self._put = client.register_script(_PUT)

    @classmethod
    def connect(cls, url: str, connections: int = 64) -> RedisReadModel:
        # a bounded pool that waits for a free connection: thousands of long-polls share it
        pool = aioredis.BlockingConnectionPool.from_url(
            url, max_connections=connections, timeout=30, decode_responses=False
        )
        return cls(aioredis.Redis(connection_pool=pool))

    async def close(self) -> None:
        await self.redis.aclose()

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
            CHANNEL.format(table=table),
            message,
            table,
            listing or b"",
        ]
        for viewer, data in views.items():
            args += [viewer, data]
        return bool(await self._put(keys=[KEY.format(table=table), LOBBY], args=args))

    async def get(self, table: str, viewer: str) -> tuple[int, bytes] | None:
        position, data = await self.redis.hmget(KEY.format(table=table), ["position", viewer])
        if position is None or data is None:
            return None
        return int(position), data

    async def position(self, table: str) -> int:
        position = await self.redis.hget(KEY.format(table=table), "position")
        return int(position) if position is not None else 0

    async def delete(self, table: str) -> None:
        await self.redis.delete(KEY.format(table=table))

    async def open_tables(self) -> list[bytes]:
        return list((await self.redis.hgetall(LOBBY)).values())

    async def claim_epoch(self) -> bool:
        """True if the read model had no epoch mark (new or wiped) and this call set it."""
        return bool(await self.redis.set(EPOCH, b"1", nx=True))
