"""``python -m gcbc bench``: the engine's speed on this machine.

- decide + evolve per command (``rules.run``), over every command of random 6-seat games:
  p50 / p99 / max in microseconds, one process (target: p99 < 200 µs);
- the simulator: complete 6-seat games per second with random bots, a process per core as
  ``gcbc simulate`` plays them (target: >= 300), with and without the per-event invariant checks;
  one process's games per second beside it; and the CPU time per game (``process_time``: what the
  processes themselves spent, whatever else the machine runs).
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import random
import time
from pathlib import Path

from gcbc.bots import Observation, RandomBot
from gcbc.rules import current_wait, initial_state, is_terminal, legal_commands, run
from gcbc.rules.views import commands_json
from gcbc.sim.simulate import simulate, workers_default
from gcbc_contract import commands as C
from gcbc_contract.codec import command_from_json_object

SIMULATOR_TARGET = 300  # six-seat games per second, as `gcbc simulate` plays them


def command_latency(games: int, seats: int = 6, seed: int = 1) -> dict[str, float]:
    samples: list[int] = []
    clock = time.perf_counter_ns
    for g in range(games):
        s = initial_state()
        s, _ = run(s, C.OpenTable(table_id="bench", seats=seats))
        for i in range(seats):
            s, _ = run(s, C.TakeSeat(name=f"b{i}"))
        s, _ = run(s, C.StartGame(random_seed=seed + g))
        rng = random.Random(g)
        bot = RandomBot(g)
        while not is_terminal(s):
            wait = current_wait(s)
            seat = rng.choice(wait.seats)
            legal = commands_json(legal_commands(s, seat))
            answer = bot.act(Observation(seat, lambda: None, lambda legal=legal: legal))
            command = command_from_json_object({**answer, "seat": seat})
            t0 = clock()
            s, _ = run(s, command)
            samples.append(clock() - t0)
    samples.sort()

    def q(p: float) -> float:
        return round(samples[min(len(samples) - 1, int(p * len(samples)))] / 1000, 1)

    return {
        "commands": len(samples),
        "p50_us": q(0.50),
        "p99_us": q(0.99),
        "max_us": round(samples[-1] / 1000, 1),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="gcbc bench", description=__doc__)
    p.add_argument("--games", type=int, default=300, help="simulator games per measurement")
    p.add_argument("--latency-games", type=int, default=100)
    p.add_argument(
        "--out", metavar="FILE", help="also write the figures there, as JSON (make bench's summary)"
    )
    args = p.parse_args(argv)
    gc.collect()
    latency = command_latency(args.latency_games)
    workers = workers_default()
    runs = [
        simulate(args.games, [6], seed, "random", check=False, workers=workers)
        for seed in (1, 2, 3)
    ]
    best_plain = max(r["games_per_second"] for r in runs)
    alone = [simulate(args.games, [6], seed, "random", check=False) for seed in (1, 2)]
    one_process = max(r["games_per_second"] for r in alone)
    cpu_ms = min(r["cpu_ms_per_game"] for r in alone)
    checked = simulate(args.games, [6], 1, "random", check=True, workers=workers)
    result = {
        "decide_evolve": latency,
        "simulator_6_seats_random_games_per_second": best_plain,
        "simulator_workers": workers,
        "simulator_6_seats_random_games_per_second_one_process": one_process,
        "simulator_6_seats_random_cpu_ms_per_game": cpu_ms,
        "simulator_target_games_per_second": SIMULATOR_TARGET,
        "simulator_6_seats_random_games_per_second_with_invariants": checked["games_per_second"],
        "python": platform.python_version(),
        "machine": platform.machine(),
    }
    print(
        f"decide+evolve per command: p50 {latency['p50_us']} µs, p99 {latency['p99_us']} µs "
        f"(target p99 < 200 µs) over {latency['commands']} commands"
    )
    print(
        f"simulator, 6 seats, random bots, {workers} processes: {best_plain} games/s (target >= "
        f"{SIMULATOR_TARGET}); one process: {one_process} games/s, {cpu_ms} ms CPU per game; "
        f"{checked['games_per_second']} games/s checking invariants after every event"
    )
    print(json.dumps(result))
    if args.out:
        Path(args.out).write_text(json.dumps(result))
    return 0
