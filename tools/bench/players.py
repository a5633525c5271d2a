"""The bench's load generator: tables of bots playing through the typed client, as any
third-party client would, and the figures of their timings."""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import msgspec
from gcbc_client import AsyncClient, AsyncSeat
from gcbc_client.problems import ApiProblem, RateLimited
from gcbc_client.transport import Answer

from gcbc.bots import Observation, RandomBot
from gcbc_contract.views import Waiting

T = TypeVar("T")


def route(path: str) -> str:
    """``/tables/3f…/commands`` -> ``/tables/{id}/commands``: answers counted by route."""
    return re.sub(r"^/tables/[^/?]+", "/tables/{id}", path.split("?", 1)[0])


class Answers:
    """Every answer that is not 2xx, counted by method, route and status (``non_2xx`` in each
    run's summary), and every answer (``requests``: a game's seats read their views besides
    sending commands): the typed client's ``answered`` hook."""

    def __init__(self) -> None:
        self.non_2xx: Counter[str] = Counter()
        self.requests = 0

    def count(self, method: str, path: str, status: int) -> None:
        self.requests += 1
        if not 200 <= status < 300:
            self.non_2xx[f"{method} {route(path)} {status}"] += 1

    def __call__(self, method: str, url: str, sent: bytes | None, answer: Answer) -> None:
        self.count(method, url, answer.status)


class View(msgspec.Struct, frozen=True):
    """What the bench's players read of a view (the client decodes only these: ``view_type``;
    the rest of each view is skipped, not built, sparing the cores the server shares)."""

    status: str
    waiting_for: list[Waiting]
    legal_commands: list[dict[str, Any]]


def load_client(api: str, connections: int, answers: Answers) -> AsyncClient:
    """The typed client over aiohttp (see the module's docstring for why not httpx)."""
    return AsyncClient(
        api,
        timeout=120,
        transport="aiohttp",
        connections=connections,
        answered=answers,
        view_type=View,
    )


async def patiently(call: Callable[[], Awaitable[T]]) -> T:
    """Over a rate limit (a deployment's own, --api) the call is made again once allowed (the
    429 is counted)."""
    while True:
        try:
            return await call()
        except RateLimited as e:
            await asyncio.sleep(e.retry_after or 1.0)


def pct(samples: list[float], p: float) -> float:
    if not samples:
        return float("nan")
    s = sorted(samples)
    return round(s[min(len(s) - 1, int(p * len(s)))] * 1000, 2)


def summary(samples: list[float], elapsed: float) -> dict[str, float]:
    return {
        "commands": len(samples),
        "commands_per_second": round(len(samples) / elapsed, 1),
        "p50_ms": pct(samples, 0.50),
        "p95_ms": pct(samples, 0.95),
        "p99_ms": pct(samples, 0.99),
    }


class BenchTable:
    """One table driven by bots: every seat (the typed client's), sends the waiting seat's
    choice."""

    def __init__(self, seats: list[AsyncSeat], seed: int, noop: bool) -> None:
        self.seats = sorted(seats, key=lambda s: s.seat)  # seat n at [n]
        self.table_id, self.noop = seats[0].table_id, noop
        self.bots = [RandomBot(seed * 10 + i) for i in range(len(seats))]
        self.rng = random.Random(seed)
        self.waiting: list[int] = list(range(len(seats)))
        self.finished = False
        # seat -> its latest view from its event stream (the scale run), as a client acts on it
        self.streamed: dict[int, View] = {}
        # the seat that sent the last command and its view in the answer: current until the
        # next command (a client acts on the view it has rather than asking again; versions
        # are each viewer's own, so one seat's view says nothing of another's being current)
        self.answered: tuple[int, View] | None = None

    def current(self, seat: int) -> View | None:
        if self.answered is not None and self.answered[0] == seat:
            return self.answered[1]
        return self.streamed.get(seat)

    async def next_command(self) -> tuple[int, dict[str, Any]]:
        """The waiting seat's choice; ``(seat, {})`` when none can act now (a streamed view may
        lag: after a few looks the table is left for this round instead of asking forever)."""
        seat = 0
        for attempt in range(len(self.seats) + 2):
            seat = self.rng.choice(self.waiting) if self.waiting else 0
            # the view the seat has (its stream's at every look; its answer's at the first),
            # else asked for
            v = self.current(seat) if attempt == 0 or seat in self.streamed else None
            if v is None:
                try:
                    v = await self.seats[seat].view()
                except ApiProblem:  # counted with the non-2xx answers; this round is skipped
                    return seat, {}
            if self.noop:
                return seat, {"type": "pass"}
            if v.status == "finished":
                self.finished = True
            if v.legal_commands:
                return seat, self.bots[seat].act(Observation(seat, lambda v=v: v))
            self.waiting = sorted({w.seat for w in v.waiting_for})
            if not self.waiting or self.finished:
                break
        return seat, {}

    async def step(self) -> float | None:
        """One command; the seconds from POST to the acting seat's updated view."""
        seat, command = await self.next_command()
        if not command:
            # nobody can act as far as this driver's views tell (they may lag, or a wait runs):
            # a moment, so that a closed loop never spins without letting the streams in
            await asyncio.sleep(0.005)
            return None
        t0 = time.perf_counter()
        try:
            answer = await patiently(lambda: self.seats[seat].send(command))
        except ApiProblem:  # refused (a stale view) or still unknown: counted, everyone looks
            answer = None
        elapsed = time.perf_counter() - t0
        self.answered = None
        if isinstance(answer, View):
            self.answered = (seat, answer)
            self.finished = answer.status == "finished"
            self.waiting = sorted({w.seat for w in answer.waiting_for})
            return elapsed
        self.waiting = list(range(len(self.seats)))  # refused, or recorded but not yet seen
        return None


async def new_table(
    client: AsyncClient, seats: int, seed: int, noop: bool, seeded: bool = True
) -> BenchTable:
    """``seeded``: a scenario server, tables are dealt from the bench's seeds."""
    table = await patiently(lambda: client.create_table(seats, seed=seed if seeded else None))
    players = [
        await patiently(lambda i=i: client.join(table.table_id, f"b{i}")) for i in range(seats)
    ]
    await patiently(players[0].start)
    return BenchTable(players, seed, noop)
