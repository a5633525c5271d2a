"""Rate limits (services/table/limits.py): over the limit is a 429 with Retry-After. This process's
count decides at once; the shared count in Redis runs in the background, refuses a client once it
says over, and is let finish, never cancelled (a cancelled Redis command costs its connection)."""

from __future__ import annotations

import asyncio
import time

import pytest
from limits import parse

from services.table.limits import LocalCounts, RateLimits, parse_rates
from services.table.problems import ApiError


class Limiter:
    """A stand-in for the shared counts (gcbc.ratelimits): counts hits, says yes ``allow``
    times, then over until 7.2 s from now."""

    def __init__(self, allow: int, delay: float = 0.0) -> None:
        self.allow, self.delay = allow, delay
        self.hits = 0
        self.costs: list[int] = []
        self.finished = 0

    async def hit(self, item, kind: str, who: str, cost: int = 1) -> float | None:  # noqa: ANN001
        self.hits += 1
        self.costs.append(cost)
        await asyncio.sleep(self.delay)
        self.finished += 1
        return None if self.hits <= self.allow else time.time() + 7.2

    async def warm(self) -> None:
        pass


def limits(limiter: Limiter) -> RateLimits:
    rates = RateLimits(limiter, parse_rates({"command": "2/second"}))
    # this process's windows on a clock stopped mid-second: the test's hits, a few ms apart, in
    # one window (on the real clock, a pause crossing a second would open the sliding window's
    # next one, where the previous count weighs less: a third hit allowed, about 1 run in 100)
    now = time.time()
    stopped = now - now % 1 + 0.5
    rates.local = LocalCounts(lambda: stopped)
    return rates


def test_over_the_limit_is_a_429_with_retry_after_without_waiting_for_redis() -> None:
    async def go() -> None:
        shared = Limiter(allow=100, delay=60)  # Redis never answers within the test
        rates = limits(shared)
        await rates.hit("command", "t:1")
        await rates.hit("command", "t:1")
        with pytest.raises(ApiError) as e:  # this process's own count decides at once
            await rates.hit("command", "t:1")
        assert e.value.status == 429 and e.value.code == "rate_limited"
        assert e.value.headers == {"Retry-After": "1"}  # 2/second: the window resets within 1 s
        await rates.hit("command", "t:2")  # another client (or seat) has a budget of its own
        await asyncio.sleep(0.01)
        assert shared.hits == 3 and shared.finished == 0  # counted in Redis, not waited for

    asyncio.run(go())


def test_a_client_over_the_shared_budget_is_refused_once_redis_says_so() -> None:
    async def go() -> None:
        # its other requests went to other processes: Redis has it over the budget already
        shared = Limiter(allow=0)
        rates = limits(shared)
        await rates.hit("command", "t:1")  # within this process's count: goes on
        await asyncio.sleep(0.01)  # the shared check, in the background
        with pytest.raises(ApiError) as e:
            await rates.hit("command", "t:1")
        assert e.value.headers == {"Retry-After": "8"}  # until the shared window resets
        assert shared.hits == 1  # refused here without asking Redis again
        await rates.hit("command", "t:2")  # another client is not

    asyncio.run(go())


def test_a_slow_shared_check_is_let_finish_and_pauses_the_next_ones() -> None:
    async def go() -> None:
        shared = Limiter(allow=0, delay=RateLimits.TIMEOUT * 2)
        rates = limits(shared)
        await rates.hit("command", "t:1")  # goes on at once
        await asyncio.sleep(0.01)
        assert shared.hits == 1 and shared.finished == 0
        await asyncio.sleep(RateLimits.TIMEOUT * 3)
        assert shared.finished == 1  # let finish, not cancelled
        with pytest.raises(ApiError):  # what it said still counts
            await rates.hit("command", "t:1")
        await rates.hit("command", "t:2")  # paused: counted here only, not in Redis
        assert shared.hits == 1

    asyncio.run(go())


