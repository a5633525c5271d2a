"""Table logs made without the services: bots play whole tables on the engine and every command
and answer is appended to an event log exactly as the table service and the rules worker would
write them (entries alternate command / answer, each expecting the table's last sequence). For
the rebuild bench and the ops tests: thousands of realistic tables in seconds.

``python -m tools.tablelogs --tables 200`` fills the stream of ``GCBC_NATS_URL`` (operators only).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import secrets
import sys
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

from gcbc.bots import BOTS, Observation
from gcbc.eventlog.port import EventLog
from gcbc.eventlog.records import append_entry
from gcbc.rules import RuleViolation, current_wait, decide, fold, is_terminal, view
from gcbc.rules.legal import legal_commands
from gcbc.rules.state import State, initial_state
from gcbc.rules.views import commands_json
from gcbc_contract import commands as C
from gcbc_contract.codec import command_from_json_object
from gcbc_contract.entries import AnyEntry, CommandEntry, OutcomeEntry, RefusalEntry
from gcbc_contract.options import TableOptions

OPTION_MIX = (
    TableOptions(),
    TableOptions(edition="classic"),
    TableOptions(zombies=True),
    TableOptions(bombers_traitors=True, extra_equipment=True),
    TableOptions(edition="classic", zombies=True, bombers_traitors=True, wounds="token"),
    TableOptions(extra_equipment=True, wounds="card"),
)
MAX_COMMANDS = 5000


class Step:
    """One command and the engine's answer to it (events, or a refusal code and message)."""

    __slots__ = ("answer", "command", "token_hash")

    def __init__(self, command: Any, answer: list[Any] | RuleViolation, token_hash: str | None):
        self.command, self.answer, self.token_hash = command, answer, token_hash


def _decide(s: State, command: Any) -> tuple[State, list[Any] | RuleViolation]:
    try:
        events = decide(s, command)
    except RuleViolation as v:
        return s, v
    return fold(events, s), events


