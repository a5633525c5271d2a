"""Start the whole system on one machine: NATS (JetStream) and Redis processes, then the three
services, each its own process. ``make run`` uses it; so do the end-to-end tests."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import zlib
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from gcbc.eventlog.partitions import CLUSTER_PARTITIONS, PARTITIONS
from tools import devservers

ROOT = Path(__file__).resolve().parent.parent  # the repository
SERVICES = {
    "rules": "services.rules",
    "projection": "services.projection",
    "table": "services.table",
    "bots": "services.bots",  # the house's seats (the sandbox)
}
SUPERVISE_EVERY = 0.1  # seconds between two looks for a dead process (a restart waits no longer)
# a process dead sooner than this after its start crashed at start (a setting, a server missing):
# started again after a back-off that doubles while it keeps doing so
CRASHED_AT_START = 10.0
FIRST_BACKOFF = 0.5
LONGEST_BACKOFF = 5.0


def restart_delay(crashes_at_start: int) -> float:
    """Seconds a slot waits before starting a dead process again: none for one that ran fine
    or for the first crash at start (so a crash keeps its quick failover), then 0.5 s doubling
    up to 5 s for each further crash at start in a row (a service that cannot start does not
    spin)."""
    if crashes_at_start <= 1:
        return 0.0
    return min(LONGEST_BACKOFF, FIRST_BACKOFF * 2 ** (crashes_at_start - 2))


def raise_open_files_limit() -> None:
    """Thousands of long-polls need thousands of sockets: lift the soft limit to the hard one
    (services started from here inherit it)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


