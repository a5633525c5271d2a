"""What one client may ask (DESIGN property 7): request rates, and open streams and long-polls.

Rates use the ``limits`` library (the one behind slowapi and Flask-Limiter): each process counts
in memory and decides at once, and, for a client near its budget, counts again in the shared
counts (``gcbc.ratelimits``: the read model's Redis), in the background, so that every
table-service process counts against the same budget (a sliding window counter). Litestar's own
rate limiter was not used: it reads and then writes its counter (two processes can both pass)
and speaks no ``Retry-After``.

Open streams and long-polls are counted per process (they live in it): per table and per client
address.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections import Counter, OrderedDict
from collections.abc import Callable
from typing import Any

from limits import RateLimitItem, parse

from gcbc.ratelimits.port import SharedCounts
from gcbc.ratelimits.redis import RedisCounts
from services.common import metrics
from services.table.problems import ApiError, too_many

log = logging.getLogger("gcbc.table")


def parse_rates(rates: dict[str, str]) -> dict[str, RateLimitItem]:
    """``{"create": "20/minute", "chat": ""}`` -> the limits that are set ("": none)."""
    return {kind: parse(text) for kind, text in rates.items() if text.strip()}


class LocalCounts:
    """This process's counts: the limits library's sliding window counter, in memory (its own
    memory storage sweeps every key at each hit: too costly with thousands of seats playing)."""

    SWEEP_EVERY = 30.0  # seconds between two sweeps of the windows gone by
    # windows kept at most: past them the least recently asked about goes (its client starts
    # afresh), so clients coming from ever new addresses (an IPv6 network's /64s) cannot grow
    # this process's memory without bound within the windows' hours
    MOST = 200_000

    def __init__(self, clock: Callable[[], float] = time.time, most: int = MOST) -> None:
        self.clock = clock
        self.most = most
        # (kind, who) -> [its current window's start, the previous window's count, this one's,
        # the window's length]
        self._windows: OrderedDict[tuple[str, str], list[float]] = OrderedDict()
        self._swept = clock()

    def current(self, kind: str, who: str) -> int:
        """The requests counted in ``who``'s current window (not the sliding estimate)."""
        window = self._windows.get((kind, who))
        return int(window[2]) if window is not None else 0

    def hit(self, item: RateLimitItem, kind: str, who: str, count: bool = True) -> float | None:
        """Count one request: None if it is within the limit, else when the window resets
        (epoch s; a refused request is not counted). ``count`` False: only whether one more
        would be within it."""
        now = self.clock()
        if now - self._swept > self.SWEEP_EVERY:
            self._sweep(now)
        length = item.get_expiry()
        start = now - now % length  # windows aligned on the clock, as the library's
        window = self._windows.get((kind, who))
        if window is not None:
            self._windows.move_to_end((kind, who))  # (a client refused is still one asking)
        if window is None or window[0] < start - length:
            previous = current = 0.0
        elif window[0] < start:  # the window it counted in is now the previous one
            previous, current = window[2], 0.0
        else:
            previous, current = window[1], window[2]
        # the previous window's count weighs as much as it still overlaps the sliding one
        weighted = previous * (length - (now - start)) / length + current
        if math.floor(weighted) + 1 > item.amount:
            return start + length
        if count:
            if window is None and len(self._windows) >= self.most:
                self._windows.popitem(last=False)
            self._windows[(kind, who)] = [start, previous, current + 1, length]
        return None

    def _sweep(self, now: float) -> None:
        self._swept = now
        gone = [key for key, w in self._windows.items() if w[0] + 2 * w[3] <= now]
        for key in gone:
            del self._windows[key]

    def __len__(self) -> int:
        return len(self._windows)