def play(
    table_id: str,
    seats: int,
    seed: int,
    options: TableOptions | None = None,
    finish: bool = True,
    bot: str = "random",
    miss_rate: float = 0.02,
    chat_rate: float = 0.02,
    stale_rate: float = 0.02,
    auto_pass_rate: float = 0.0,
) -> Iterator[Step]:
    """A table's commands and answers, as the services record them: opened, seated, started
    and played to the end by bots (``finish``: else it stays in the lobby, half full); now and
    then a deadline passes, a seat chats, or a stale command is refused; ``auto_pass_rate``: a
    seat turns its auto-pass on or off (a log a player lengthens at will)."""
    rng = random.Random(seed)
    s = initial_state()

    def step(command: Any, token_hash: str | None = None) -> Step:
        nonlocal s
        s, answer = _decide(s, command)
        return Step(command, answer, token_hash)

    yield step(C.OpenTable(table_id=table_id, seats=seats, options=options or TableOptions()))
    for i in range(seats if finish else max(1, seats // 2)):
        yield step(C.TakeSeat(name=f"bot-{i}"), secrets.token_hex(32))
    if not finish:
        return
    yield step(C.StartGame(seat=0, random_seed=rng.randrange(1 << 62)))
    bots = [BOTS[bot](seed * 31 + i) for i in range(seats)]
    rates = (miss_rate, chat_rate, stale_rate, auto_pass_rate)
    commands = 0
    while not is_terminal(s) and commands < MAX_COMMANDS:
        commands += 1
        yield step(_next_command(s, rng, bots, commands, rates))


def _next_command(
    s: State, rng: random.Random, bots: list[Any], commands: int, rates: tuple[float, ...]
) -> Any:
    """A game in play's next command: now and then a deadline passing, a chat, a stale command
    or an auto-pass switched (``rates``: the chances of each), else a waited-for seat's move."""
    miss_rate, chat_rate, stale_rate, auto_pass_rate = rates
    wait = current_wait(s)
    assert wait is not None, "a started game always waits for someone"
    roll = rng.random()
    if roll < miss_rate:
        return C.DeadlinePassed(wait=wait.id)
    seat = rng.choice(wait.seats)
    if roll < miss_rate + chat_rate:
        return C.PostChat(seat=seat, text=f"gg {commands}")
    if roll < miss_rate + chat_rate + stale_rate:
        return C.Shoot(seat=(seat + 1) % len(bots))  # most likely not its turn: refused
    if roll < miss_rate + chat_rate + stale_rate + auto_pass_rate:
        return C.SetAutoPass(seat=seat, enabled=not s.seats[seat].auto_pass)
    observation = Observation(
        seat,
        lambda: view(s, seat, log=False),
        lambda: commands_json(legal_commands(s, seat)),
    )
    return command_from_json_object({**bots[seat].act(observation), "seat": seat})


def table_mix(count: int, seed: int = 1, lobby_share: float = 0.1) -> list[dict[str, Any]]:
    """``count`` tables of 4-8 seats over every option in OPTION_MIX; ``lobby_share`` of them
    still waiting for players."""
    rng = random.Random(seed)
    return [
        {
            "table_id": f"{seed:04x}{i:012x}"[-16:],
            "seats": 4 + i % 5,
            "seed": rng.randrange(1 << 30),
            "options": OPTION_MIX[i % len(OPTION_MIX)],
            "finish": rng.random() >= lobby_share,
        }
        for i in range(count)
    ]


def _entry(step: Step, at: int, prev: int, answers: int, command: CommandEntry) -> AnyEntry:
    if isinstance(step.answer, RuleViolation):
        return RefusalEntry(
            answers=answers,
            code=step.answer.code,
            message=step.answer.message,
            at=at,
            prev=prev,
            command=command,
        )
    return OutcomeEntry(answers=answers, events=step.answer, at=at, prev=prev, command=command)


async def write_table(
    log: EventLog, steps: Iterator[Step], table_id: str, imported: bool = False
) -> int:
    """Append a table's steps to ``log`` as the services do; the number of entries written.
    ``imported``: each command marked as ``gcbc-ops import`` marks it (a rules worker running
    meanwhile leaves it to the answer written here)."""
    last = 0
    written = 0
    for step in steps:
        at = int(time.time() * 1000)
        entry = CommandEntry(
            command=step.command, token_hash=step.token_hash, at=at, prev=last, imported=imported
        )
        command = (await append_entry(log, table_id, entry, last)).seq
        answer = _entry(step, at, command, command, entry)
        last = (await append_entry(log, table_id, answer, command)).seq
        written += 2
        await asyncio.sleep(0)  # the other tables' turn: their entries interleave
    return written


async def fill(
    log: EventLog,
    tables: list[dict[str, Any]],
    concurrency: int = 64,
    progress: bool = False,
    imported: bool = False,
) -> int:
    """Write every table of ``tables`` (``table_mix``), ``concurrency`` at a time; entries."""
    queue = list(reversed(tables))
    total = 0
    started = time.monotonic()

    async def worker() -> None:
        nonlocal total
        while queue:
            t = queue.pop()
            steps = play(t["table_id"], t["seats"], t["seed"], t["options"], t["finish"])
            written = await write_table(log, steps, t["table_id"], imported)
            total += written  # (not `total += await …`: it would read total before waiting)
            if progress and len(queue) % 50 == 0:
                rate = total / max(time.monotonic() - started, 1e-6)
                print(
                    f"  {len(tables) - len(queue)}/{len(tables)} tables, {total} entries"
                    f" ({rate:.0f}/s)",
                    file=sys.stderr,
                    flush=True,
                )

    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return total


@contextlib.asynccontextmanager
async def connected(url: str) -> AsyncIterator[Any]:
    """The JetStream log at ``url``, closed after use."""
    from gcbc.eventlog.jetstream import JetStreamEventLog

    log = await JetStreamEventLog.connect(url)
    try:
        yield log
    finally:
        await log.close()


async def fill_at(url: str, tables: list[dict[str, Any]], **kw: Any) -> int:
    """``fill`` the JetStream log at ``url``."""
    async with connected(url) as log:
        return await fill(log, tables, **kw)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tools.tablelogs", description=__doc__)
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--lobby-share", type=float, default=0.1)
    args = p.parse_args(argv)
    mix = table_mix(args.tables, args.seed, args.lobby_share)
    written = asyncio.run(fill_at(os.environ.get("GCBC_NATS_URL", ""), mix, progress=True))
    print(f"{written} entries written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