class Stack:
    """NATS, Redis and the three services on this machine. ``nats``/``redis``: servers started
    elsewhere (a ServerProcess, a NatsCluster/RedisCluster, or a URL that every service shares);
    None: started here, with a user per service."""

    def __init__(
        self,
        data_dir: Path,
        http_port: int | None = None,
        allow_scenarios: bool = False,
        nats: devservers.ServerProcess | devservers.NatsCluster | str | None = None,
        redis: devservers.ServerProcess | devservers.RedisCluster | str | None = None,
        env: dict[str, str] | None = None,
        services: dict[str, str] | None = None,
    ) -> None:
        """``services``: the module (and its arguments) to run for a service, instead of its own
        (``tools.noop_rules.SERVICES``: the bench's no-op rules)."""
        self.data_dir = data_dir
        self.http_port = http_port or devservers.free_port()
        self.allow_scenarios = allow_scenarios
        self.nats, self.redis = nats, redis
        self.servers: dict[str, devservers.ServerProcess] = {}  # the ones this stack started
        self.procs: dict[str, subprocess.Popen] = {}
        self.started: dict[str, float] = {}  # each slot's process: when it started (monotonic)
        self.crashes_at_start: dict[str, int] = {}  # each slot's, in a row
        self.due: dict[str, float] = {}  # a dead slot's: when it is started again
        self.extra_env = env or {}
        self.services = {**SERVICES, **(services or {})}
        # each service's operators' port: /metrics, /healthz, /readyz (not the API's)
        self.metrics_ports: dict[str, int] = {}
        self.ticket_secret = secrets.token_hex(32)  # every table-service process signs alike
        self.bot_secret = secrets.token_hex(32)  # house seats' tokens (table service, bots)
        # a slot's instance name: the same for each process of the slot, another stack's apart
        self.slots = f"{zlib.crc32(str(data_dir.resolve()).encode()):08x}"

    @property
    def api(self) -> str:
        return f"http://127.0.0.1:{self.http_port}"

    @property
    def nats_url(self) -> str:
        """The operator's (admin) URL: tests and tools read the raw log with it."""
        return _url_for(self.nats, "admin")

    @property
    def redis_url(self) -> str:
        return _url_for(self.redis, "admin")

    def env(self, service: str = "admin") -> dict[str, str]:
        return {
            **os.environ,
            "GCBC_NATS_URL": _url_for(self.nats, service),
            "GCBC_REDIS_URL": _url_for(self.redis, service),
            "GCBC_HTTP_PORT": str(self.http_port),
            "GCBC_ALLOW_SCENARIOS": "1" if self.allow_scenarios else "",
            "GCBC_TICKET_SECRET": self.ticket_secret,
            "GCBC_BOT_SECRET": self.bot_secret,
            "GCBC_API_URL": self.api,
            "PYTHONUNBUFFERED": "1",
            **self.extra_env,
        }

    def metrics_url(self, name: str) -> str:
        """Where a service answers /metrics, /healthz and /readyz."""
        return f"http://127.0.0.1:{self.metrics_ports[name]}"

    def start_service(self, name: str) -> subprocess.Popen:
        logs = self.data_dir / "logs"
        logs.mkdir(parents=True, exist_ok=True)
        out = (logs / f"{name}.log").open("ab")
        service = name.split("#")[0]  # "rules#2": a second rules worker
        env = self.env(service)
        if service in ("table", "rules", "projection"):
            if name not in self.metrics_ports:
                self.metrics_ports[name] = devservers.free_port()
            env["GCBC_METRICS_PORT"] = str(self.metrics_ports[name])
        if service in ("rules", "projection"):
            # safe because a slot has one process at a time (supervise starts a new one only
            # once the old one exited): it takes back its predecessor's leases at once
            env["GCBC_INSTANCE"] = self.instance(name)
        proc = subprocess.Popen(
            [sys.executable, "-m", *self.services[service].split()],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=devservers.die_with_parent,
        )
        self.procs[name] = proc
        self.started[name] = time.monotonic()
        self.due.pop(name, None)  # (started by hand while backing off)
        return proc

    def instance(self, name: str) -> str:
        """The instance name of the slot ``name`` ("rules#2": rules-2-<this stack>)."""
        return f"{name.replace('#', '-')}-{self.slots}"

    def kill(self, name: str) -> None:
        """kill -9 one service (crash tests)."""
        proc = self.procs.pop(name)
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)

    def start(self) -> Stack:
        raise_open_files_limit()
        if self.nats is None:
            self.nats = self.servers["nats"] = devservers.start_nats(self.data_dir / "nats")
        if self.redis is None:
            self.redis = self.servers["redis"] = devservers.start_redis(self.data_dir / "redis")
        if isinstance(self.nats, devservers.NatsCluster | devservers.ServerProcess):
            # the operator's connection makes the stream as configured (or updates it: replicas,
            # the partitioned subjects) before any service starts
            replicas = int(self.extra_env.get("GCBC_STREAM_REPLICAS", "1"))
            partitions = self.env().get("GCBC_PARTITIONS")
            wait_for_jetstream(self.nats.url, replicas, int(partitions) if partitions else None)
        for name in SERVICES:
            self.start_service(name)
        self.wait_http()
        return self

    def supervise(self) -> list[str]:
        """Start again whatever died (a server, then a service; a service that keeps crashing at
        start after ``restart_delay``): what was restarted."""
        restarted = []
        for name, server in self.servers.items():
            if not server.alive():
                server.restart()
                restarted.append(name)
        now = time.monotonic()
        for name, proc in list(self.procs.items()):
            if proc.poll() is None:
                continue
            if name not in self.due:
                crashed = now - self.started.get(name, now) < CRASHED_AT_START
                self.crashes_at_start[name] = (
                    self.crashes_at_start.get(name, 0) + 1 if crashed else 0
                )
                self.due[name] = now + restart_delay(self.crashes_at_start[name])
            if now >= self.due[name]:
                del self.due[name]
                self.start_service(name)
                restarted.append(name)
        return restarted

    def wait_http(self, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            proc = self.procs.get("table")
            if proc is not None and proc.poll() is not None:
                log = (self.data_dir / "logs" / "table.log").read_text()[-3000:]
                raise RuntimeError(f"the table service exited:\n{log}")
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.http_port), 0.2),
            ):
                return
            time.sleep(0.05)
        raise RuntimeError("the table service did not start listening")

    def stop(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in self.procs.values():
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
        self.procs.clear()
        for server in self.servers.values():
            server.stop()
        self.servers.clear()


CLUSTER_ENV = {
    "GCBC_STREAM_REPLICAS": "3",
    "GCBC_PARTITIONS": str(CLUSTER_PARTITIONS),
    "GCBC_HTTP_WORKERS": "2",  # two table-service processes on the one port
}
SECOND_INSTANCES = ("rules#2", "projection#2")  # started after ``start`` on a cluster


def cluster_stack(
    data: Path, http_port: int | None = None, scenarios: bool = False, env: dict | None = None
) -> Stack:
    """make run-cluster's setup, its servers started (3 NATS nodes, a Redis Cluster of 3
    primaries with a replica each), its services not yet."""
    stack = Stack(data, http_port, scenarios, env={**(env or {}), **CLUSTER_ENV})
    stack.servers["nats"] = stack.nats = devservers.start_nats_cluster(data / "nats-cluster", 3)  # type: ignore[assignment]
    stack.servers["redis"] = stack.redis = devservers.start_redis_cluster(  # type: ignore[assignment]
        data / "redis-cluster", 3, replicas=1
    )
    return stack


async def retrying(
    call: Callable[[], Awaitable[Any]], patience: float = 60.0, errors: type[Exception] = Exception
) -> Any:
    """``call``'s answer, called again every half second while it raises ``errors``, for
    ``patience`` seconds."""
    deadline = time.monotonic() + patience
    while True:
        try:
            return await call()
        except errors:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.5)


