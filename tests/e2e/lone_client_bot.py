"""Bots that play one whole table through the typed client alone (``gcbc_client`` and
``gcbc_contract``, nothing of the server): ``tests/e2e/test_client_installs_alone.py`` runs this
file with the python of a virtual environment that holds only the two wheels and their
dependencies. It prints one JSON line: the table's end and where each module came from.

    python lone_client_bot.py http://127.0.0.1:8000 [seed]
"""

from __future__ import annotations

import json
import random
import sys
import time
from typing import Any

import gcbc_client
import msgspec
from gcbc_client import Client
from gcbc_client.problems import Conflict, Invalid

import gcbc_contract
from gcbc_contract.views import View

SEATS = 4
PATIENCE = 60.0  # seconds: a random 4-seat game takes a few hundred commands


def sendable(offered: Any, rng: random.Random) -> dict[str, Any]:
    """A command from a ``legal_commands`` entry (a typed command): a template's ``choose``
    filled at random."""
    entry = msgspec.to_builtins(offered)
    command = {k: v for k, v in entry.items() if k != "choose"}
    for name, allowed in entry.get("choose", {}).items():
        if allowed and isinstance(allowed[0], list):
            command[name] = [rng.choice(a) for a in allowed]
        else:
            command[name] = rng.choice(allowed)
    return command


def pick(view: View, rng: random.Random) -> dict[str, Any] | None:
    """A kind of command at random, then one of its entries."""
    mine = view.legal_commands if view.must_act else []
    if not mine:
        return None
    kinds = {type(c).__struct_config__.tag: type(c) for c in mine}
    kind = kinds[rng.choice(sorted(kinds))]
    return sendable(rng.choice([c for c in mine if type(c) is kind]), rng)


def play(api: str, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    with Client(api) as client:
        table = client.create_table(SEATS)
        seats = [client.join(table.table_id, f"alone-{i}") for i in range(SEATS)]
        seats[0].start()
        sent = refused = 0
        deadline = time.monotonic() + PATIENCE
        view = seats[0].view()
        while view.status != "finished" and time.monotonic() < deadline:
            waiting = sorted({w.seat for w in view.waiting_for}) or list(range(SEATS))
            seat = seats[rng.choice(waiting)]
            view = seat.view()
            command = pick(view, rng)
            if command is None:  # nothing to send yet: wait for the table to change
                view = seat.view(after=view.version, timeout=1)
                continue
            try:
                answer = seat.send(command)
            except (Conflict, Invalid):  # a stale view, or a template's draw the rules refuse
                refused += 1
                continue
            sent += 1
            if isinstance(answer, View):
                view = answer
            else:  # recorded, not yet in the view: look again
                view = seat.view(after=view.version, timeout=5)
        public = client.table(table.table_id)
        events = len(client.history(table.table_id).events) if public.status == "finished" else 0
    return {
        "table_id": table.table_id,
        "status": public.status,
        "winners": public.winners,
        "commands": sent,
        "refused": refused,
        "history_events": events,
        "modules": {m.__name__: m.__file__ for m in (gcbc_client, gcbc_contract)},
        "server_modules": sorted(
            m
            for m in sys.modules
            if m.split(".")[0] in {"gcbc", "litestar", "nats", "redis", "uvicorn"}
        ),
    }


if __name__ == "__main__":
    print(json.dumps(play(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1)))
