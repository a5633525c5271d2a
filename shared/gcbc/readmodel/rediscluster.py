"""The read model on a Redis Cluster the same ports as ``redis.RedisReadModel``, with a
key layout the cluster accepts.

One table, one slot: its hash ``gcbc:views:{<table>}`` holds its position, views and answers and
also its lobby listing (``listing``, ``listed``: the position it was first listed at) and its
``status``; a put is one script on that one node, which then wakes the table's watchers with a
sharded publish on ``gcbc:changed:{<table>}`` (same slot).

The global things (the lobby's order, the status index and its counts, the newest position) live
together under the ``{gcbc}`` hash tag, one slot, in an *index* that is derived from the table
hashes and never their source: after each table write, a second script brings the index up to
what the table hash now says (``at``: the position the index reflects per table; an older one is
refused, an equal one rewritten, so a redelivery repeats it harmlessly). The projection is the
only writer, so a crash between the two steps is mended by the table's next put (a redelivery
included: the follow-up runs whether or not the table write did) or by a rebuild. The lobby reads
each listing from its table's hash, so a page never shows a table that does not exist, even if the
order still names it.

Epoch: one mark per primary node and one beside the index, so a single node restarted empty is
noticed; if the index's own mark is gone the index is rebuilt from the table hashes.

Wake-ups: sharded, subscribed per watched table (``clusterwakeups``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any
from urllib.parse import unquote, urlsplit

from redis.asyncio.cluster import ClusterNode
from redis.asyncio.cluster import RedisCluster as AsyncRedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.crc import key_slot
from redis.exceptions import (
    ClusterDownError,
    ClusterError,
    NoScriptError,
    RedisClusterException,
    SlotNotCoveredError,
    TryAgainError,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from gcbc.readmodel.clusterwakeups import CHANNEL, ShardedWakeups
from gcbc.readmodel.port import (
    LobbyPage,
    ModelStatus,
    Replacement,
)
from gcbc.readmodel.redisbase import RedisViews, text, unavailable, view_fields
from gcbc_contract.ids import checked

log = logging.getLogger("gcbc.readmodel")
UNREACHABLE = (
    RedisConnectionError,
    RedisTimeoutError,
    ClusterError,  # the cluster down, a slot not covered, MOVED/ASK past the client's retries
    SlotNotCoveredError,
    TryAgainError,
    RedisClusterException,  # no startup node reachable
    OSError,
)


SCHEME = "redis+cluster://"  # the URL of a cluster: redis+cluster://user:pw@host:port,host:port
KEY = "gcbc:views:{{{table}}}"  # gcbc:views:{<table>}: the table id is the hash tag
SEATED = "gcbc:seated:{{{table}}}"  # its seated record, in the same slot
INDEX_TAG = "{gcbc}"
AT = f"gcbc:{INDEX_TAG}:at"  # table -> the position the index reflects
STATUS = f"gcbc:{INDEX_TAG}:tables"  # table -> lobby | playing | finished
COUNTS = f"gcbc:{INDEX_TAG}:count"  # status -> its number of tables
ORDER = f"gcbc:{INDEX_TAG}:lobby"  # listed tables, scored by the position first listed at
POSITION = f"gcbc:{INDEX_TAG}:position"  # the newest position written
INDEX_KEYS = [AT, STATUS, COUNTS, ORDER, POSITION]
EPOCH = "gcbc:epoch:{{{tag}}}"  # one per primary (a tag hashed into its slots) and the index's

# KEYS[1] = the table's hash, KEYS[2] = its seated record; ARGV[1] = position, ARGV[2] = channel,
# ARGV[3] = wake-up message, ARGV[4] = lobby listing ("": not listed), ARGV[5] = status ("": as it
# is), ARGV[6] = when to write ("newer", "not older", "always", or "on <base>": only the fields
# given, over the writer's own put at position <base> only, as in gcbc.readmodel.redis), ARGV[7] =
# milliseconds the hash is kept ("0": for good; and a put of a finished table holding no views
# writes its position alone, kept, as in gcbc.readmodel.redis), ARGV[8] = the seated record ("": none),
# ARGV[9..] = field, value, ... Returns whether written and what the hash holds now for the index:
# position, listed at ("": not listed), status (a finished table's index entry outlives its hash).
_PUT = """
local stored = tonumber(redis.call('HGET', KEYS[1], 'position') or '0')
local position = tonumber(ARGV[1])
local base = string.match(ARGV[6], '^on (%d+)$')
local written = 1
if (ARGV[6] == 'newer' and stored >= position) or (ARGV[6] == 'not older' and stored > position)
  or (base and (stored ~= tonumber(base) or stored >= position))
