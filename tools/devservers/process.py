"""A local server process: started, watched until its port opens, restarted on the same port
and data, stopped; its users' passwords, drawn once per data folder."""

from __future__ import annotations

import contextlib
import json
import secrets
import signal
import socket
import subprocess
import time
from pathlib import Path

from services.common.runner import die_with_parent

USERS = ("admin", "table", "rules", "projection", "bots")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def port_free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


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


class Nodes:
    """What a cluster of local server processes answers like one server (supervision, stop)."""

    nodes: list[ServerProcess]
    names: list[str]

    @property
    def url(self) -> str:
        return self.url_for("admin")  # type: ignore[attr-defined]

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
