"""The house's pace (services.bots.pace): a house bot thinks before each action, never past half
its wait, and the bot worker grants actions at most so many a second, to the tables in turn."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

import pytest
from gcbc_client.problems import RateLimited

from gcbc_contract.http import Problem
from services.bots.pace import Pace, Turns
from services.bots.seat import play_seat

pytestmark = pytest.mark.timeout(30)


@dataclass(frozen=True)
class Wait:
    seat: int
    seconds: float
    deadline: str | None = None


@dataclass(frozen=True)
class FakeView:
    version: int
    status: str
    waiting_for: tuple[Wait, ...]
    legal_commands: list[dict[str, Any]] = field(default_factory=lambda: [{"type": "pass"}])
    must_act: bool = True
    seats: tuple[Any, ...] = ()


class WaitedOnSeat:
    """Seat 0 of a table that waits on it for ``actions`` passes, each wait ``seconds`` long."""

    seat = 0

    def __init__(self, actions: int, seconds: float) -> None:
        self.actions, self.seconds = actions, seconds
        self.sent: list[float] = []  # when each command came

    def _view(self) -> FakeView:
        done = len(self.sent) >= self.actions
        return FakeView(
            version=len(self.sent),
            status="finished" if done else "playing",
            waiting_for=() if done else (Wait(0, self.seconds),),
        )

    async def view(self, after: int | None = None, timeout: float = 0) -> FakeView:
        return self._view()

    async def send(self, command: Any, command_id: str | None = None) -> FakeView:
        self.sent.append(asyncio.get_running_loop().time())
        return self._view()


def _gaps(times: list[float]) -> list[float]:
    return [b - a for a, b in zip(times, times[1:], strict=False)]


def test_a_house_bot_thinks_before_each_action():
    async def go() -> tuple[float, list[float]]:
        seat = WaitedOnSeat(actions=4, seconds=20)
        start = asyncio.get_running_loop().time()
        await play_seat(seat, "random", 1, pace=Pace("t", 0.2, Turns(0), seed=1))
        return seat.sent[0] - start, _gaps(seat.sent)

    first, gaps = asyncio.run(go())
    # each think drawn between half and one and a half of 0.2 s
    assert all(0.1 <= g < 0.5 for g in [first, *gaps]), (first, gaps)


def test_a_house_bot_never_thinks_past_half_its_wait():
    async def go() -> list[float]:
        seat = WaitedOnSeat(actions=4, seconds=0.1)  # a think of 30 s would miss every deadline
        await play_seat(seat, "random", 1, pace=Pace("t", 30, Turns(0), seed=1))
        return _gaps(seat.sent)

    gaps = asyncio.run(go())
    assert all(g < 0.2 for g in gaps), gaps


def test_without_a_pace_a_seat_acts_at_once():
    async def go() -> list[float]:
        seat = WaitedOnSeat(actions=20, seconds=20)
        await play_seat(seat, "random", 1)
        return _gaps(seat.sent)

    assert sum(asyncio.run(go())) < 0.5


def test_a_seat_over_its_command_rate_waits_as_told_and_plays_on():
    class Limited(WaitedOnSeat):
        """Refuses its first command as over the seat's rate."""

        def __init__(self, actions: int, seconds: float) -> None:
            super().__init__(actions, seconds)
            self.refused: list[float] = []

        async def send(self, command: Any, command_id: str | None = None) -> FakeView:
            if not self.refused:
                self.refused.append(asyncio.get_running_loop().time())
                problem = Problem("", "rate limited", 429, "rate_limited", "too many")
                raise RateLimited(problem, retry_after=0.2)
            return await super().send(command, command_id)

    async def go() -> Limited:
        seat = Limited(actions=3, seconds=20)
        await play_seat(seat, "random", 1)
        return seat

    seat = asyncio.run(go())
    assert len(seat.sent) == 3 and seat.sent[0] - seat.refused[0] >= 0.2


