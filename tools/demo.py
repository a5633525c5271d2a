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

import httpx
import msgspec

from gcbc.bots import BOTS, Observation
from gcbc.contract.views import View

_view = msgspec.json.Decoder(View)
Recorder = Callable[[int | None, str, int, bytes], None]  # (seat, what, status, body)


class SeatClient:
    def __init__(
        self,
        http: httpx.AsyncClient,
        table_id: str,
        seat: int,
        token: str,
        record: Recorder | None = None,
    ) -> None:
        self.http, self.table_id, self.seat, self.token = http, table_id, seat, token
        self.headers = {"Authorization": f"Bearer {token}"}
        self.record = record

    def _note(self, what: str, r: httpx.Response) -> None:
        if self.record is not None:
            self.record(self.seat, what, r.status_code, r.content)

    async def view(self, after: int | None = None, timeout: float = 0) -> View:
        params = {} if after is None else {"after": after, "timeout": timeout}
        r = await self.http.get(
            f"/tables/{self.table_id}/view", params=params, headers=self.headers
        )
        self._note("view", r)
        r.raise_for_status()
        return _view.decode(r.content)

    async def send(self, command: dict[str, Any]) -> httpx.Response:
        r = await self.http.post(
            f"/tables/{self.table_id}/commands", json=command, headers=self.headers
        )
        self._note("command", r)
        return r


async def open_table(
    http: httpx.AsyncClient,
    seats: int,
    table_seed: int | None = None,
    record: Recorder | None = None,
    **extra: Any,
) -> tuple[str, list[SeatClient]]:
    """Create a table and fill it with bots. ``table_seed``: a chosen deal (scenario servers
    only, GCBC_ALLOW_SCENARIOS=1); by default the server draws it."""
    body: dict[str, Any] = {"seats": seats, **extra}
    if table_seed is not None:
        body["seed"] = table_seed
    r = await http.post("/tables", json=body)
    r.raise_for_status()
    table_id = r.json()["table_id"]
    clients = []
    for i in range(seats):
        r = await http.post(f"/tables/{table_id}/seats", json={"name": f"bot-{i}"})
        if record is not None:
            record(None, "seat", r.status_code, r.content)
        r.raise_for_status()
        got = r.json()
        clients.append(SeatClient(http, table_id, got["seat"], got["token"], record))
    r = await http.post(f"/tables/{table_id}/start", headers=clients[0].headers)
    clients[0]._note("start", r)
    r.raise_for_status()
    return table_id, clients


async def play_seat(
    client: SeatClient,
    bot_name: str,
    seed: int,
    max_commands: int = 5000,
    idle: Callable[[int], bool] | None = None,
) -> None:
    """Play one seat to the end of the game. ``idle(seat)``: True makes the seat never act
    (its deadlines then pass and the autopilot plays for it)."""
    bot = BOTS[bot_name](seed)
    v = await client.view()
    sent = refused = 0
    while v.status != "finished" and sent < max_commands:
        mine = any(w.seat == client.seat for w in v.waiting_for)
        actionable = [c for c in v.legal_commands if c["type"] != "set_auto_pass"]
        if mine and actionable and not (idle and idle(client.seat)):
            command = bot.act(Observation(client.seat, lambda v=v: v))
            r = await client.send(command)
            sent += 1
            if r.status_code == 200:
                v = _view.decode(r.content)
                refused = 0
                continue
            if r.status_code in (409, 422):
                # our view was stale (another seat acted first, or the views are catching up
                # after a restart): wait for it to change, then look again
                refused += 1
                if refused > 200:
                    raise RuntimeError(f"seat {client.seat}: {command} -> {r.status_code} {r.text}")
                v = await client.view(after=v.version, timeout=1 if refused < 5 else 3)
                continue
            if r.status_code != 202:
                raise RuntimeError(f"seat {client.seat}: {command} -> {r.status_code} {r.text}")
            refused = 0
        v = await client.view(after=v.version, timeout=10)


async def play_table(
    api: str,
    seats: int,
    bot: str = "heuristic",
    seed: int = 1,
    record: Recorder | None = None,
    idle: Callable[[int], bool] | None = None,
    table_seed: int | None = None,
    **extra: Any,
) -> str:
    """Bots (seeded with ``seed``) play a table to the end; its id."""
    async with httpx.AsyncClient(base_url=api, timeout=60) as http:
        table_id, clients = await open_table(http, seats, table_seed, record, **extra)
        await asyncio.gather(*(play_seat(c, bot, seed * 10 + c.seat, idle=idle) for c in clients))
        return table_id


async def watch(api: str, table_id: str, out=sys.stdout) -> None:
    """Print the public log as it grows, until the game ends."""
    async with httpx.AsyncClient(base_url=api, timeout=60) as http:
        seen = 0
        version = None
        while True:
            params = {} if version is None else {"after": version, "timeout": 10}
            r = await http.get(f"/tables/{table_id}/view", params=params)
            v = r.json()
            version = v["version"]
            for entry in v["log"]:
                if entry["v"] > seen:
                    seen = entry["v"]
                    fields = {k: x for k, x in entry.items() if k not in ("type", "v")}
                    print(f"{entry['v']:4} {entry['type']:<20} {fields}", file=out, flush=True)
            if v["status"] == "finished":
                print(f"winners: {v['winners']} ({v['win_team']}, {v['win_reason']})", file=out)
                return


async def demo(
    api: str, seats: int, bot: str, seed: int, options: dict[str, Any] | None = None
) -> None:
    async with httpx.AsyncClient(base_url=api, timeout=60) as http:
        table_id, clients = await open_table(http, seats, options=options or {})
        print(f"table {table_id}: {seats} {bot} bots; public view: {api}/tables/{table_id}")
        await asyncio.gather(
            watch(api, table_id),
            *(play_seat(c, bot, seed * 10 + c.seat) for c in clients),
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
