"""The simulator: complete games in-process, bots on every seat, invariants checked after every
event. Prints one JSON object (its last line) with the figures."""

from __future__ import annotations

import argparse
import gc
import json
import multiprocessing
import os
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from functools import cache
from typing import Any

import msgspec

from gcbc.bots import BOTS, Bot, Observation, RandomBot
from gcbc.bots.base import concrete
from gcbc.rules import current_wait, is_terminal, run, view
from gcbc.rules.invariants import violations
from gcbc.rules.legal import Group, is_template, legal_commands, legal_groups, waiting_groups
from gcbc.rules.rng import Rng
from gcbc.rules.state import FINISHED, State, initial_state
from gcbc.rules.views import commands_json
from gcbc_contract import commands as C
from gcbc_contract.cards import TEAMS
from gcbc_contract.codec import command_from_json_object
from gcbc_contract.options import TableOptions

MAX_COMMANDS = 20_000  # a game still running after this many commands counts as unfinished


def parse_players(text: str) -> list[int]:
    if "-" in text:
        lo, hi = (int(x) for x in text.split("-", 1))
        return list(range(lo, hi + 1))
    return [int(x) for x in text.split(",")]


class GameResult(msgspec.Struct):
    seats: int
    finished: bool
    turns: int
    commands: int
    events: int
    team: str | None
    violations: list[str]


def _observation(s: State, seat: int) -> Observation:
    return Observation(
        seat,
        lambda: view(s, seat, log=False),
        lambda: commands_json(legal_commands(s, seat)),
    )


# a legal command's ``type`` in JSON (a template, a dict, is JSON already: its "type")
_KINDS: dict[type, str] = {t: t.__struct_config__.tag for t in C.AnyCommand.__args__}


@cache
def _drawn(groups: tuple[Group, ...]) -> tuple[Group, ...]:
    """The groups a random bot draws among: all but set_auto_pass (``legal_groups`` gives a few
    tuples, each asked often)."""
    return tuple(g for g in groups if g.kind != "set_auto_pass")


def _random_move(
    bot: RandomBot, s: State, seat: int, groups: tuple[Group, ...] | None = None
) -> Any:
    """What a random bot plays for ``seat``, with the law of ``RandomBot.pick`` (a kind drawn
    among those that have commands, set_auto_pass aside, then one of its commands), asking as
    little as the law needs: the kinds of the seat's wait (``groups``: ``legal_groups`` of the
    seat, if known) are drawn in a random order, each asked for one of its commands drawn
    (``Group.draw``, none listed), until one has commands (``tests/unit/test_simulate.py``)."""
    if groups is None:
        groups = legal_groups(s, seat)
    rng = bot.rng
    left = list(_drawn(groups))
    while left:
        group = left[0] if len(left) == 1 else rng.choice(left)  # (one: no draw)
        picked = group.draw(s, seat, rng.choice)
        if picked is not None:
            break
        left.remove(group)
    else:  # no kind but set_auto_pass: the bot picks among all the legal commands
        legal = legal_commands(s, seat)
        picked = bot.pick(legal, [_KINDS.get(type(c)) or c["type"] for c in legal])
    if not is_template(picked):
        return picked
    answer = concrete(commands_json([picked])[0], rng)
    return command_from_json_object({**answer, "seat": seat})


def play_game(
    seats: int,
    seed: int,
    bot: str = "random",
    check: bool = True,
    miss_rate: float = 0.0,
    options: TableOptions | None = None,
) -> tuple[GameResult, State]:
    """One complete game; ``miss_rate``: chance a wait runs out instead (the autopilot acts)."""
    rng = Rng(seed, 99)
    bots: list[Bot] = [BOTS[bot](seed * 31 + i) for i in range(seats)]
    s = initial_state()
    opened = C.OpenTable(table_id=f"sim-{seed}", seats=seats, options=options or TableOptions())
    s, _ = run(s, opened)
    for i in range(seats):
        s, _ = run(s, C.TakeSeat(name=f"{bot}-{i}"))
    found: list[str] = []

    def observe(state: State) -> None:
        for v in violations(state):
            found.append(f"v{state.version}: {v}")

    observer = observe if check else None
    s, _ = run(s, C.StartGame(random_seed=seed), observer)
    commands = 0
    while s.step != FINISHED and commands < MAX_COMMANDS:
        if miss_rate and rng.below(1_000_000) < miss_rate * 1_000_000:
            wait = current_wait(s)
            assert wait is not None, "a started game always waits for someone"
            s, _ = run(s, C.DeadlinePassed(wait=wait.id), observer)
            commands += 1
            continue
        # current_wait(s).seats, without making the wait, and what they may send
        seats_waiting, groups = waiting_groups(s)
        seat = (
            seats_waiting[rng.below(len(seats_waiting))]
            if len(seats_waiting) > 1
            else seats_waiting[0]
        )
        player = bots[seat]
        if type(player) is RandomBot:
            command: Any = _random_move(player, s, seat, groups)
        else:
            answer = player.act(_observation(s, seat))
            command = command_from_json_object({**answer, "seat": seat})
        s, _ = run(s, command, observer)
        commands += 1
    return (
        GameResult(
            seats=seats,
            finished=is_terminal(s),
            turns=s.turn_number,
            commands=commands,
            events=s.version,
            team=s.win_team,
            violations=found,
        ),
        s,
    )