def test_redis_failing_leaves_this_process_count_deciding() -> None:
    class Failing(Limiter):
        async def hit(self, item, kind: str, who: str, cost: int = 1) -> float | None:  # noqa: ANN001
            self.hits += 1
            raise ConnectionError("redis is away")

    async def go() -> None:
        shared = Failing(allow=0)
        rates = limits(shared)
        await rates.hit("command", "t:1")
        await asyncio.sleep(0.01)
        await rates.hit("command", "t:1")  # the failure paused the shared checks
        assert shared.hits == 1
        with pytest.raises(ApiError):
            await rates.hit("command", "t:1")  # still limited, by this process

    asyncio.run(go())


def test_kinds_without_a_rate_are_not_counted() -> None:
    async def go() -> None:
        limiter = Limiter(allow=0)
        await limits(limiter).hit("create", "1.2.3.4")
        assert limiter.hits == 0

    asyncio.run(go())


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_this_process_counts_in_a_sliding_window() -> None:
    """The limits library's sliding window counter: the previous window's count weighs as much
    as it still overlaps the last ``length`` seconds."""
    clock = Clock(1_000_000.0)  # a window starts here (windows are aligned on the clock)
    counts = LocalCounts(clock)
    item = parse("10/10 seconds")
    clock.now += 5
    assert [counts.hit(item, "command", "t:1") for _ in range(10)] == [None] * 10
    assert counts.hit(item, "command", "t:1") == 1_000_010.0  # over: until the window ends
    assert counts.hit(item, "chat", "t:1") is None  # a kind of its own
    clock.now = 1_000_010.0  # the previous window still counts in full
    assert counts.hit(item, "command", "t:1") == 1_000_020.0
    clock.now = 1_000_015.0  # half of it overlaps the last 10 s: 5 counted, 5 left
    assert [counts.hit(item, "command", "t:1") for _ in range(6)] == [None] * 5 + [1_000_020.0]
    clock.now = 1_000_030.0  # two windows later: nothing counts
    assert counts.hit(item, "command", "t:1") is None


def test_windows_gone_by_are_swept() -> None:
    clock = Clock(2_000_000.0)
    counts = LocalCounts(clock)
    for seat in range(100):
        counts.hit(parse("30/second"), "command", f"t:{seat}")
    counts.hit(parse("20/minute"), "create", "1.2.3.4")
    assert len(counts) == 101
    clock.now += LocalCounts.SWEEP_EVERY + 1  # past two seconds, not two minutes
    counts.hit(parse("30/second"), "command", "t:0")
    assert len(counts) == 2  # that seat's new window and the client's minute


def test_past_the_most_windows_the_least_recently_asked_about_goes() -> None:
    """Before: a window was kept for two of its lengths whatever the count, and clients coming
    from ever new addresses (an IPv6 network's /64s) grew the process without bound."""
    clock = Clock(3_000_000.0)
    counts = LocalCounts(clock, most=3)
    hour = parse("10/hour")
    for who in ("a", "b", "c"):
        counts.hit(hour, "register", who)
    counts.hit(hour, "register", "a")  # asked about again: the most recent now
    counts.hit(hour, "register", "d")  # one too many: b, the least recently asked about, goes
    assert len(counts) == 3
    assert [counts.current("register", w) for w in "abcd"] == [2, 0, 1, 1]
    two = parse("2/hour")
    counts.hit(two, "register", "c")  # c at its budget, then refused: still asking
    assert counts.hit(two, "register", "c") is not None
    counts.hit(hour, "register", "e")  # a, the least recently asked about, goes; c stays
    assert [counts.current("register", w) for w in "acde"] == [0, 2, 1, 1]