def test_refusals_over_the_rate_are_not_commands_and_a_seat_past_its_most_says_so():
    class Limited(WaitedOnSeat):
        """Refuses every other command as over the seat's rate."""

        calls = 0

        async def send(self, command: Any, command_id: str | None = None) -> FakeView:
            self.calls += 1
            if self.calls % 2:
                problem = Problem("", "rate limited", 429, "rate_limited", "too many")
                raise RateLimited(problem, retry_after=0.001)
            return await super().send(command, command_id)

    async def go(most: int) -> Limited:
        seat = Limited(actions=4, seconds=20)
        await play_seat(seat, "random", 1, max_commands=most)
        return seat

    assert len(asyncio.run(go(4)).sent) == 4  # four refusals did not use the four up
    with pytest.raises(RuntimeError, match="the game goes on"):
        asyncio.run(go(3))  # not a quiet end: the worker looks at the table again


def test_the_worker_grants_at_most_its_rate_over_every_table():
    rate = 50.0

    async def go() -> list[float]:
        turns = Turns(rate)
        granted: list[float] = []

        async def ask(table: str) -> None:
            await turns.take(table)
            granted.append(asyncio.get_running_loop().time())

        await asyncio.gather(*(ask(t) for t in "abc" for _ in range(5)))
        turns.close()
        return granted

    granted = asyncio.run(go())
    assert len(granted) == 15
    assert min(_gaps(granted)) >= 0.9 / rate  # one grant each 20 ms, never two at once
    assert granted[-1] - granted[0] >= 14 * 0.9 / rate


def test_tables_take_turns_whatever_the_number_of_their_seats_asking():
    async def go() -> list[str]:
        turns = Turns(100)
        order: list[str] = []

        async def ask(table: str) -> None:
            await turns.take(table)
            order.append(table)

        crowd = [asyncio.create_task(ask("crowd")) for _ in range(8)]  # one table's many seats
        others = [asyncio.create_task(ask(t)) for t in ("mine", "yours")]
        await asyncio.gather(*crowd, *others)
        turns.close()
        return order

    order = asyncio.run(go())
    # the crowd asked first, but each other table is served before its second grant
    assert order[:3] == ["crowd", "mine", "yours"] and order[3:] == ["crowd"] * 7


def test_owners_take_turns_whatever_the_number_of_their_tables_asking():
    """Before: the grants went to tables in turn, so five addresses' fifteen tables of house bots
    took fifteen of every sixteen grants from another client's one table (its bots 3x slower).
    Owners take turns first, then each owner's tables."""

    async def go() -> list[str]:
        turns = Turns(200)
        order: list[str] = []

        async def ask(owner: str, table: str) -> None:
            await turns.take(table, owner)
            order.append(table)

        many = [asyncio.create_task(ask("greedy", f"g{i}")) for i in range(6)]
        mine = [asyncio.create_task(ask("me", "mine")) for _ in range(3)]
        await asyncio.gather(*many, *mine)
        turns.close()
        assert not turns.waiting
        return order

    order = asyncio.run(go())
    assert order[:6] == ["g0", "mine", "g1", "mine", "g2", "mine"]
    assert order[6:] == ["g3", "g4", "g5"]


def test_a_seat_that_stops_waiting_gives_its_place_up():
    async def go() -> list[str]:
        turns = Turns(50)
        order: list[str] = []

        async def ask(table: str) -> None:
            await turns.take(table)
            order.append(table)

        first = asyncio.create_task(ask("a"))
        gone = asyncio.create_task(ask("gone"))
        last = asyncio.create_task(ask("b"))
        await asyncio.sleep(0)
        gone.cancel()  # its table finished while it waited
        await asyncio.gather(first, last)
        turns.close()
        assert gone.cancelled() and not turns.waiting
        return order

    assert asyncio.run(go()) == ["a", "b"]