then
  written = 0
else
  local meta = redis.call('HMGET', KEYS[1], 'listed', 'status')
  local listed, status = meta[1], meta[2]
  if ARGV[5] ~= '' then status = ARGV[5] end
  if ARGV[4] == '' then listed = false elseif not listed then listed = ARGV[1] end
  local left = redis.call('PTTL', KEYS[1])
  local viewless = ARGV[6] == 'newer' and ARGV[7] ~= '0' and redis.call('EXISTS', KEYS[2]) == 1
    and redis.call('HEXISTS', KEYS[1], 'public') == 0
  if base then
    if not listed then redis.call('HDEL', KEYS[1], 'listing', 'listed') end
  else
    redis.call('DEL', KEYS[1])
  end
  if viewless then
    redis.call('HSET', KEYS[1], 'position', ARGV[1])
  else
    redis.call('HSET', KEYS[1], 'position', ARGV[1], unpack(ARGV, 9))
  end
  if listed then redis.call('HSET', KEYS[1], 'listing', ARGV[4], 'listed', listed) end
  if status then redis.call('HSET', KEYS[1], 'status', status) end
  if ARGV[7] ~= '0' and not viewless then
    redis.call('PEXPIRE', KEYS[1], left > 0 and left or ARGV[7])
  end
  if ARGV[8] ~= '' then redis.call('SET', KEYS[2], ARGV[8]) end
  redis.call('SPUBLISH', ARGV[2], ARGV[3])
end
local now = redis.call('HMGET', KEYS[1], 'position', 'listed', 'status')
return {written, now[1] or '0', now[2] or '', now[3] or ''}
"""

# KEYS = INDEX_KEYS; ARGV: five per table: the table, its position ("": gone from the read
# model), listed at ("": not listed), status ("": none), and "1": whatever the position the index
# reflects (a forced replace) or, for one gone, the position the index must still reflect for
# it to be dropped ("": any). Several tables in one run: a batch's follow-ups cost one step.
_INDEX = """
local brought = 0
for i = 1, #ARGV, 5 do
  local table_id, stored, listed, status = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3]
  local at = tonumber(redis.call('HGET', KEYS[1], table_id) or '-1')
  local old = redis.call('HGET', KEYS[2], table_id)
  if stored == '' then
    if ARGV[i + 4] == '' or at == tonumber(ARGV[i + 4]) then
      redis.call('HDEL', KEYS[1], table_id)
      redis.call('ZREM', KEYS[4], table_id)
      if old then
        redis.call('HDEL', KEYS[2], table_id)
        redis.call('HINCRBY', KEYS[3], old, -1)
      end
      brought = brought + 1
    end
  elseif ARGV[i + 4] == '1' or at <= tonumber(stored) then
    local position = tonumber(stored)
    redis.call('HSET', KEYS[1], table_id, stored)
    if status ~= '' and old ~= status then
      redis.call('HSET', KEYS[2], table_id, status)
      if old then redis.call('HINCRBY', KEYS[3], old, -1) end
      redis.call('HINCRBY', KEYS[3], status, 1)
    end
    if listed == '' then
      redis.call('ZREM', KEYS[4], table_id)
    else
      redis.call('ZADD', KEYS[4], listed, table_id)
    end
    if position > tonumber(redis.call('GET', KEYS[5]) or '0') then
      redis.call('SET', KEYS[5], stored)
    end
    brought = brought + 1
  end