class _Share(msgspec.Struct):
    """What one process's games came to (the games ``first``, ``first + step``, …)."""

    results: list[tuple[int, GameResult]]
    cpu_seconds: float


def _play_share(
    games: int,
    players: list[int],
    seed: int,
    bot: str,
    check: bool,
    miss_rate: float,
    options: TableOptions,
    first: int,
    step: int,
    progress: bool,
) -> _Share:
    cpu_started = time.process_time()
    gc.freeze()  # the long-lived objects (modules, tables) need no more scanning
    results = []
    tenth = max(1, games // 10)
    for g in range(first, games, step):
        n = players[g % len(players)]
        gc.disable()  # a game makes many short-lived tuples and no reference cycles
        try:
            result, _ = play_game(n, seed * 1_000_003 + g, bot, check, miss_rate, options)
        finally:
            gc.enable()
        results.append((g, result))
        if progress and games >= 10 and (g + step) // tenth > g // tenth:  # a tenth passed
            print(f"  {g + 1}/{games} games", file=sys.stderr)
    return _Share(results, time.process_time() - cpu_started)


def workers_default() -> int:
    """One process per core this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def simulate(
    games: int,
    players: list[int],
    seed: int,
    bot: str,
    check: bool = True,
    miss_rate: float = 0.0,
    progress: bool = False,
    options: TableOptions | None = None,
    workers: int = 1,
) -> dict[str, Any]:
    """``games`` games, game ``g`` dealt from ``seed`` and ``g`` alone, so the figures do not
    depend on ``workers``: the processes that share the games (games are independent, so a
    machine's cores each play their share)."""
    options = options or TableOptions()
    workers = max(1, min(workers, games))
    share = (games, players, seed, bot, check, miss_rate, options)
    started = time.perf_counter()
    if workers == 1:
        shares = [_play_share(*share, 0, 1, progress)]
    else:
        # fork: the workers start with the modules loaded (spawn would import them again)
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(workers, mp_context=context) as pool:
            futures = [
                pool.submit(_play_share, *share, k, workers, progress and k == 0)
                for k in range(workers)
            ]
            shares = [f.result() for f in futures]
    elapsed = time.perf_counter() - started
    results = [r for _, r in sorted((p for s in shares for p in s.results), key=lambda p: p[0])]
    cpu = sum(s.cpu_seconds for s in shares)  # the processes' own time, whatever else runs
    wins: Counter[str] = Counter()
    for result in results:
        if result.team:
            for team in result.team.split("_"):  # "bomber_traitor": both teams win (RULES §9)
                wins[team] += 1
    turns = [r.turns for r in results]
    examples = [f"game {g}: {v}" for g, r in enumerate(results) for v in r.violations[:2]]
    return {
        "games": games,
        "finished": sum(r.finished for r in results),
        "options": msgspec.structs.asdict(options.with_defaults()),
        "wins": {team: wins.get(team, 0) for team in TEAMS},
        "mean_turns": round(sum(turns) / len(turns), 2) if turns else 0,
        "max_turns": max(turns, default=0),
        "invariant_violations": sum(len(r.violations) for r in results),
        "violation_examples": examples[:5],
        "games_per_second": round(games / elapsed, 1) if elapsed else None,
        "cpu_ms_per_game": round(1000 * cpu / games, 3) if games else None,
        "events": sum(r.events for r in results),
        "players": players,
        "bot": bot,
        "seed": seed,
        "invariants_checked": check,
        "miss_rate": miss_rate,
        "workers": workers,
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="gcbc simulate", description=__doc__)
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--players", default="4-8", help="e.g. 6, 4-8 or 4,6,8")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--bot", choices=sorted(BOTS), default="random")
    p.add_argument("--no-check", action="store_true", help="skip the invariant checks")
    p.add_argument(
        "--workers",
        type=int,
        default=workers_default(),
        help="processes sharing the games (default: one per core; the figures do not change)",
    )
    p.add_argument(
        "--miss-rate",
        type=float,
        default=0.0,
        help="chance that a wait runs out and the autopilot acts",
    )
    p.add_argument("--edition", choices=("fourth", "classic"), default="fourth")
    p.add_argument("--zombies", action="store_true", help="the Zombies expansion (RULES §8)")
    p.add_argument(
        "--bombers-traitors", action="store_true", help="the Bombers & Traitors expansion (§9)"
    )
    p.add_argument(
        "--extra-equipment", action="store_true", help="all compatible expansion cards (§8.1)"
    )
    p.add_argument(
        "--wounds",
        choices=("token", "card"),
        default=None,
        help="where a wound lives (RULES §4; default: token with fourth, card with classic)",
    )
    args = p.parse_args(argv)
    options = TableOptions(
        edition=args.edition,
        zombies=args.zombies,
        bombers_traitors=args.bombers_traitors,
        extra_equipment=args.extra_equipment,
        wounds=args.wounds,
    )
    result = simulate(
        args.games,
        parse_players(args.players),
        args.seed,
        args.bot,
        check=not args.no_check,
        miss_rate=args.miss_rate,
        progress=True,
        options=options,
        workers=args.workers,
    )
    print(json.dumps(result))
    return 0 if result["finished"] == result["games"] and not result["invariant_violations"] else 1