class RateLimits:
    """Each request is counted by this process, which decides at once (exact when one process
    serves the client), and, once the client has used a share of its budget here
    (``SHARED_FROM``), in Redis too, where every table-service process counts against the same
    budget, in the background: once Redis says a client is over, this process refuses it until
    its window resets. So no request waits for a Redis round trip (one per command, on the path of
    every answer), and the clients far from their budget (every player at human pace) cost Redis
    nothing.

    What a client spreading its requests over N processes gets past its budget: what it sends
    during one check, and what stays under the share in each process, at most N times
    ``SHARED_FROM`` of the budget (a quarter: with up to four processes, no more than the budget
    again; the first request over the share brings the count so far to Redis)."""

    TIMEOUT = 0.25  # seconds a shared check may take before checks pause
    PAUSE = 2.0  # seconds without shared checks after a failure or a slow one
    KEEP_OVER = 10_000  # clients known over the budget before the expired ones are pruned
    SHARED_FROM = 0.25  # the share of its budget a client uses here before Redis counts it too

    def __init__(self, shared: SharedCounts | None, rates: dict[str, RateLimitItem]) -> None:
        self.shared = shared
        self.local = LocalCounts()
        self.rates = rates
        self._paused_until = 0.0
        self._over: dict[tuple[str, str], float] = {}  # (kind, who) -> its window's reset (epoch)
        self._checking: set[asyncio.Task] = set()

    @classmethod
    def on_redis(cls, url: str, pool: object, rates: dict[str, str]) -> RateLimits:
        """Counters in the read model's Redis (``url``), through its connection pool."""
        items = parse_rates(rates)
        if not items:
            return cls(None, {})
        return cls(RedisCounts.connect(url, pool), items)

    async def warm(self) -> None:
        """Connect before the first request (a cluster client learns its slots first, longer
        than a check may take), so the first requests are counted too."""
        if self.shared is not None:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(5):
                    await self.shared.warm()

    async def hit(self, kind: str, who: str) -> None:
        """Count one request of ``kind`` by ``who``; 429 with Retry-After once over the limit.
        If Redis cannot count, this process's count still decides: limits protect, they never
        fail a request."""
        item = self.rates.get(kind)
        if item is None:
            return
        over = self._over.get((kind, who))
        if over is not None:
            if time.time() < over:
                self._refuse(kind, item, over)
            del self._over[(kind, who)]
        over = self.local.hit(item, kind, who)
        if over is not None:
            self._refuse(kind, item, over)
        if self.shared is None or time.monotonic() < self._paused_until:
            return
        counted = self.local.current(kind, who)
        share = max(1, int(item.amount * self.SHARED_FROM))
        if counted < share:
            return  # far from its budget: this process's count is enough
        # the first request over the share brings the window's count so far, then one each
        task = asyncio.ensure_future(
            self._shared(item, kind, who, share if counted == share else 1)
        )
        self._checking.add(task)  # (held until done: a task only weakly referenced may vanish)
        task.add_done_callback(self._checking.discard)

    async def done(self, kind: str, who: str) -> None:
        """Count a request of ``kind`` by ``who`` that ``check`` let through and that was then
        accepted (a refused one costs nothing, and is not counted): its cost is spent, so a limit
        it reaches refuses the next one, not this."""
        with contextlib.suppress(ApiError):
            await self.hit(kind, who)

    def check(self, kind: str, who: str) -> None:
        """429 if one more request of ``kind`` by ``who`` would be over the limit, counting
        nothing (a cost paid only by what fails: ``hit`` once it has)."""
        item = self.rates.get(kind)
        if item is None:
            return
        over = self._over.get((kind, who))
        if over is not None and time.time() < over:
            self._refuse(kind, item, over)
        over = self.local.hit(item, kind, who, count=False)
        if over is not None:
            self._refuse(kind, item, over)

    async def pace(self, kind: str, who: str) -> None:
        """Count one more request of ``kind`` by ``who`` within an answer already under way (a
        long download): past the budget it waits for room rather than failing what the client
        was already given a part of. It asks again at the budget's own spacing: the sliding
        window frees room as the previous window's count fades, long before the window a refusal
        names resets (sleeping that long would keep a download well under its budget)."""
        item = self.rates.get(kind)
        spacing = item.get_expiry() / item.amount if item is not None else 1.0
        while True:
            try:
                await self.hit(kind, who)
                return
            except ApiError as refused:
                if refused.status != 429:
                    raise
                retry = float((refused.headers or {}).get("Retry-After", "1"))
                await asyncio.sleep(min(retry, spacing))

    async def _shared(self, item: RateLimitItem, kind: str, who: str, cost: int = 1) -> None:
        """Every process's count: a client over it is refused here until its window resets."""
        assert self.shared is not None
        started = time.monotonic()
        try:
            over = await self.shared.hit(item, kind, who, cost)
        except Exception as e:  # noqa: BLE001
            self._pause(f"{e!r}")
            return
        if time.monotonic() - started > self.TIMEOUT:
            self._pause(f"a check took {time.monotonic() - started:.2f} s")
        if over is not None:
            if len(self._over) >= self.KEEP_OVER:
                now = time.time()
                self._over = {k: t for k, t in self._over.items() if t > now}
            self._over[(kind, who)] = over

    def _pause(self, why: str) -> None:
        if time.monotonic() >= self._paused_until:
            log.warning("shared rate limits not checked for %.0f s: %s", self.PAUSE, why)
        self._paused_until = time.monotonic() + self.PAUSE

    def _refuse(self, kind: str, item: RateLimitItem, reset: float) -> None:
        retry = max(1, math.ceil(reset - time.time()))
        raise too_many(
            "rate_limited", f"too many {kind} requests ({item}): retry in {retry} s", retry
        )


