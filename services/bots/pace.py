"""The house's pace: each house bot thinks before it acts, as a person would, and the bot worker
sends at most so many actions a second over all its tables, granted to the tables' owners in turn
and to each owner's tables in turn, so that one creator's many tables (or many creators' one
address) neither load the server at machine speed nor crowd out another's table."""

from __future__ import annotations

import asyncio
import random
from collections import deque


class Turns:
    """At most ``rate`` actions a second (0: no cap), granted round-robin: an owner waiting for
    a grant gets one before any owner gets a second, whatever the number of its tables asking,
    and within an owner's turns a table before any of its tables gets a second, whatever the
    number of seats asking."""

    def __init__(self, rate: float) -> None:
        self.interval = 1 / rate if rate > 0 else 0.0
        # owners waiting for a grant, in the order they are served (an owner, and a table
        # within its own, goes to the back once served), each table with its askers in order
        self.waiting: dict[str, dict[str, deque[asyncio.Future[None]]]] = {}
        self.asked = asyncio.Event()
        self.dealer: asyncio.Task[None] | None = None
        self.granted = 0  # actions granted so far (a figure for tests and operators)

    async def take(self, table: str, owner: str = "") -> None:
        """Wait for this table's next grant (``owner``: whose table it is)."""
        if not self.interval:
            self.granted += 1
            return
        if self.dealer is None or self.dealer.done():
            self.dealer = asyncio.create_task(self._deal())
        granted = asyncio.get_running_loop().create_future()
        self.waiting.setdefault(owner, {}).setdefault(table, deque()).append(granted)
        self.asked.set()
        try:
            await granted
        except asyncio.CancelledError:
            tables = self.waiting.get(owner, {})
            askers = tables.get(table)
            if askers is not None and granted in askers:
                askers.remove(granted)
                if not askers:
                    del tables[table]
                    if not tables:
                        del self.waiting[owner]
            raise

    async def _deal(self) -> None:
        loop = asyncio.get_running_loop()
        last = -self.interval
        while True:
            if not self.waiting:
                self.asked.clear()
                await self.asked.wait()
                continue
            pause = last + self.interval - loop.time()
            if pause > 0:
                await asyncio.sleep(pause)
                continue  # an asker may have gone meanwhile
            owner = next(iter(self.waiting))
            tables = self.waiting.pop(owner)
            table = next(iter(tables))
            askers = tables.pop(table)
            granted = askers.popleft()
            if askers:
                tables[table] = askers  # to the back of its owner's round
            if tables:
                self.waiting[owner] = tables  # to the back of the round
            if granted.done():
                continue  # its asker was cancelled and has not taken it back yet: nobody to grant
            granted.set_result(None)
            self.granted += 1
            last = loop.time()

    def close(self) -> None:
        if self.dealer is not None:
            self.dealer.cancel()


class Pace:
    """One table's house bots: before each action, a think drawn around ``think`` seconds
    (never past half the wait's length, so the deadline still bounds it), then the worker's
    next grant for the table."""

    def __init__(self, table: str, think: float, turns: Turns, seed: int, owner: str = "") -> None:
        self.table, self.think, self.turns, self.owner = table, think, turns, owner
        self.random = random.Random(seed)

    async def before_action(self, seconds: float) -> bool:
        """Wait as the house does before acting in a wait of ``seconds``; whether it waited at
        all (the table may then have moved on)."""
        pause = min(self.random.uniform(self.think / 2, self.think * 3 / 2), seconds / 2)
        if pause > 0:
            await asyncio.sleep(pause)
        await self.turns.take(self.table, self.owner)
        return pause > 0 or self.turns.interval > 0
