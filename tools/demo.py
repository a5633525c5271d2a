"""Bots playing whole tables through the public HTTP API, exactly as a third-party client would:
each seat long-polls its own view and answers from ``legal_commands``. ``make demo`` runs one
table and prints the public log as it grows; the end-to-end tests run many at once."""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
from collections.abc import Callable
from typing import Any

from gcbc_client import AsyncClient, AsyncSeat

from gcbc.bots import BOTS
from services.bots.seat import play_seat

Recorder = Callable[[int | None, str, int, bytes], None]  # (seat, what, status, body)


async def open_table(
    client: AsyncClient,
    seats: int,
    table_seed: int | str | None = None,
    **extra: Any,
) -> tuple[str, list[AsyncSeat]]:
    """Create a table and fill it with bots. ``table_seed``: a chosen deal (scenario servers
    only, GCBC_ALLOW_SCENARIOS=1); by default the server draws it."""
    table = await client.create_table(seats, seed=table_seed, **extra)
    players = [await client.join(table.table_id, f"bot-{i}") for i in range(seats)]
    await players[0].start()
    return table.table_id, players


async def play_table(
    api: str,
    seats: int,
    bot: str = "heuristic",
    seed: int = 1,
    record: Recorder | None = None,
    idle: Callable[[int], bool] | None = None,
    table_seed: int | str | None = None,
    **extra: Any,
) -> str:
    """Bots (seeded with ``seed``) play a table to the end; its id."""
    async with AsyncClient(api, timeout=60, record=record, transport="aiohttp") as client:
        table_id, players = await open_table(client, seats, table_seed, **extra)
        await asyncio.gather(*(play_seat(p, bot, seed * 10 + p.seat, idle=idle) for p in players))
        return table_id


async def watch(api: str, table_id: str, out=sys.stdout) -> None:
    """Print the public log as it grows (a spectator's stream), until the game ends."""
    async with AsyncClient(api, timeout=60, transport="aiohttp") as client:
        seen = 0
        async for v in client.watch(table_id):
            for entry in v.log:
                if entry["v"] > seen:
                    seen = entry["v"]
                    fields = {k: x for k, x in entry.items() if k not in ("type", "v")}
                    print(f"{entry['v']:4} {entry['type']:<20} {fields}", file=out, flush=True)
            if v.status == "finished":
                print(f"winners: {v.winners} ({v.win_team}, {v.win_reason})", file=out)
                return


async def demo(
    api: str, seats: int, bot: str, seed: int, options: dict[str, Any] | None = None
) -> None:
    async with AsyncClient(api, timeout=60, transport="aiohttp") as client:
        table_id, players = await open_table(client, seats, options=options or {})
        print(f"table {table_id}: {seats} {bot} bots; public view: {api}/tables/{table_id}")
        await asyncio.gather(
            watch(api, table_id),
            *(play_seat(p, bot, seed * 10 + p.seat) for p in players),
        )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tools.demo", description=__doc__)
    p.add_argument("--api", default="http://127.0.0.1:8000")
    p.add_argument("--seats", type=int, default=6)
    p.add_argument("--bot", choices=sorted(BOTS), default="heuristic")
    p.add_argument("--seed", type=int, default=random.randrange(1 << 30))
    p.add_argument("--edition", choices=("fourth", "classic"), default="fourth")
    p.add_argument("--zombies", action="store_true")
    p.add_argument("--bombers-traitors", action="store_true")
    p.add_argument("--extra-equipment", action="store_true")
    p.add_argument("--wounds", choices=("token", "card"), help="default: the edition's (§4)")
    args = p.parse_args(argv)
    options = {
        "edition": args.edition,
        "zombies": args.zombies,
        "bombers_traitors": args.bombers_traitors,
        "extra_equipment": args.extra_equipment,
        **({"wounds": args.wounds} if args.wounds else {}),
    }
    asyncio.run(demo(args.api, args.seats, args.bot, args.seed, options))
    return 0


if __name__ == "__main__":
    sys.exit(main())
