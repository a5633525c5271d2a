"""A bot playing one seat to the end of its game, through the public API: it reads the seat's
view, and when the table waits for it, sends what its bot chooses among ``legal_commands``. The
bot worker plays the house's seats with it; ``tools.demo`` and the end-to-end tests play whole
tables of HTTP seats with it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from gcbc_client.problems import Conflict, Invalid

from gcbc.bots import BOTS, Observation
from gcbc.contract.views import View


class PlayingSeat(Protocol):
    """What a bot needs of a seat (``gcbc_client.AsyncSeat`` is one)."""

    seat: int

    async def view(self, after: int | None = None, timeout: float = 0) -> View: ...

    async def send(self, command: Any, command_id: str | None = None) -> Any: ...


async def play_seat(
    seat: PlayingSeat,
    bot_name: str,
    seed: int,
    max_commands: int = 5000,
    idle: Callable[[int], bool] | None = None,
) -> None:
    """Play one seat to the end of the game. ``idle(seat)``: True makes the seat never act
    (its deadlines then pass and the autopilot plays for it)."""
    bot = BOTS[bot_name](seed)
    v = await seat.view()
    sent = refused = 0
    while v.status != "finished" and sent < max_commands:
        mine = any(w.seat == seat.seat for w in v.waiting_for)
        actionable = [c for c in v.legal_commands if c["type"] != "set_auto_pass"]
        if mine and actionable and not (idle and idle(seat.seat)):
            command = bot.act(Observation(seat.seat, lambda v=v: v))
            sent += 1
            try:
                answer = await seat.send(command)
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
        v = await seat.view(after=v.version, timeout=10)
