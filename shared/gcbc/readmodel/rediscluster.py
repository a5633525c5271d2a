"""The read model on a Redis Cluster (issue 14): the same port as ``redis.RedisReadModel``, with a
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

Wake-ups: SSUBSCRIBE per watched table on the node that owns its slot (one connection per node,
``ShardedWakeups``); a channel is kept a while after its last waiter. A waiter still reads the view
before trusting anything, and every waiter is woken to read again when a node's connection drops.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import unquote, urlsplit

import redis.asyncio as aioredis
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

from gcbc.contract.ids import checked
from gcbc.readmodel.port import (
    LobbyPage,
    ModelStatus,
    ModelUnavailable,
    Put,
    Replacement,
    TableSnapshot,
)
from gcbc.readmodel.redis import (
    ANSWERS,
    RedisReadModel,
    Wakeups,
    _unavailable,
    parse_wake,
    wake_message,
    when_of,
)

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
CHANNEL = "gcbc:changed:{{{table}}}"  # the same tag: published from the table's own script
INDEX_TAG = "{gcbc}"
AT = f"gcbc:{INDEX_TAG}:at"  # table -> the position the index reflects
STATUS = f"gcbc:{INDEX_TAG}:tables"  # table -> lobby | playing | finished
COUNTS = f"gcbc:{INDEX_TAG}:count"  # status -> its number of tables
ORDER = f"gcbc:{INDEX_TAG}:lobby"  # listed tables, scored by the position first listed at
POSITION = f"gcbc:{INDEX_TAG}:position"  # the newest position written
INDEX_KEYS = [AT, STATUS, COUNTS, ORDER, POSITION]
EPOCH = "gcbc:epoch:{{{tag}}}"  # one per primary (a tag hashed into its slots) and the index's
META = ("position", "listing", "listed", "status")  # the table hash's fields that are no view

# KEYS[1] = the table's hash; ARGV[1] = position, ARGV[2] = channel, ARGV[3] = wake-up message,
# ARGV[4] = lobby listing ("": not listed), ARGV[5] = status ("": as it is), ARGV[6] = when to
# write ("newer", "not older", "always", or "on <base>": only the fields given, over the writer's
# own put at position <base> only, as in gcbc.readmodel.redis), ARGV[7..] = field, value, ...
# Returns whether written and what the hash holds now for the index: position, listed at ("": not
# listed), status.
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
  if base then
    if not listed then redis.call('HDEL', KEYS[1], 'listing', 'listed') end
  else
    redis.call('DEL', KEYS[1])
  end
  redis.call('HSET', KEYS[1], 'position', ARGV[1], unpack(ARGV, 7))
  if listed then redis.call('HSET', KEYS[1], 'listing', ARGV[4], 'listed', listed) end
  if status then redis.call('HSET', KEYS[1], 'status', status) end
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


def _key(table: str) -> str:
    return KEY.format(table=checked(table))


def _text(value: bytes | str | None) -> str:
    if value is None:
        return ""
    return value.decode() if isinstance(value, bytes) else value


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


class ShardedWakeups(Wakeups):
    """Wake-ups on a cluster: the table's channel is subscribed (SSUBSCRIBE) on the node owning
    its slot when a waiter first watches it, confirmed before the waiter reads, and let go a
    while after the last waiter left. One connection per node, each with its own listener."""

    LINGER = 60.0  # seconds a channel stays subscribed after its last waiter
    KEY = KEY  # the table's hash under its hash tag (read through the cluster: the reader)

    def __init__(self, cluster: AsyncRedisCluster, user: str | None, password: str | None):
        super().__init__(cluster, cluster)  # type: ignore[arg-type]
        self.cluster, self.user, self.password = cluster, user, password
        self._nodes: dict[str, _NodeListener] = {}  # node name -> its listener
        self._channels: dict[str, str] = {}  # table -> the node it is subscribed on
        self._used: dict[str, float] = {}  # table -> when a waiter last watched it
        self.ready.set()  # nothing to subscribe before the first waiter

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._sweep())

    async def stop(self) -> None:
        if self._task:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        for listener in list(self._nodes.values()):
            await listener.close()
        self._nodes.clear()
        self._channels.clear()

    async def watching(self, table: str) -> None:
        self._used[table] = time.monotonic()
        if table in self._channels:
            return
        # not subscribed until now: what was announced meanwhile went unheard, so the newest
        # position heard tells nothing (``behind`` must not keep a waiter from reading)
        self.forget(table)
        channel = CHANNEL.format(table=table)
        try:
            await self.cluster.initialize()
            node = self.cluster.get_node_from_key(channel)
            listener = self._nodes.get(node.name)
            if listener is None or listener.closed:
                listener = self._nodes[node.name] = _NodeListener(self, node)
            await listener.subscribe(table, channel)
            self._channels[table] = node.name
        except asyncio.CancelledError:
            raise
        except Exception as e:  # noqa: BLE001  (the waiter reads, and times out, anyway)
            log.warning("wake-ups of %s not subscribed: %r", table, e)

    def lost(self, node: str, tables: list[str]) -> None:
        """A node's connection dropped: its channels are subscribed again on the next watch
        (wherever their slots are now), and their waiters read again rather than miss a change."""
        self._nodes.pop(node, None)
        for table in tables:
            if self._channels.get(table) == node:
                del self._channels[table]
            self.forget(table)
            self.wake(table)
            self._moved.pop(table, asyncio.Event()).set()

    def heard(self, channel: bytes | str, data: bytes | str) -> None:
        channel = _text(channel)
        table = channel[len("gcbc:changed:{") : -1]
        position, viewers = parse_wake(_text(data))
        self._announced(table, position, viewers)

    async def _sweep(self) -> None:
        """Let go of the channels nobody has watched for LINGER seconds."""
        while True:
            await asyncio.sleep(self.LINGER / 4)
            now = time.monotonic()
            # a live waiter watches again at least every 12 s (its jittered safety net): a table
            # not watched for LINGER has none, whatever signals a timed-out one left behind
            idle = [t for t, used in self._used.items() if now - used > self.LINGER]
            for table in idle:
                del self._used[table]
                self.forget(table)
                node = self._channels.pop(table, None)
                listener = self._nodes.get(node) if node else None
                if listener is not None:
                    with contextlib.suppress(Exception):
                        await listener.unsubscribe(table, CHANNEL.format(table=table))


class _NodeListener:
    """One connection to one node, its sharded subscriptions, and the task reading them."""

    def __init__(self, owner: ShardedWakeups, node: ClusterNode) -> None:
        self.owner, self.name = owner, node.name
        self.client = aioredis.Redis(
            host=node.host,
            port=node.port,
            username=owner.user,
            password=owner.password,
            socket_keepalive=True,
            health_check_interval=10,
            socket_connect_timeout=2,
            protocol=2,
        )
        self.pubsub = self.client.pubsub()
        self.tables: dict[str, str] = {}  # channel -> table
        self.confirmed: dict[str, asyncio.Future] = {}  # channel -> set by its confirmation
        self.closed = False
        self.task: asyncio.Task | None = None
        self.sending = asyncio.Lock()

    async def subscribe(self, table: str, channel: str) -> None:
        self.tables[channel] = table
        confirmed = self.confirmed.get(channel)
        if confirmed is None:
            confirmed = self.confirmed[channel] = asyncio.get_running_loop().create_future()
            async with self.sending:  # one at a time: the first one opens the connection
                await self.pubsub.ssubscribe(channel)
            if self.task is None:
                self.task = asyncio.create_task(self._listen())
        # subscribed before the waiter reads: a change between its read and its wait is heard
        await asyncio.wait_for(asyncio.shield(confirmed), 5)

    async def unsubscribe(self, table: str, channel: str) -> None:
        self.tables.pop(channel, None)
        self.confirmed.pop(channel, None)
        async with self.sending:
            await self.pubsub.sunsubscribe(channel)

    async def _listen(self) -> None:
        try:
            while not self.closed:
                msg = await self.pubsub.get_message(timeout=None)
                if msg is None:
                    continue
                kind, channel = _text(msg.get("type")), _text(msg.get("channel"))
                if kind == "smessage":
                    self.owner.heard(channel, msg["data"])
                elif kind == "ssubscribe":
                    confirmed = self.confirmed.get(channel)
                    if confirmed is not None and not confirmed.done():
                        confirmed.set_result(None)
        except asyncio.CancelledError:
            raise
        except Exception as e:  # noqa: BLE001
            log.warning("wake-ups from %s lost: %s", self.name, e or type(e).__name__)
        finally:
            self.closed = True
            for confirmed in self.confirmed.values():
                if not confirmed.done():
                    confirmed.set_exception(ModelUnavailable(f"wake-ups from {self.name} lost"))
                    confirmed.exception()  # retrieved: no "never retrieved" warning
            self.owner.lost(self.name, list(self.tables.values()))
            with contextlib.suppress(Exception):
                await self.pubsub.aclose()
                await self.client.aclose()

    async def close(self) -> None:
        self.closed = True
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
        else:
            with contextlib.suppress(Exception):
                await self.pubsub.aclose()
                await self.client.aclose()


class RedisClusterReadModel(RedisReadModel):
    """The read model on a Redis Cluster; ``redis`` is the cluster client (it routes by slot)."""

    # a node or the cluster not answering (after the client's own retries): ModelUnavailable
    UNREACHABLE = UNREACHABLE
    KEY = KEY  # the table id is the hash tag: a table's script runs on one node

    def __init__(
        self, cluster: AsyncRedisCluster, user: str | None = None, password: str | None = None
    ) -> None:
        self.redis = cluster  # type: ignore[assignment]
        self._put = cluster.register_script(_PUT)
        self._index = cluster.register_script(_INDEX)
        self.wakeups = ShardedWakeups(cluster, user, password)

    @classmethod
    def connect(cls, url: str, connections: int = 64) -> RedisClusterReadModel:
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
        return cls(cluster, user, password)

    async def close(self) -> None:
        await self.wakeups.stop()
        await self.redis.aclose()

    # --- writing: the table's script, then the index brought up to it ---------------------------
    def _table_args(self, item: Replacement, when: str, message: str) -> list[bytes | str | int]:
        args: list[bytes | str | int] = [
            item.position,
            CHANNEL.format(table=checked(item.table)),
            message,
            item.listing or b"",
            item.status or "",
            when,
        ]
        for viewer, data in item.views.items():
            args += [viewer, data]
        for viewer, data in (item.answers or {}).items():
            args += [ANSWERS.format(viewer=viewer), data]
        return args

    async def _write_tables(
        self, items: list[tuple[Replacement, str]], when: str | list[str]
    ) -> list[bool]:
        """Each table's script on its own node (one pipeline: a connection per node, the nodes
        side by side), then one index run for them all. ``items``: (table, its wake-up message);
        ``when``: for all, or each's."""
        whens = [when] * len(items) if isinstance(when, str) else when
        calls = [
            ([_key(item.table)], self._table_args(item, w, message))
            for (item, message), w in zip(items, whens, strict=True)
        ]
        done = await self._scripts(self._put, calls)
        force = "1" if when == "always" else ""
        follow: list[bytes | str | int] = []
        for (item, _), (_, position, listed, status) in zip(items, done, strict=True):
            follow += [item.table, position, listed, status, force]
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

    @_unavailable
    async def put(
        self,
        table: str,
        views: dict[str, bytes],
        position: int,
        changed: list[str] | None = None,
        listing: bytes | None = None,
        answers: dict[str, bytes] | None = None,
        status: str | None = None,
    ) -> bool:
        item = Replacement(table, views, position, listing, answers, status)
        return (await self._write_tables([(item, wake_message(position, changed))], "newer"))[0]

    @_unavailable
    async def put_many(self, puts: list[Put]) -> list[bool]:
        """The tables' scripts side by side (they live on different nodes), then one index run."""
        if not puts:
            return []
        items = [(item, wake_message(item.position, changed)) for item, changed, _ in puts]
        return await self._write_tables(items, [when_of(base) for _, _, base in puts])

    @_unavailable
    async def replace(self, items: list[Replacement], force: bool = False) -> list[bool]:
        if not items:
            return []
        when = "always" if force else "not older"
        return await self._write_tables(
            [(item, wake_message(item.position, None)) for item in items], when
        )

    @_unavailable
    async def delete(self, table: str) -> None:
        await self.redis.delete(_key(table))  # first: the lobby never lists a table gone
        await self._reindex_entries([table, "", "", "", ""])

    # --- reading ---------------------------------------------------------------------------------
    @_unavailable
    async def snapshots(self, tables: list[str]) -> list[TableSnapshot | None]:
        if not tables:
            return []
        pipe = self.redis.pipeline()
        for table in tables:
            pipe.hgetall(_key(table))
        out: list[TableSnapshot | None] = []
        for found in await pipe.execute():
            if not found:
                out.append(None)
                continue
            fields = {_text(k): v for k, v in found.items()}
            position = int(fields.pop("position", b"0"))
            listing = fields.pop("listing", None)
            fields.pop("listed", None)
            status = fields.pop("status", None)
            out.append(TableSnapshot(position, fields, listing, _text(status) or None))
        return out

    async def tables(self) -> AsyncIterator[str]:
        prefix = KEY.format(table="")[:-1]  # gcbc:views:{
        try:
            for node in self.redis.get_primaries():
                async for key in self.redis.scan_iter(
                    match=KEY.format(table="*"), count=1000, target_nodes=node
                ):
                    yield _text(key)[len(prefix) : -1]
        except UNREACHABLE as e:
            raise ModelUnavailable(str(e) or type(e).__name__) from None

    @_unavailable
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
                pipe.hget(KEY.format(table=_text(table)), "listing")
            for listing in await pipe.execute():
                if listing:
                    listings.append(listing)
            cursor = int(page[-1][1])
            if len(found) <= want:
                return LobbyPage(listings, None)
            if len(listings) >= limit:
                return LobbyPage(listings, cursor)

    @_unavailable
    async def status(self) -> ModelStatus:
        marks = await self._marks()
        values = await self.redis.mget_nonatomic(marks) if marks else []
        position = await self.redis.get(POSITION)
        counts = await self.redis.hgetall(COUNTS)
        when = None
        if values and all(v is not None for v in values):
            try:
                when = max(float(v) for v in values)
            except ValueError:
                when = 0.0
        tables = {_text(k): int(v) for k, v in counts.items() if int(v) > 0}
        return ModelStatus(when, int(position or 0), tables)

    @_unavailable
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

    @_unavailable
    async def claim_epoch(self) -> bool:
        """True if any node had no epoch mark (new, or restarted empty) and this call set it. The
        index's own mark is set only once the index is made again from the table hashes, so a
        rebuild cut short (a node away meanwhile) is done again by the next claim."""
        stamp = str(time.time()).encode()
        marks = await self._marks()
        if not await self.redis.exists(marks[0]):
            await self.reindex()
        claimed = [bool(await self.redis.set(mark, stamp, nx=True)) for mark in marks]
        return any(claimed)

    @_unavailable
    async def reindex(self) -> int:
        """The index made again from the table hashes (each entry as a put's follow-up, so a put
        meanwhile is never undone), and the entries of tables no longer held dropped."""
        held: set[str] = set()
        batch: list[str] = []

        async def flush() -> None:
            pipe = self.redis.pipeline()
            for table in batch:
                pipe.hmget(_key(table), ["position", "listed", "status"])
            entries: list[bytes | str | int] = []
            for table, (position, listed, status) in zip(batch, await pipe.execute(), strict=True):
                if position is not None:
                    entries += [table, _text(position), _text(listed), _text(status), ""]
            await self._reindex_entries(entries)
            batch.clear()

        async for table in self.tables():
            held.add(table)
            batch.append(table)
            if len(batch) >= 500:
                await flush()
        await flush()
        # entries of tables not seen: dropped if their hash is gone and no put came meanwhile
        # (a table written after the scan passed its node has its hash, or a newer position)
        unseen = {
            _text(t): _text(at)
            for t, at in (await self.redis.hgetall(AT)).items()
            if _text(t) not in held
        }
        pipe = self.redis.pipeline()
        for table in unseen:
            pipe.exists(_key(table))
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