def test_a_grant_its_cancelled_asker_has_not_taken_back_yet_is_skipped():
    """A table's seats stop together (one failing cancels its mates): a cancelled asker's grant
    may be dealt before its cancellation takes it back; the dealer goes on to the next table."""

    async def go() -> None:
        turns = Turns(1000)
        gone = asyncio.get_running_loop().create_future()
        gone.cancel()  # its asker's cancellation has not run yet
        turns.waiting[""] = {"gone": deque([gone])}
        await asyncio.wait_for(turns.take("live"), 2)  # served after it, not stranded
        turns.close()

    asyncio.run(go())


@dataclass(frozen=True)
class SeatShown:
    absent: bool


def test_a_seat_gone_away_takes_its_seat_back_then_plays():
    """RULES §10: a seat that missed three deadlines in a row is away (the autopilot plays it,
    nothing waits for it) until it sends a command or resume. A house seat whose bots were
    stopped meanwhile comes back once it sees it, rather than leave its game to the autopilot."""

    class Away(WaitedOnSeat):
        def __init__(self) -> None:
            super().__init__(actions=2, seconds=20)
            self.commands: list[str] = []
            self.away = True

        def _view(self) -> FakeView:
            if not self.away:
                shown = super()._view()
                return FakeView(shown.version + 1, shown.status, shown.waiting_for)
            return FakeView(0, "playing", (), must_act=False, seats=(SeatShown(True),))

        async def view(self, after: int | None = None, timeout: float = 0) -> FakeView:
            if after is not None and self.away:
                await asyncio.sleep(timeout)  # nothing changes while it is away
            return self._view()

        async def send(self, command: Any, command_id: str | None = None) -> FakeView:
            self.commands.append(type(command).__name__)
            if type(command).__name__ == "Resume":
                self.away = False
                return self._view()
            return await super().send(command, command_id)

    async def go() -> list[str]:
        seat = Away()
        await play_seat(seat, "random", 1)
        return seat.commands

    commands = asyncio.run(go())
    assert commands[0] == "Resume" and commands.count("Resume") == 1 and len(commands) == 3


def test_an_idle_seat_stays_away():
    class Away(WaitedOnSeat):
        def __init__(self) -> None:
            super().__init__(actions=1, seconds=20)
            self.commands: list[Any] = []
            self.looks = 0

        def _view(self) -> FakeView:
            done = self.looks > 3
            return FakeView(
                self.looks, "finished" if done else "playing", (), seats=(SeatShown(True),)
            )

        async def view(self, after: int | None = None, timeout: float = 0) -> FakeView:
            self.looks += 1
            return self._view()

        async def send(self, command: Any, command_id: str | None = None) -> FakeView:
            self.commands.append(command)
            return self._view()

    async def go() -> list[Any]:
        seat = Away()
        await play_seat(seat, "random", 1, idle=lambda _: True)
        return seat.commands

    assert asyncio.run(go()) == []


def test_a_house_bot_thinks_within_what_is_left_of_its_wait():
    """A bot that comes late to a wait (its worker restarted meanwhile) thinks within what is
    left of it, as the deadline in its view tells, not within half of its whole length."""
    from datetime import UTC, datetime

    class Late(WaitedOnSeat):
        def _view(self) -> FakeView:
            shown = super()._view()
            end = datetime.fromtimestamp(time.time() + 0.2, UTC).isoformat()
            waits = tuple(
                Wait(w.seat, w.seconds, end.replace("+00:00", "Z")) for w in shown.waiting_for
            )
            return FakeView(shown.version, shown.status, waits)

    async def go() -> list[float]:
        seat = Late(actions=3, seconds=60)  # a think of up to 30 s would miss the deadline
        start = asyncio.get_running_loop().time()
        await play_seat(seat, "random", 1, pace=Pace("t", 30, Turns(0), seed=1))
        return [seat.sent[0] - start, *_gaps(seat.sent)]

    assert all(g < 0.15 for g in asyncio.run(go()))
