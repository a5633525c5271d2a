"""Local Redis servers: one, or a Redis Cluster of primaries (and their replicas)."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import time
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

from tools.devservers.process import Nodes, ServerProcess, credentials, free_port, port_free

REDIS_CANDIDATES = (
    "/usr/bin/redis-server",
    "/usr/sbin/redis-server",
    "/usr/local/bin/redis-server",
)


def redis_server_binary() -> str | None:
    found = shutil.which("redis-server")
    if found:
        return found
    return next((c for c in REDIS_CANDIDATES if Path(c).exists()), None)


# Redis ACL rules per user: the table service reads the views and writes only its rate counters;
# the projection writes the views; the bot worker reads them; none runs administrative or dangerous commands
_SERVICE = "&gcbc:changed:* +@all -@admin -@dangerous"


REDIS_RIGHTS = {
    "admin": "~* &* +@all",
    "table": f"%R~gcbc:* ~gcbc:rate:* {_SERVICE}",
    "rules": f"resetkeys {_SERVICE}",  # the rules worker never uses Redis
    "projection": f"~gcbc:* {_SERVICE}",
    "bots": f"%R~gcbc:* {_SERVICE}",  # the bot worker reads its seats' views
}


def start_redis(
    data_dir: Path,
    port: int | None = None,
    passwords: dict[str, str] | None = None,
    extra: list[str] | None = None,
) -> ServerProcess:
    """``passwords``: the users' (a cluster's nodes share them; None: this folder's own);
    ``extra``: more lines of its configuration (a cluster node's)."""
    binary = redis_server_binary()
    if binary is None:
        raise RuntimeError(
            "redis-server not found: `make setup` installs Debian's redis-server when run as root;"
            " otherwise install it (apt-get install redis-server)"
        )
    port = port or free_port()
    data_dir.mkdir(parents=True, exist_ok=True)
    log = data_dir / "redis.log"
    conf = data_dir / "redis.conf"
    lines = [
        f"port {port}",
        "bind 127.0.0.1",
        f'dir "{data_dir.resolve()}"',
        'save ""',
        "appendonly no",
        "protected-mode yes",
        *(extra or []),
        "user default off",  # no anonymous client
    ]
    urls = {"admin": f"redis://127.0.0.1:{port}/0"}
    for user, password in (passwords or credentials(data_dir, "redis")).items():
        lines.append(f"user {user} on >{password} {REDIS_RIGHTS[user]}")
        urls[user] = f"redis://{user}:{quote(password)}@127.0.0.1:{port}/0"
    conf.touch(mode=0o600)
    conf.write_text("\n".join(lines) + "\n")
    return ServerProcess("redis", [binary, str(conf)], urls, port, log, env={**os.environ})


class RedisCluster(Nodes):
    """Several Redis nodes sharing the hash slots as one Redis Cluster: ``url_for(user)``
    is a ``redis+cluster://`` URL naming every node (the client finds the slots' owners from any
    of them), ``nodes[i]`` is each node's own process (the first ``size`` the primaries they
    started as, then their replicas). A node restarted keeps its role and slots (its
    ``nodes.conf``) and comes back empty, as a Redis without persistence does: a primary comes
    back a replica when its replica was promoted meanwhile (``restart`` waits for that)."""

    def __init__(self, nodes: list[ServerProcess], names: list[str], passwords: dict[str, str]):
        self.nodes, self.names, self.passwords = nodes, names, passwords
        self.name = "redis"

    @property
    def port(self) -> int:
        return self.nodes[0].port

    def url_for(self, user: str) -> str:
        hosts = ",".join(f"127.0.0.1:{node.port}" for node in self.nodes)
        password = self.passwords.get(user)
        auth = f"{user}:{quote(password)}@" if password is not None else ""
        return f"redis+cluster://{auth}{hosts}"

    def members(self) -> list[dict]:
        """The cluster's nodes as a live node states them (CLUSTER NODES): each one's ``port``,
        ``id``, ``flags``, ``primary`` (a replica's primary's id), ``ranges`` (its slots' ranges)
        and ``slots`` (how many)."""
        for node in self.nodes:
            if node.alive():
                with contextlib.suppress(RuntimeError, subprocess.TimeoutExpired):
                    return _cluster_members(_redis_command(node, "CLUSTER", "NODES"))
        raise RuntimeError("no node of the Redis Cluster answers")

    def primaries(self) -> list[ServerProcess]:
        """The nodes serving slots now (a failover changes which)."""
        ports = {m["port"] for m in self.members() if "master" in m["flags"] and m["slots"]}
        return [node for node in self.nodes if node.port in ports and node.alive()]

    def primary_of(self, key: str) -> ServerProcess:
        """The node serving ``key``'s slot now."""
        live = next(node for node in self.nodes if node.alive())
        slot = int(_redis_command(live, "CLUSTER", "KEYSLOT", key))
        for member in self.members():
            if "fail" not in member["flags"] and any(a <= slot <= b for a, b in member["ranges"]):
                return next(node for node in self.nodes if node.port == member["port"])
        raise RuntimeError(f"no node serves slot {slot}")

    def failed_over(self) -> bool:
        """Whether every dead primary with a replica has handed its slots to it."""
        dead = {node.port for node in self.nodes if not node.alive()}
        members = self.members()
        return not any(
            m["port"] in dead and m["slots"] and any(r["primary"] == m["id"] for r in members)
            for m in members
        )

    def restart(self, failover_within: float = 20) -> None:
        """Start again whichever node died (supervision), and wait for the cluster to be whole.
        A dead primary with a replica is started once the replica took its slots (or after
        ``failover_within`` seconds): sooner, it would come back an empty primary, and its
        replica would copy the empty data."""
        deadline = time.monotonic() + failover_within
        while not self.failed_over() and time.monotonic() < deadline:
            time.sleep(0.1)
        super().restart()
        self.wait_ok()

    def wait_ok(self, timeout: float = 30) -> None:
        """Until every node sees the cluster whole, and every replica is linked to its primary."""
        deadline = time.monotonic() + timeout
        while True:
            states = [_redis_command(node, "CLUSTER", "INFO") for node in self.nodes]
            links = [_redis_command(node, "INFO", "replication") for node in self.nodes]
            if all(
                "cluster_state:ok" in s and f"cluster_known_nodes:{len(self.nodes)}" in s
                for s in states
            ) and all("role:slave" not in r or "master_link_status:up" in r for r in links):
                return
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"the Redis Cluster is not ok after {timeout}s: {states} {links}"
                )
            time.sleep(0.1)


