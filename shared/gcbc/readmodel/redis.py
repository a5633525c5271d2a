"""The Redis adapter of the read model: one hash per table (position, every view, the recent
answers per viewer), replaced by one Lua script run (atomic), which refuses a position not newer
than the stored one and then publishes a wake-up on the table's channel (``wakeups``). A finished
table's hash expires (``finished_ttl``); its ``seated`` record is a key of its own, kept."""

from __future__ import annotations

import time

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from gcbc.readmodel.pipelined import PipelinedRedis
from gcbc.readmodel.port import (
    LobbyPage,
    ModelStatus,
    Replacement,
)
from gcbc.readmodel.redisbase import RedisViews, unavailable, view_fields
from gcbc.readmodel.rediscluster import RedisClusterReadModel, is_cluster_url
from gcbc.readmodel.wakeups import CHANNEL, Wakeups
from gcbc_contract.ids import checked

KEY = "gcbc:views:{table}"
SEATED = "gcbc:seated:{table}"  # a finished table's players and their seats, kept for good
LOBBY = "gcbc:lobby"  # table id -> summary of a table waiting for players
LOBBY_ORDER = "gcbc:lobby:order"  # the same ids, scored by the position they were first listed at
EPOCH = "gcbc:epoch"  # set by the projection: gone means the read model was wiped
STATUS = "gcbc:tables"  # table id -> lobby | playing | finished
COUNTS = "gcbc:tables:count"  # status -> its number of tables
POSITION = "gcbc:position"  # the newest position written

# KEYS[1] = the table's hash, KEYS[2] = the lobby, KEYS[3] = its order, KEYS[4] = the status
# index, KEYS[5] = its counts, KEYS[6] = the newest position, KEYS[7] = its seated record;
# ARGV[1] = position; ARGV[2] = channel; ARGV[3] = the wake-up message; ARGV[4] = the table id;
# ARGV[5] = its lobby summary ("": not listed); ARGV[6] = its status ("": as it is); ARGV[7] = when
# to write: "newer" (put), "not older" (replace), "always", or "on <base>" (a put of the views
# changed since the writer's own put at position <base>: written only if that is still what the
# hash holds, and only over those fields); ARGV[8] = milliseconds the hash is kept ("0": for
# good), counted from the first write that asks it (a later write keeps what is left of it); a
# put ("newer") of a finished table that holds no views (they expired, or were left to be made
# from the log) writes its position alone, kept for good, so that a late entry (a chat after the
# end) never brings them back and its readers see the table moved; ARGV[9] = the seated record
# ("": none); ARGV[10..] = field, value, ... The views, the listing, the index and the wake-up:
# one atomic step.
_PUT = """
local stored = tonumber(redis.call('HGET', KEYS[1], 'position') or '0')
local position = tonumber(ARGV[1])
if ARGV[7] == 'newer' and stored >= position then return 0 end
if ARGV[7] == 'not older' and stored > position then return 0 end
local base = string.match(ARGV[7], '^on (%d+)$')
local left = redis.call('PTTL', KEYS[1])
local viewless = ARGV[7] == 'newer' and ARGV[8] ~= '0' and redis.call('EXISTS', KEYS[7]) == 1
  and redis.call('HEXISTS', KEYS[1], 'public') == 0
if base then
  if stored ~= tonumber(base) or stored >= position then return 0 end
else
  redis.call('DEL', KEYS[1])
end
if viewless then
  redis.call('HSET', KEYS[1], 'position', ARGV[1])  -- kept: its readers see the table moved
else
  redis.call('HSET', KEYS[1], 'position', ARGV[1], unpack(ARGV, 10))
  if ARGV[8] ~= '0' then redis.call('PEXPIRE', KEYS[1], left > 0 and left or ARGV[8]) end
end
if ARGV[9] ~= '' then redis.call('SET', KEYS[7], ARGV[9]) end
if ARGV[6] ~= '' then
  local old = redis.call('HGET', KEYS[4], ARGV[4])
  if old ~= ARGV[6] then
    redis.call('HSET', KEYS[4], ARGV[4], ARGV[6])
    if old then redis.call('HINCRBY', KEYS[5], old, -1) end
    redis.call('HINCRBY', KEYS[5], ARGV[6], 1)
  end
end
if position > tonumber(redis.call('GET', KEYS[6]) or '0') then
  redis.call('SET', KEYS[6], ARGV[1])
end
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


# KEYS as _PUT's; ARGV[1] = the table id: its views, listing, record and place in the index, gone
_DELETE = """
redis.call('DEL', KEYS[1], KEYS[7])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
local old = redis.call('HGET', KEYS[4], ARGV[1])
if old then
  redis.call('HDEL', KEYS[4], ARGV[1])
  redis.call('HINCRBY', KEYS[5], old, -1)