def test_a_client_far_from_its_budget_costs_redis_nothing() -> None:
    """Redis counts a client once it has used a quarter of its budget in this process: the first
    request over the share brings the count so far, then each one; a client spread over
    processes gets at most a quarter of its budget per process past the shared count."""

    async def go() -> None:
        shared = Limiter(allow=100)
        rates = RateLimits(shared, parse_rates({"command": "40/minute"}))
        for _ in range(9):
            await rates.hit("command", "t:1")
        await asyncio.sleep(0.01)
        assert shared.hits == 0  # 9 of 40: this process's count is enough
        await rates.hit("command", "t:1")  # the tenth: a quarter
        await rates.hit("command", "t:1")
        await rates.hit("command", "t:2")  # another client, far from its own budget
        await asyncio.sleep(0.01)
        assert shared.costs == [10, 1]  # the window's count so far, then one by one

    asyncio.run(go())


def test_pace_waits_for_the_window_instead_of_refusing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Within an answer under way (a long export), past the budget is a wait, never a 429."""
    now = time.time()
    clock = Clock(now - now % 60 + 1)  # early in a minute's window
    rates = RateLimits(None, parse_rates({"log_read": "2/minute"}))
    rates.local = LocalCounts(clock)
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        clock.now += seconds

    monkeypatch.setattr("services.table.limits.asyncio.sleep", sleep)

    async def go() -> None:
        await rates.pace("log_read", "1.2.3.4")
        await rates.pace("log_read", "1.2.3.4")
        assert slept == []
        with pytest.raises(ApiError):  # a new request is refused
            await rates.hit("log_read", "1.2.3.4")
        await rates.pace("log_read", "1.2.3.4")  # a paced one waits, then counts
        assert slept and all(0 < s <= 30 for s in slept)  # at most the spacing of 2 a minute
        assert rates.local.current("log_read", "1.2.3.4") == 1  # counted in its new window

    asyncio.run(go())


def test_a_paced_download_goes_at_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """Before: a paced request slept until the window a refusal named reset, where the sliding
    window still counted the previous one in full: an export of games went at half its budget
    (about 50 folds a minute for 120). Asking again at the budget's spacing keeps to it."""
    now = time.time()
    clock = Clock(now - now % 60 + 1)
    rates = RateLimits(None, parse_rates({"game_fold": "120/minute"}))
    rates.local = LocalCounts(clock)

    async def sleep(seconds: float) -> None:
        clock.now += seconds

    monkeypatch.setattr("services.table.limits.asyncio.sleep", sleep)

    async def go() -> float:
        started = clock.now
        for _ in range(600):
            await rates.pace("game_fold", "1.2.3.4")
        return (clock.now - started) / 60

    minutes = asyncio.run(go())
    assert 4.0 <= minutes <= 5.0, minutes  # 600 at 120 a minute (the first 120 at once)


def test_a_watched_key_with_a_cap_of_its_own_is_not_held_to_a_tables() -> None:
    """Before: the lobby's stream counted as one table's spectators (100 places per process), so
    ten addresses holding ten each kept every other client out of it."""
    from services.table.limits import OpenStreams

    streams = OpenStreams(
        2, 5, 0, per_table_client=3, own_caps={"/lobby": (4, "its watchers have")}
    )
    closes = [streams.open("/lobby", f"10.0.0.{i}", None) for i in range(4)]  # past a table's 2
    with pytest.raises(ApiError) as refused:
        streams.open("/lobby", "10.0.0.9", None)
    assert refused.value.status == 429 and "its watchers have 4" in refused.value.detail
    for close in closes:
        close()
    for _ in range(3):  # an address's share of places holds for it too
        streams.open("/lobby", "10.0.0.1", None)
    with pytest.raises(ApiError):
        streams.open("/lobby", "10.0.0.1", None)
    streams.open("t" * 16, "10.0.0.2", None)
    streams.open("t" * 16, "10.0.0.3", None)
    with pytest.raises(ApiError):  # a table's spectators keep the table's cap
        streams.open("t" * 16, "10.0.0.4", None)
