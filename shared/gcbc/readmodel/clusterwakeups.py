"""Wake-ups on a Redis Cluster: SSUBSCRIBE per watched table on the node that owns its slot (one
connection per node, ``ShardedWakeups``); a channel is kept a while after its last waiter. A
waiter still reads the view before trusting anything, and every waiter is woken to read again
when a node's connection drops."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

import redis.asyncio as aioredis
from redis.asyncio.cluster import ClusterNode
from redis.asyncio.cluster import RedisCluster as AsyncRedisCluster

from gcbc.readmodel.port import ModelUnavailable
from gcbc.readmodel.redisbase import text
from gcbc.readmodel.wakeups import Fields, Wakeups

log = logging.getLogger("gcbc.readmodel")

CHANNEL = "gcbc:changed:{{{table}}}"  # the table's hash tag: published from the table's script


class ShardedWakeups(Wakeups):
    """Wake-ups on a cluster: the table's channel is subscribed (SSUBSCRIBE) on the node owning
    its slot when a waiter first watches it, confirmed before the waiter reads, and let go a
    while after the last waiter left. One connection per node, each with its own listener."""

    CHANNEL = CHANNEL
    LINGER = 60.0  # seconds a channel stays subscribed after its last waiter

    def __init__(
        self, cluster: AsyncRedisCluster, read: Fields, user: str | None, password: str | None
    ) -> None:
        super().__init__(cluster, read)  # type: ignore[arg-type]
        self.cluster, self.user, self.password = cluster, user, password
        self._nodes: dict[str, _NodeListener] = {}  # node name -> its listener
        self._channels: dict[str, str] = {}  # table -> the node it is subscribed on
        self._used: dict[str, float] = {}  # table -> when a waiter last watched it
        self.ready.set()  # nothing to subscribe before the first waiter

    async def _release(self) -> None:
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
        self.unheard(node, tables)

    def unheard(self, node: str, tables: list[str]) -> None:
        """These tables' channels on ``node`` are no longer heard (the node's connection, or
        their slot, lost): subscribed again on the next watch, their waiters reading again."""
        for table in tables:
            if self._channels.get(table) == node:
                del self._channels[table]
            self.forget(table)
            self.wake(table)
            moved = self._moved.pop(table, None)
            if moved is not None:
                moved.event.set()

    async def _run(self) -> None:
        """Each node listens on its own; this task lets go of the channels nobody has watched for LINGER seconds."""
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
                kind, channel = text(msg.get("type")), text(msg.get("channel"))
                if kind == "smessage":
                    self.owner.heard(channel, msg["data"])
                elif kind == "ssubscribe":
                    confirmed = self.confirmed.get(channel)
                    if confirmed is not None and not confirmed.done():
                        confirmed.set_result(None)
                elif kind == "sunsubscribe" and channel in self.tables:
                    # not asked for (``unsubscribe`` lets go of the channel first): the node lost
                    # the table's slot (a failover, a resharding), the connection lives on
                    table = self.tables.pop(channel)
                    self.confirmed.pop(channel, None)
                    self.owner.unheard(self.name, [table])
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