end
return 1
"""


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


class RedisReadModel(RedisViews):
    KEY = KEY  # a table's hash (a cluster's puts the table id in a hash tag)
    SEATED = SEATED
    INDEXED = {"listing": LOBBY, "status": STATUS}

    def __init__(
        self,
        client: aioredis.Redis,
        wakeups_client: aioredis.Redis | None = None,
        fast: PipelinedRedis | None = None,
        finished_ttl: float | None = None,
    ) -> None:
        self.redis = client
        self.finished_ttl = finished_ttl
        # the hot calls (a view's read, a change's write) on one pipelined connection, when given
        self.fast = fast
        self._put = client.register_script(_PUT)
        self._delete = client.register_script(_DELETE)
        self.wakeups = Wakeups(wakeups_client or client, self._fields)

    @classmethod
    def connect(
        cls, url: str, connections: int = 64, finished_ttl: float | None = None
    ) -> RedisViews:
        """``redis://…``: one Redis; ``redis+cluster://user:pw@host:port,host:port``: a Redis
        Cluster (gcbc.readmodel.rediscluster), the same ports on another key layout.
        ``finished_ttl``: how long a finished table's views stay (None: for good)."""
        if is_cluster_url(url):
            return RedisClusterReadModel.connect(url, connections, finished_ttl)
        listener = aioredis.Redis.from_url(
            url, socket_keepalive=True, health_check_interval=10, socket_connect_timeout=2
        )
        client = aioredis.Redis(connection_pool=connection_pool(url, connections))
        return cls(client, listener, PipelinedRedis(url), finished_ttl)

    async def _write_tables(self, writes: list[tuple[Replacement, str, str]]) -> list[bool]:
        """One pipeline (one round trip), each table one script run."""
        calls = [
            (
                [
                    *(self._key(item.table), LOBBY, LOBBY_ORDER, STATUS, COUNTS, POSITION),
                    self._seated_key(item.table),
                ],
                [
                    item.position,
                    CHANNEL.format(table=checked(item.table)),
                    message,
                    item.table,
                    item.listing or b"",
                    item.status or "",
                    when,
                    *self._kept(item),
                    *view_fields(item.views, item.answers),
                ],
            )
            for item, when, message in writes
        ]
        return [bool(x) for x in await self._scripts(self._put, calls)]

    @unavailable
    async def status(self) -> ModelStatus:
        epoch, position, counts = await (
            self.redis.pipeline(transaction=False).get(EPOCH).get(POSITION).hgetall(COUNTS)
        ).execute()
        return self._status([epoch], position, counts)

    @unavailable
    async def delete(self, table: str) -> None:
        keys = [self._key(table), LOBBY, LOBBY_ORDER, STATUS, COUNTS, POSITION]
        await self._delete(keys=[*keys, self._seated_key(table)], args=[table])

    @unavailable
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

    @unavailable
    async def claim_epoch(self, seconds: float | None = None) -> bool:
        """True if the read model had no epoch mark (new or wiped) and this call set it."""
        ms = None if seconds is None else max(1, int(seconds * 1000))
        return bool(await self.redis.set(EPOCH, str(time.time()).encode(), nx=True, px=ms))

    @unavailable
    async def keep_epoch(self, seconds: float | None) -> None:
        if seconds is None:
            await self.redis.persist(EPOCH)
        else:
            await self.redis.pexpire(EPOCH, max(1, int(seconds * 1000)))
