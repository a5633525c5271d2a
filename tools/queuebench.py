"""``python -m tools.queuebench``: one matching round of quick play (``gcbc.queue.matching``:
every table that can be made now, at most the matchmaker's 100 a look) timed on a queue of 1,000
and of 10,000 waiting players: options of four kinds, rated or not, ratings spread as a pool's
are, waits up to three minutes, seat counts as players ask them, one in ten accepting the house's
bots. The figure is the median of a few rounds, each on the same queue (matching is pure); beside
it, a round over the queue left once every table that can be made is made (a quiet look: no
table, every anchor tried)."""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

from gcbc.queue.matching import Waiting, find_tables
from services.table.matchmaker import MAX_TABLES

KINDS = (b"base", b"zombies", b"bombers_traitors", b"zombies_bombers_traitors")
SEATS = ((4,), (5,), (6,), (4, 5, 6), (6, 7, 8), (8,), (4, 5, 6, 7, 8))
NOW = 10**12  # ms


def queue_of(size: int, rng: random.Random) -> list[Waiting]:
    """``size`` waiting players as a busy server's queue holds them."""
    out = []
    for i in range(size):
        rated = rng.random() < 0.5
        out.append(
            Waiting(
                player_id=f"{i:016x}",
                seats=rng.choice(SEATS),
                kind=rng.choice(KINDS) + (b":rated" if rated else b""),
                rated=rated,
                mu=min(50.0, max(0.0, rng.gauss(25.0, 8.0))),
                since=NOW - rng.randrange(0, 180_000),
                bots_after=60.0 if rng.random() < 0.1 else None,
            )
        )
    return out


def one_round(waiting: list[Waiting]) -> tuple[float, int]:
    """The seconds one round takes, and the tables it makes."""
    start = time.perf_counter()
    tables = find_tables(waiting, NOW, house_bots=True, limit=MAX_TABLES)
    return time.perf_counter() - start, len(tables)


def bench(sizes: list[int], rounds: int, seed: int) -> dict[str, dict[str, float]]:
    rng = random.Random(seed)
    out = {}
    for size in sizes:
        waiting = queue_of(size, rng)
        times, made = [], 0
        for _ in range(rounds):
            took, made = one_round(waiting)
            times.append(took)
        # the queue a look finds once every table that can be made is made: none to make
        matched = {p for t in find_tables(waiting, NOW, True, limit=size) for p in t.players}
        quiet = [w for w in waiting if w.player_id not in matched]
        out[str(size)] = {
            "median_ms": round(statistics.median(times) * 1000, 2),
            "max_ms": round(max(times) * 1000, 2),
            "tables": made,
            "quiet_waiting": len(quiet),
            "quiet_ms": round(
                statistics.median(one_round(quiet)[0] for _ in range(rounds)) * 1000, 2
            ),
        }
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000", help="queue sizes, comma-separated")
    parser.add_argument("--rounds", type=int, default=5, help="rounds timed per size")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, help="write the figures (JSON) to this file too")
    args = parser.parse_args(argv)
    got = {"matching_round": bench([int(s) for s in args.sizes.split(",")], args.rounds, args.seed)}
    text = json.dumps(got, indent=1)
    print(text)
    if args.out is not None:
        args.out.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