def _cluster_members(text: str) -> list[dict]:
    members = []
    for line in text.splitlines():
        fields = line.split()
        if len(fields) < 8:
            continue
        ranges = []
        for held in fields[8:]:
            if not held.startswith("["):  # "[slot->-id]": a slot being moved
                first, _, last = held.partition("-")
                ranges.append((int(first), int(last or first)))
        members.append(
            {
                "id": fields[0],
                "port": int(fields[1].split("@")[0].rsplit(":", 1)[1]),
                "flags": set(fields[2].split(",")),
                "primary": fields[3] if fields[3] != "-" else None,
                "ranges": ranges,
                "slots": sum(last - first + 1 for first, last in ranges),
            }
        )
    return members


def _redis_command(node: ServerProcess, *args: str) -> str:
    """One command to one node, as its admin (no driver needed: redis-cli is beside the server)."""
    cli = shutil.which("redis-cli") or str(Path(redis_server_binary() or "").with_name("redis-cli"))
    argv = [cli, "-p", str(node.port)]
    url = node.url_for("admin")
    env = {**os.environ}
    if "@" in url:  # redis://admin:<password>@…: handed over in the environment, not argv
        argv += ["--user", "admin"]
        env["REDISCLI_AUTH"] = unquote(urlsplit(url).password or "")
    done = subprocess.run([*argv, *args], capture_output=True, text=True, env=env, timeout=10)
    # (an error reply exits 0 too, unless the output is a terminal)
    if done.returncode != 0 or done.stdout.startswith(("ERR", "(error)")):
        raise RuntimeError(f"redis-cli {' '.join(args)}: {done.stderr or done.stdout}")
    return done.stdout


def start_redis_cluster(data_dir: Path, size: int = 3, replicas: int = 0) -> RedisCluster:
    """``size`` primaries on this machine, the 16384 slots split evenly, met with one another,
    and ``replicas`` replicas of each (gcbc-redis-<size + 1>… : one of each primary in turn); the
    same users (and passwords) on every node. Without replicas a dead primary's slots are
    unavailable until it is back; with them its replica takes them over (a test cluster has
    none; ``make run-cluster`` one each)."""
    data_dir.mkdir(parents=True, exist_ok=True)
    passwords = credentials(data_dir, "redis")
    # any node may be a replica one day (a failover swaps the roles): each logs in to its primary
    login = ["masteruser admin", f'masterauth "{passwords["admin"]}"']
    nodes, names = [], []
    for i in range(size * (1 + replicas)):
        name = f"gcbc-redis-{i + 1}"
        # a new cluster on every start (its data is not kept anyway): a nodes.conf left from an
        # earlier start names ports drawn then
        (data_dir / name / "nodes.conf").unlink(missing_ok=True)
        port = free_port()
        # the cluster bus listens on port + 10000: a port whose bus port is taken is drawn again
        while port + 10000 > 65535 or not port_free(port + 10000):
            port = free_port()
        node = start_redis(
            data_dir / name,
            port,
            passwords=passwords,
            extra=[
                "cluster-enabled yes",
                'cluster-config-file "nodes.conf"',
                "cluster-node-timeout 2000",
                "cluster-require-full-coverage yes",
                *login,
            ],
        )
        node.name = name
        nodes.append(node)
        names.append(name)
    cluster = RedisCluster(nodes, names, passwords)
    per = 16384 // size
    for i, node in enumerate(nodes[:size]):
        last = 16383 if i == size - 1 else (i + 1) * per - 1
        _redis_command(node, "CLUSTER", "ADDSLOTSRANGE", str(i * per), str(last))
    for node in nodes[1:]:
        _redis_command(nodes[0], "CLUSTER", "MEET", "127.0.0.1", str(node.port))
    ids = [_redis_command(node, "CLUSTER", "MYID").strip() for node in nodes[:size]]
    for i, replica in enumerate(nodes[size:]):
        deadline = time.monotonic() + 30
        while True:  # it knows its primary once the meeting's gossip reached it
            try:
                _redis_command(replica, "CLUSTER", "REPLICATE", ids[i % size])
                break
            except RuntimeError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
    cluster.wait_ok()
    return cluster