class OpenStreams:
    """Streams and long-polls open in this process (0: no cap): a table's spectators, each seat's
    own (so spectators never crowd a player out), and one client address's."""

    RETRY = 5  # seconds a refused watcher is told to wait

    def __init__(
        self,
        per_table: int,
        per_seat: int,
        per_client: int,
        per_table_client: int = 0,
        own_caps: dict[str, tuple[int, str]] | None = None,
    ) -> None:
        self.per_table, self.per_seat, self.per_client = per_table, per_seat, per_client
        self.per_table_client = per_table_client  # a table's spectator places one address holds
        # watched keys with a cap of their own (the lobby's stream), and whose places they are
        self.own_caps = own_caps or {}
        self.viewers: Counter[tuple[str, int | None]] = Counter()  # (table, seat or None)
        self.clients: Counter[str] = Counter()
        self.spectators: Counter[tuple[str, str]] = Counter()  # (table, client address)

    def open(
        self, table: str, client: str, seat: int | None, kind: str = "long_poll"
    ) -> Callable[[], None]:
        """Take a place (429 if none is left); the returned function gives it back (once).
        ``kind``: sse or long_poll (the open watchers' gauge)."""
        viewer = (table, seat)
        if seat is None:
            cap, who = self.own_caps.get(table, (self.per_table, "this table's spectators have"))
        else:
            cap, who = self.per_seat, "your seat has"
        if cap and self.viewers[viewer] >= cap:
            self._refuse(f"{who} {cap} streams and long-polls open")
        if self.per_client and self.clients[client] >= self.per_client:
            self._refuse(f"you have {self.per_client} streams and long-polls open")
        place = (table, client)
        if (
            seat is None
            and self.per_table_client
            and self.spectators[place] >= self.per_table_client
        ):
            # a few addresses must not take every spectator place of a table
            self._refuse(
                f"your address holds {self.per_table_client} of this table's spectator places"
            )
        self.viewers[viewer] += 1
        self.clients[client] += 1
        counters: list[tuple[Counter, Any]] = [(self.viewers, viewer), (self.clients, client)]
        if seat is None:
            self.spectators[place] += 1
            counters.append((self.spectators, place))
        gauge = metrics.WATCHERS.labels(kind)
        gauge.inc()
        done = False

        def close() -> None:
            nonlocal done
            if done:
                return
            done = True
            gauge.dec()
            for counter, key in counters:
                counter[key] -= 1
                if counter[key] <= 0:
                    del counter[key]  # nothing is kept for a table nobody watches

        return close

    def _refuse(self, why: str) -> None:
        raise too_many("too_many_streams", f"{why}: close one first", self.RETRY)