def wait_for_jetstream(url: str, replicas: int, partitions: int | None = None) -> None:
    """A new cluster elects its JetStream leader first: hold the services until the streams are
    there (created here, or updated as configured: replicated, compressed) so none starts against
    a cluster not ready yet."""
    from gcbc.eventlog.jetstream import JetStreamEventLog
    from gcbc.players.log import STREAM_NAMES as PLAYERS_STREAM

    async def ready() -> None:
        tables = {"partitions": partitions} if partitions else {}
        for names in (tables, PLAYERS_STREAM):
            log = await JetStreamEventLog.connect(url, replicas, configure=True, **names)
            await log.close()

    asyncio.run(retrying(ready))


def _url_for(server: object, user: str) -> str:
    """``server``: a URL, or anything started here that names its URLs per user."""
    if server is None:
        return ""
    return server if isinstance(server, str) else server.url_for(user)  # type: ignore[attr-defined]


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m tools.launcher", description=__doc__)
    p.add_argument("--data", default=str(ROOT / ".data"), help="where NATS and Redis keep data")
    p.add_argument("--port", type=int, default=int(os.environ.get("GCBC_HTTP_PORT", "8000")))
    p.add_argument("--scenarios", action="store_true", help="accept scenario tables")
    p.add_argument(
        "--cluster",
        action="store_true",
        help="a 3-node NATS cluster (the stream with 3 replicas), a Redis Cluster of 3 primaries"
        " with a replica each, and two"
        " instances of the table service (one port), the rules worker and the projection (make"
        " run-cluster); one bot worker",
    )
    return p.parse_args(argv)


def _stack(args: argparse.Namespace) -> Stack:
    """The stack to start: one of each, or the cluster with its servers already started."""
    scenarios = args.scenarios or os.environ.get("GCBC_ALLOW_SCENARIOS") == "1"
    if not args.cluster:
        return Stack(Path(args.data), args.port, scenarios)
    stack = cluster_stack(Path(args.data), args.port, scenarios)
    print("waiting for the NATS cluster to elect its JetStream leader…", flush=True)
    return stack


def _admin_env(stack: Stack) -> Path:
    """The operators' environment file (the servers' admin URLs), readable by its owner only."""
    admin = stack.data_dir / "admin.env"
    admin.touch(mode=0o600)
    admin.write_text(f"GCBC_NATS_URL={stack.nats_url}\nGCBC_REDIS_URL={stack.redis_url}\n")
    return admin


def _print_addresses(stack: Stack, admin: Path, cluster: bool) -> None:
    nats = stack.servers["nats"]
    ports = [n.port for n in getattr(nats, "nodes", [nats])]
    print(f"NATS (JetStream) : 127.0.0.1:{ports} (a user per service)")
    redis = stack.servers["redis"]
    ports = [n.port for n in getattr(redis, "nodes", [redis])]
    kind = "Redis Cluster" if len(ports) > 1 else "Redis"
    print(f"{kind:<17}: 127.0.0.1:{ports} (a user per service)")
    print(f"Web table        : {stack.api}/  (watch a table: {stack.api}/watch/<table_id>)")
    print(f"API              : {stack.api}")
    print(f"OpenAPI          : {stack.api}/schema  (JSON: {stack.api}/schema/openapi.json)")
    print(f"logs             : {stack.data_dir / 'logs'} (JSON lines; GCBC_LOG_FORMAT=text)")
    print(
        f"health, metrics  : {stack.metrics_url('table')}/readyz and /metrics (table"
        f" service), rules worker {stack.metrics_url('rules')}/metrics, projection"
        f" {stack.metrics_url('projection')}/metrics (the operators' ports, not the API's)"
    )
    instances = (
        "two table services, two rules workers and two projections" if cluster else "one of each"
    )
    print(
        f"partitions       : {stack.env().get('GCBC_PARTITIONS', PARTITIONS)}"
        f" ({instances} share them)"
    )
    print(f"operators        : set -a; . {admin}; set +a   (then gcbc-ops status, …)")
    print("Ctrl-C stops everything.", flush=True)


def _supervise(stack: Stack) -> None:
    """Until Ctrl-C or SIGTERM: NATS and Redis too, a dead process is started again."""
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt))
    while True:
        for name in stack.supervise():
            print(f"{name} exited; restarted it", flush=True)
        time.sleep(SUPERVISE_EVERY)


def main(argv: list[str] | None = None) -> int:
    args = _arguments(argv)
    stack = _stack(args)
    try:
        stack.start()
        for name in SECOND_INSTANCES if args.cluster else ():
            stack.start_service(name)
        _print_addresses(stack, _admin_env(stack), args.cluster)
        _supervise(stack)
    except KeyboardInterrupt:
        print("stopping…", flush=True)
    finally:
        stack.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
