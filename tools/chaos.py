"""The chaos suite: while bot tables play through HTTP, faults at random moments,
then the checks that must hold after each.

Faults (one machine): kill -9 a service instance (rules, projection, table, bots) and start it
again, kill -9 the rules worker or the projection under the launcher's supervision (its slot
starts it again, as under ``make run``: the recovery counts from the kill), kill -9 NATS (it comes
back on the same data), restart Redis empty (no persistence), pause the rules worker (SIGSTOP)
past its ack wait, restart the table service. After each, and at the end:
- every table finishes;
- every command the server accepted (200/202, as the players' client saw it) is in the log exactly
  once, and every command in the log is answered exactly once, right after it;
- re-deciding every recorded command gives the recorded answers (no outcome twice, none lost);
- the live views equal a rebuild from the log;
- the time to recover: from the end of the fault (a supervised kill's end is the kill) to the
  first table created and answered (and, for a fault of the read model's index, listed in the
  lobby).

``make chaos`` runs every fault on a stack of its own (a few minutes); ``make test`` runs a short
version (tests/e2e/test_chaos.py, which also audits every view the players received for leaks).
``--cluster`` runs the cluster's faults on ``make run-cluster``'s setup (3 NATS nodes, the stream
with 3 replicas, a Redis Cluster of 3 primaries with a replica each, two instances of each worker): kill -9 the stream's
leader node, or another node, each started again 3 s later; kill -9 the Redis primary holding the
read model's index, its replica promoted, the node started again once it was, as its replica (the
recovery counts from the kill).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import signal
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
from gcbc_client import AsyncClient
from gcbc_client.problems import ApiProblem
from gcbc_client.transport import Answer

from gcbc.eventlog.jetstream import STREAM, JetStreamEventLog
from gcbc.eventlog.port import LogUnavailable
from gcbc.eventlog.records import entry_of
from gcbc.readmodel.memory import MemoryReadModel
from gcbc.readmodel.port import PUBLIC, seat_key
from gcbc.readmodel.redis import RedisReadModel
from gcbc.readmodel.rediscluster import AT as INDEX_KEY
from gcbc.rules import RuleViolation, decide, fold, initial_state
from gcbc_contract.entries import CommandEntry, OutcomeEntry, RefusalEntry
from gcbc_contract.http import TableCreatedLater
from services.bots.seat import play_seat
from services.common import view_writer
from services.common.settings import LOG_LIMIT
from tools import devservers
from tools.bench.stacks import BENCH_LIMITS
from tools.launcher import SECOND_INSTANCES, SUPERVISE_EVERY, Stack, cluster_stack, retrying

FAST = {"turn": 0.5, "reaction": 0.3, "prompt": 0.3, "arrange": 0.5}
ACK_WAIT = 5.0  # the rules worker's (services/rules/service.py): a pause must outlast it
# a whole table waits no longer than this for a fault to pass (its seats retry meanwhile)
TABLE_PATIENCE = 240.0


async def _log(stack: Stack, within: float = 30.0) -> JetStreamEventLog:
    """The operator's connection to the stack's log, at its replicas (connecting asks for them:
    the default of one would shrink a cluster's stream), once its stream answers: right after a
    fault a cluster may still be electing the stream's leader, which a check waits out."""
    replicas = int(stack.extra_env.get("GCBC_STREAM_REPLICAS", "1"))
    return await retrying(
        lambda: JetStreamEventLog.connect(stack.nats_url, replicas), within, LogUnavailable
    )


# --- faults: coroutines, so the players go on meanwhile; processes are started from the main
# thread (a child started from a worker thread would die with that thread: PR_SET_PDEATHSIG) ----
async def _kill(stack: Stack, name: str) -> None:
    stack.kill(name)
    await asyncio.sleep(0.5)
    stack.start_service(name)


async def _supervised_kill(stack: Stack, name: str) -> None:
    """kill -9 a slot's process and let the launcher's supervision start it again (beside the
    players, as ``make run``'s loop does): the fault ends with the kill."""
    stack.procs[name].send_signal(signal.SIGKILL)
    _in_background(_supervise(stack, name))


async def _supervise(stack: Stack, name: str) -> None:
    while name not in stack.supervise():
        await asyncio.sleep(SUPERVISE_EVERY)


_background: set[asyncio.Task] = set()


def _in_background(coro: Awaitable[None]) -> None:
    """Run ``coro`` beside the players; ``run_fault`` waits for it before the checks."""
    task = asyncio.ensure_future(coro)
    _background.add(task)
    task.add_done_callback(_background.discard)


async def _kill_nats_node(stack: Stack, leader: bool) -> None:
    """kill -9 the stream's leader node (or another one); it starts again 3 s later, beside the
    players, while the others elect a leader: the fault ends with the kill."""
    cluster = stack.servers["nats"]
    assert isinstance(cluster, devservers.NatsCluster)
    log = await _log(stack)
    try:
        leading = (await log.js.stream_info(STREAM)).cluster.leader  # type: ignore[union-attr]
    finally:
        await log.close()
    name = leading if leader else next(n for n in cluster.names if n != leading)
    node = cluster.node(name)
    node.stop(kill=True)

    async def later() -> None:
        await asyncio.sleep(3.0)
        node.restart()

    _in_background(later())


async def _kill_redis_primary(stack: Stack) -> None:
    """kill -9 the Redis Cluster primary holding the read model's index (every put's follow-up
    writes there); its replica takes over its slots, and the node starts again once it did, as a
    replica (beside the players): the fault ends with the kill."""
    cluster = stack.redis
    assert isinstance(cluster, devservers.RedisCluster)
    node = cluster.primary_of(INDEX_KEY)
    node.stop(kill=True)

    async def later() -> None:
        deadline = time.monotonic() + 30
        while not await asyncio.to_thread(cluster.failed_over) and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        node.restart()
        await asyncio.to_thread(cluster.wait_ok)

    _in_background(later())


async def _kill_nats(stack: Stack) -> None:
    nats = stack.servers["nats"]
    nats.stop(kill=True)
    await asyncio.sleep(0.5)
    nats.restart()


async def _redis_empty(stack: Stack) -> None:
    stack.servers["redis"].restart()  # no persistence: it comes back empty


async def _pause_worker(stack: Stack) -> None:
    proc = stack.procs["rules"]
    proc.send_signal(signal.SIGSTOP)
    await asyncio.sleep(ACK_WAIT + 1.0)  # its unacknowledged commands are delivered again
    proc.send_signal(signal.SIGCONT)


async def _restart_table(stack: Stack) -> None:
    proc = stack.procs.pop("table")
    proc.send_signal(signal.SIGTERM)
    while proc.poll() is None:
        await asyncio.sleep(0.05)
    stack.start_service("table")


FAULTS: dict[str, Callable[[Stack], Awaitable[None]]] = {
    "kill -9 rules": lambda s: _kill(s, "rules"),
    "kill -9 projection": lambda s: _kill(s, "projection"),
    "kill -9 table": lambda s: _kill(s, "table"),
    "kill -9 bots": lambda s: _kill(s, "bots"),
    "supervised kill -9 rules": lambda s: _supervised_kill(s, "rules"),
    "supervised kill -9 projection": lambda s: _supervised_kill(s, "projection"),
    "kill -9 nats": _kill_nats,
    "restart redis empty": _redis_empty,
    "pause rules past its ack wait": _pause_worker,
    "restart table": _restart_table,
}
# on a cluster (--cluster): make run-cluster's setup
CLUSTER_FAULTS: dict[str, Callable[[Stack], Awaitable[None]]] = {
    "kill -9 the stream leader": lambda s: _kill_nats_node(s, leader=True),
    "kill -9 a NATS node": lambda s: _kill_nats_node(s, leader=False),
    "supervised kill -9 rules": FAULTS["supervised kill -9 rules"],
    "kill -9 a Redis primary": _kill_redis_primary,
}

# faults of the read model's index: recovered once a new table is listed in the lobby again
LOBBY_FAULTS = {"kill -9 a Redis primary"}


# --- players that outlive faults ----------------------------------------------------------------
@dataclass
class Record:
    """What the players' client saw: each accepted command, and each view body received."""

    accepted: list[tuple[str, str]] = field(default_factory=list)  # (table, command_id)
    views: list[tuple[str, bytes]] = field(default_factory=list)  # (table, view JSON)
    keep_views: bool = False

    def answered(self, method: str, url: str, sent: bytes | None, answer: Answer) -> None:
        """The players' client's hook: it sees every answer with what was sent."""
        path = url.split("?", 1)[0]
        table = path.split("/")[2] if path.startswith("/tables/") else ""
        if method == "POST" and path.endswith("/commands") and answer.status in (200, 202):
            self.accepted.append((table, json.loads(sent or b"{}")["command_id"]))
        if self.keep_views and answer.status == 200 and path.endswith(("/view", "/commands")):
            self.views.append((table, answer.body))


async def play_through(
    api: str, seats: int, seed: int, record: Record, house: tuple[int, ...] = ()
) -> str:
    """A table of bot seats playing over HTTP, each on through faults until the game is over;
    ``house``: seats the house's bot worker plays."""
    async with AsyncClient(
        api, timeout=30, answered=record.answered, transport="aiohttp"
    ) as client:
        bots = {"seats": list(house), "think": 0} if house else None
        table = await retrying(
            lambda: client.create_table(seats, deadlines=FAST, bots=bots)  # type: ignore[arg-type]
        )
        players = [
            await retrying(lambda i=i: client.join(table.table_id, f"bot-{i}"))
            for i in range(seats - len(house))
        ]
        await retrying(lambda: players[0].start())
        await asyncio.gather(*(_seat_on(p, seed * 10 + p.seat) for p in players))
        return table.table_id


async def _seat_on(seat: Any, seed: int) -> None:
    # a fault: the seat looks at its table again
    await retrying(lambda: play_seat(seat, "random", seed), TABLE_PATIENCE)


# --- checks -------------------------------------------------------------------------------------
@dataclass
class Findings:
    tables: int = 0
    finished: int = 0
    accepted: int = 0
    lost: int = 0  # accepted commands not in the log
    duplicated: int = 0  # commands recorded twice, or answered twice
    diverged: int = 0  # recorded answers a new decide disagrees with
    view_differences: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.finished == self.tables and not (
            self.lost or self.duplicated or self.diverged or self.view_differences
        )


async def check(stack: Stack, table_ids: list[str], record: Record) -> Findings:
    f = Findings(tables=len(table_ids), accepted=len(record.accepted))
    log = await _log(stack)
    live = RedisReadModel.connect(stack.redis_url)
    try:
        recorded: dict[str, list[str]] = {}
        for t in table_ids:
            stored = [(s.seq, entry_of(s)) for s in await log.read(t)]
            ids = [
                e.command.command_id
                for _, e in stored
                if isinstance(e, CommandEntry) and e.command.command_id
            ]
            recorded[t] = ids
            f.duplicated += len(ids) - len(set(ids))
            f.duplicated += _answered_once(stored, f.problems, t)
            state, diverged = _decided_again(stored)
            f.diverged += diverged
            f.finished += state.step == "finished"
            if state.step != "finished":
                f.problems.append(f"{t}: not finished ({state.step})")
            f.view_differences += await _views_differ(log, live, t, f.problems)
        seen = {(t, c) for t, ids in recorded.items() for c in ids}
        for t, c in set(record.accepted):
            if t in recorded and (t, c) not in seen:
                f.lost += 1
                f.problems.append(f"{t}: accepted command {c} is not in the log")
    finally:
        await log.close()
        await live.close()
    return f


def _answered_once(stored: list, problems: list[str], t: str) -> int:
    """Entries alternate command, answer: a command unanswered or answered twice is counted."""
    bad = 0
    expect_command = True
    for seq, entry in stored:
        is_command = isinstance(entry, CommandEntry)
        if is_command != expect_command:
            bad += 1
            problems.append(f"{t}: #{seq} out of turn ({type(entry).__name__})")
            continue
        expect_command = not expect_command
    if not expect_command:
        bad += 1
        problems.append(f"{t}: the last command is unanswered")
    return bad


def _decided_again(stored: list) -> tuple[Any, int]:
    state, diverged = initial_state(), 0
    for (_, entry), (_, answer) in zip(stored[::2], stored[1::2], strict=False):
        if not isinstance(entry, CommandEntry):
            continue
        try:
            events = decide(state, entry.command)
        except RuleViolation as v:
            diverged += not (isinstance(answer, RefusalEntry) and answer.code == v.code)
            continue
        if not isinstance(answer, OutcomeEntry) or answer.events != events:
            diverged += 1
            continue
        state = fold(events, state)
    return state, diverged


async def _views_differ(log: Any, live: Any, t: str, problems: list[str]) -> int:
    last = await log.last(t)
    deadline = time.monotonic() + 30
    while await live.position(t) < last.seq and time.monotonic() < deadline:
        await asyncio.sleep(0.1)  # the projection catches up
    rebuilt = MemoryReadModel()
    await view_writer.rebuild(log, rebuilt, t, LOG_LIMIT)
    public = await rebuilt.get(t, PUBLIC)
    if await live.get(t, PUBLIC) is None and (await live.seated([t]))[0] is not None:
        # a finished table whose views expired, or after a wipe: its seated record is all the
        # read model must hold (the table service makes its views from the log)
        if await live.seated([t]) == await rebuilt.seated([t]):
            return 0
        problems.append(f"{t}: its seated record differs from a rebuild")
        return 1
    seats = len(msgspec.json.decode(public[1])["seats"]) if public else 0
    differences = 0
    for key in [PUBLIC, *(seat_key(i) for i in range(seats))]:
        if await live.get(t, key) != await rebuilt.get(t, key):
            differences += 1
            problems.append(f"{t}: view {key} differs from a rebuild")
    return differences


async def recovery_time(
    api: str, since: float, patience: float = 60.0, listed: bool = False
) -> float:
    """Seconds from ``since`` until a new table is created and answered (201); ``listed``: and
    the lobby lists it (the projection wrote the read model's index, the table service read it)."""
    async with AsyncClient(api, timeout=5) as client:
        deadline = time.monotonic() + patience
        created = None
        while time.monotonic() < deadline:
            try:
                if created is None:
                    table = await client.create_table(4)
                    if not isinstance(table, TableCreatedLater):
                        created = table.table_id
                if created is not None and (
                    not listed or created in [t.table_id async for t in client.tables(100)]
                ):
                    return time.monotonic() - since
            except (ApiProblem, *client.transport.failures):
                pass
            await asyncio.sleep(0.1)
    return float("inf")


# --- a run --------------------------------------------------------------------------------------
async def run_fault(
    stack: Stack, fault: str, tables: int, seed: int, record: Record
) -> tuple[list[str], float]:
    """Tables play; at a random moment ``fault`` strikes; the tables' ids and the recovery time."""
    rng = random.Random(seed)
    games = asyncio.gather(
        *(
            play_through(stack.api, 4 + i % 3, seed * 100 + i, record, (1, 2) if i % 3 == 2 else ())
            for i in range(tables)
        )
    )

    async def strike() -> float:
        await asyncio.sleep(rng.uniform(0.5, 2.0))
        await {**FAULTS, **CLUSTER_FAULTS}[fault](stack)
        return await recovery_time(stack.api, time.monotonic(), listed=fault in LOBBY_FAULTS)

    recovered, table_ids = await asyncio.gather(strike(), games)
    await asyncio.gather(*_background)  # what the fault left to be started again
    return table_ids, recovered


def report_line(fault: str, f: Findings, recovered: float) -> dict[str, Any]:
    return {
        "fault": fault,
        "tables_finished": f"{f.finished}/{f.tables}",
        "accepted_commands": f.accepted,
        "lost": f.lost,
        "duplicated": f.duplicated,
        "diverged": f.diverged,
        "view_differences": f.view_differences,
        "recovery_s": round(recovered, 2),
        "ok": f.ok,
        "problems": f.problems[:5],
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tools.chaos", description=__doc__)
    p.add_argument("--tables", type=int, default=6, help="bot tables playing through each fault")
    p.add_argument(
        "--fault",
        action="append",
        choices=sorted({**FAULTS, **CLUSTER_FAULTS}),
        help="default: every one (of --cluster's with it)",
    )
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--cluster", action="store_true", help="make run-cluster's setup")
    args = p.parse_args(argv)
    env = {  # bots from one address: the limits stay out of the way (they are tested elsewhere)
        **BENCH_LIMITS,
        "GCBC_MIN_DEADLINE": "0.1",
        "GCBC_BOT_THINK_MIN": "0",  # the house's bots at machine speed (think 0), uncapped
        "GCBC_BOT_ACTIONS": "0",
    }
    failed = 0
    with tempfile.TemporaryDirectory() as data:
        stack = cluster_stack(Path(data), env=env) if args.cluster else Stack(Path(data), env=env)
        try:
            stack.start()
            for name in SECOND_INSTANCES if args.cluster else ():
                stack.start_service(name)
            for i, fault in enumerate(
                args.fault or list(CLUSTER_FAULTS if args.cluster else FAULTS)
            ):
                record = Record()
                table_ids, recovered = asyncio.run(
                    run_fault(stack, fault, args.tables, args.seed + i, record)
                )
                findings = asyncio.run(check(stack, table_ids, record))
                print(json.dumps(report_line(fault, findings, recovered)), flush=True)
                failed += not findings.ok
        finally:
            stack.stop()
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
