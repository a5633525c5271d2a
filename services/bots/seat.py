"""A bot playing one seat to the end of its game, through the public API: it reads the seat's
view, and when the table waits for it, sends what its bot chooses among ``legal_commands``. The
bot worker plays the house's seats with it; ``tools.demo`` and the end-to-end tests play whole
tables of HTTP seats with it."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any, Protocol

from gcbc_client.problems import Conflict, Invalid, RateLimited

from gcbc.bots import BOTS, Observation
from gcbc_contract.commands import Resume
from gcbc_contract.views import View, Waiting


class PlayingSeat(Protocol):
    """What a bot needs of a seat (``gcbc_client.AsyncSeat`` is one)."""

    seat: int

    async def view(self, after: int | None = None, timeout: float = 0) -> View: ...

    async def send(self, command: Any, command_id: str | None = None) -> Any: ...


class Pacing(Protocol):
    """How a seat waits before each action (``services.bots.pace.Pace``: the house's think)."""

    async def before_action(self, seconds: float) -> bool: ...


async def play_seat(
    seat: PlayingSeat,
    bot_name: str,
    seed: int,
    max_commands: int = 5000,
    idle: Callable[[int], bool] | None = None,
    pace: Pacing | None = None,
) -> None:
    """Play one seat to the end of the game (RuntimeError past ``max_commands`` sent). ``idle(seat)``:
    True makes the seat never act (its deadlines then pass and the autopilot plays for it).
    ``pace``: waited on before each action (None: the seat acts at once)."""
    bot = BOTS[bot_name](seed)
    v = await seat.view()
    sent = refused = 0
    paced = False  # the seat has waited its pace for the wait it sees
    resumed = -1  # the view's version at which the seat last asked to come back
    while v.status != "finished" and sent < max_commands:
        playing = not (idle and idle(seat.seat))
        if playing and _away(v, seat.seat) and v.version != resumed:
            resumed = v.version
            back = await _come_back(seat)
            if back is not None:
                v = back
                continue
        mine = next((w for w in v.waiting_for if w.seat == seat.seat), None)
        if mine and v.must_act and playing:
            if pace is not None and not paced:
                paced = True
                if await pace.before_action(_left(mine)):
                    v = await seat.view()  # the table as it is now: it moved on meanwhile
                    continue
            paced = False
            command = bot.act(Observation(seat.seat, lambda v=v: v))
            sent += 1
            try:
                answer = await seat.send(command)
            except RateLimited as e:
                # over the seat's command rate (the house's seats are held to any player's):
                # nothing was sent
                sent -= 1
                await asyncio.sleep(e.retry_after or 1.0)
                v = await seat.view()
                continue
            except (Conflict, Invalid) as e:
                # our view was stale (another seat acted first, or the views are catching up
                # after a restart): wait for it to change, then look again
                refused += 1
                if refused > 200:
                    raise RuntimeError(f"seat {seat.seat}: {command} -> {e}") from None
                v = await seat.view(after=v.version, timeout=1 if refused < 5 else 3)
                continue
            refused = 0
            if isinstance(answer, View):
                v = answer
                continue
        paced = False
        v = await seat.view(after=v.version, timeout=10)
    if v.status != "finished":  # said, not left quietly to the autopilot
        raise RuntimeError(f"seat {seat.seat}: {max_commands} commands and the game goes on")


def _away(v: View, seat: int) -> bool:
    return 0 <= seat < len(v.seats) and v.seats[seat].absent


async def _come_back(seat: PlayingSeat) -> View | None:
    """Away after missed deadlines (the bots were stopped, or late): a player that is back takes
    its seat back from the autopilot (RULES §10), so does a bot. Its view, if answered with one
    (None: the autopilot keeps it, asked again once its view changes)."""
    try:
        answer = await seat.send(Resume())
    except (Conflict, Invalid, RateLimited):
        return None
    return answer if isinstance(answer, View) else None


def _left(wait: Waiting) -> float:
    """The seconds left of a wait (a bot that looks late, after a restart, thinks within what
    is left, not within the wait's whole length): its length if its deadline is not told."""
    deadline = wait.deadline
    if not deadline:
        return wait.seconds
    try:
        end = datetime.fromisoformat(deadline.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return wait.seconds
    return max(0.0, min(wait.seconds, end - time.time()))