end
return brought
"""


def is_cluster_url(url: str) -> bool:
    return url.startswith(SCHEME)


def cluster_nodes(url: str) -> tuple[list[tuple[str, int]], str | None, str | None]:
    """``redis+cluster://user:password@host:port,host:port`` -> (nodes, user, password); the
    form the ``limits`` library reads too."""
    if not is_cluster_url(url):
        raise ValueError(f"not a Redis Cluster URL ({SCHEME}…): {url!r}")
    rest = url[len(SCHEME) :].split("/", 1)[0]
    auth, _, hosts = rest.rpartition("@")
    user = password = None
    if auth:
        parsed = urlsplit(f"redis://{auth}@h")
        user = unquote(parsed.username) if parsed.username else None
        password = unquote(parsed.password) if parsed.password else None
    nodes = []
    for host in hosts.split(","):
        name, _, port = host.strip().rpartition(":")
        if not name or not port.isdigit():
            raise ValueError(f"a Redis Cluster node is host:port, not {host!r}")
        nodes.append((name, int(port)))
    return nodes, user, password


_tags: dict[int, str] = {}


def tag_in_slot(slot: int) -> str:
    """A short hash tag whose key slot is ``slot`` (found once, then remembered)."""
    found = _tags.get(slot)
    if found is None:
        i = 0
        while key_slot(f"n{i}".encode()) != slot:
            i += 1
        found = _tags[slot] = f"n{i}"
    return found


class RedisClusterReadModel(RedisViews):
    """The read model on a Redis Cluster; ``redis`` is the cluster client (it routes by slot)."""

    # a node or the cluster not answering (after the client's own retries): ModelUnavailable
    UNREACHABLE = UNREACHABLE
    KEY = KEY  # the table id is the hash tag: a table's script runs on one node
    SEATED = SEATED

    def __init__(
        self,
        cluster: AsyncRedisCluster,
        user: str | None = None,
        password: str | None = None,
        finished_ttl: float | None = None,
    ) -> None:
        self.redis = cluster  # type: ignore[assignment]
        self.finished_ttl = finished_ttl
        self._put = cluster.register_script(_PUT)
        self._index = cluster.register_script(_INDEX)
        self.wakeups = ShardedWakeups(cluster, self._fields, user, password)

    @classmethod
    def connect(
        cls, url: str, connections: int = 64, finished_ttl: float | None = None
    ) -> RedisClusterReadModel:
        nodes, user, password = cluster_nodes(url)
        cluster = AsyncRedisCluster(
            startup_nodes=[ClusterNode(host, port) for host, port in nodes],
            username=user,
            password=password,
            max_connections=connections,
            socket_connect_timeout=2,
            socket_timeout=5,
            # a node restarting or a failover: retried briefly, then ModelUnavailable
            retry=Retry(ExponentialBackoff(cap=0.25, base=0.02), 3),
        )
        return cls(cluster, user, password, finished_ttl)

    # --- writing: the table's script, then the index brought up to it ---------------------------
    def _table_args(self, item: Replacement, when: str, message: str) -> list[bytes | str | int]:
        channel = CHANNEL.format(table=checked(item.table))
        extra = view_fields(item.views, item.answers)
        return [
            item.position,
            channel,
            message,
            item.listing or b"",
            item.status or "",
            when,
            *self._kept(item),
            *extra,
        ]

    async def _write_tables(self, writes: list[tuple[Replacement, str, str]]) -> list[bool]:
        """Each table's script on its own node (one pipeline: a connection per node, the nodes
        side by side), then one index run for them all."""
        calls = [
            (
                [self._key(item.table), self._seated_key(item.table)],
                self._table_args(item, when, message),
            )
            for item, when, message in writes
        ]
        done = await self._scripts(self._put, calls)
        follow: list[bytes | str | int] = []
        for (item, when, _), (_, position, listed, status) in zip(writes, done, strict=True):
            follow += [item.table, position, listed, status, "1" if when == "always" else ""]
        await self._reindex_entries(follow)
        return [bool(written) for written, *_ in done]

    # a run a node refused because it lost its scripts (restarted), or caught by a failover
    SCRIPT_RETRIES = (NoScriptError, TryAgainError, ClusterDownError)
    ScriptsRefused = ClusterDownError

    def _pipeline(self) -> Any:
        return self.redis.pipeline()  # the cluster client sends each node its share

    async def _reindex_entries(self, entries: list[bytes | str | int]) -> None:
        for i in range(0, len(entries), 5 * 500):  # a bounded script run per 500 tables
            await _retrying(self._index, keys=INDEX_KEYS, args=entries[i : i + 5 * 500])

    @unavailable
    async def delete(self, table: str) -> None:
        # first: the lobby never lists a table gone
        await self.redis.delete(self._key(table), self._seated_key(table))
        await self._reindex_entries([table, "", "", "", ""])

    # --- reading ---------------------------------------------------------------------------------
    def _scans(self) -> list[dict[str, Any]]:
        return [{"target_nodes": node} for node in self.redis.get_primaries()]

    @unavailable
    async def open_tables(self, limit: int = 50, after: int = 0) -> LobbyPage:
        """The order names the tables; each listing is read from its own table's hash, so one the
        index still names but that is gone or left the lobby is passed over."""
        listings: list[bytes] = []
        cursor = after
        while True:
            want = limit - len(listings)
            found = await self.redis.zrangebyscore(
                ORDER, f"({cursor}", "+inf", start=0, num=want + 1, withscores=True
            )
            page = found[:want]
            if not page:
                return LobbyPage(listings, None)
            pipe = self.redis.pipeline()
            for table, _ in page:
                pipe.hget(KEY.format(table=text(table)), "listing")
            for listing in await pipe.execute():
                if listing:
                    listings.append(listing)
            cursor = int(page[-1][1])
            if len(found) <= want:
                return LobbyPage(listings, None)
            if len(listings) >= limit:
                return LobbyPage(listings, cursor)

    @unavailable
    async def status(self) -> ModelStatus:
        marks = await self._marks()
        values = await self.redis.mget_nonatomic(marks) if marks else []
        position = await self.redis.get(POSITION)
        counts = await self.redis.hgetall(COUNTS)
        return self._status(values, position, counts)

    @unavailable
    async def ping(self) -> None:
        await self.redis.ping(target_nodes=AsyncRedisCluster.PRIMARIES)

    # --- the epoch: one mark per node, and the index's own ---------------------------------------
    async def _marks(self) -> list[str]:
        """The index's epoch mark, then one in the first slot of every primary."""
        await self.redis.initialize()
        manager = self.redis.nodes_manager
        first: dict[str, int] = {}
        for slot in sorted(manager.slots_cache):
            owner = manager.slots_cache[slot][0].name
            first.setdefault(owner, slot)
        return [EPOCH.format(tag="gcbc")] + [
            EPOCH.format(tag=tag_in_slot(slot)) for slot in first.values()
        ]

    @unavailable
    async def claim_epoch(self, seconds: float | None = None) -> bool:
        """True if any node had no epoch mark (new, or restarted empty) and this call set it. The
        index's own mark is set only once the index is made again from the table hashes, so a
        rebuild cut short (a node away meanwhile) is done again by the next claim."""
        stamp = str(time.time()).encode()
        marks = await self._marks()
        if not await self.redis.exists(marks[0]):
            await self.reindex()
        ms = None if seconds is None else max(1, int(seconds * 1000))
        claimed = [bool(await self.redis.set(mark, stamp, nx=True, px=ms)) for mark in marks]
        return any(claimed)

    @unavailable
    async def keep_epoch(self, seconds: float | None) -> None:
        for mark in await self._marks():
            if seconds is None:
                await self.redis.persist(mark)
            else:
                await self.redis.pexpire(mark, max(1, int(seconds * 1000)))

    @unavailable
    async def reindex(self) -> int:
        """The index made again from the table hashes (each entry as a put's follow-up, so a put
        meanwhile is never undone), and the entries of tables no longer held dropped."""
        held: set[str] = set()
        batch: list[str] = []

        async def flush() -> None:
            pipe = self.redis.pipeline()
            for table in batch:
                pipe.hmget(self._key(table), ["position", "listed", "status"])
            entries: list[bytes | str | int] = []
            for table, (position, listed, status) in zip(batch, await pipe.execute(), strict=True):
                if position is not None:
                    entries += [table, text(position), text(listed), text(status), ""]
            await self._reindex_entries(entries)
            batch.clear()

        async for table in self.tables():
            held.add(table)
            batch.append(table)
            if len(batch) >= 500:
                await flush()
        await flush()
        # entries of tables not seen: dropped if their hash is gone and no put came meanwhile
        # (a table written after the scan passed its node has its hash, or a newer position),
        # unless a seated record is left (a finished table whose views expired)
        unseen = {
            text(t): text(at)
            for t, at in (await self.redis.hgetall(AT)).items()
            if text(t) not in held
        }
        pipe = self.redis.pipeline()
        for table in unseen:
            pipe.exists(self._key(table), self._seated_key(table))
        found = await pipe.execute() if unseen else []
        gone: list[bytes | str | int] = []
        for (table, at), exists in zip(unseen.items(), found, strict=True):
            if not exists:
                gone += [table, "", "", "", at]
        await self._reindex_entries(gone)
        log.info("read model index rebuilt from %d tables", len(held))
        return len(held)


async def _retrying(write: Any, *args: Any, **kwargs: Any) -> Any:
    """A write caught by a failover or a slot moving (TRYAGAIN, cluster down) is tried again a
    few times; each step is idempotent, so trying again is always safe."""
    for attempt in range(5):
        try:
            return await write(*args, **kwargs)
        except (TryAgainError, ClusterDownError):
            if attempt == 4:
                raise
            await asyncio.sleep(0.1 * (attempt + 1))
    return None
