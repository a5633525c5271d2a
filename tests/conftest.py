"""Real servers for the tests that need them: testcontainers when a Docker engine answers,
otherwise local nats-server and redis-server processes on free ports. A test that needs a server
and cannot get one fails; it never skips."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator

import pytest

from tools import devservers


def _docker_engine() -> bool:
    if shutil.which("docker") is None:
        return False
    try:
        return subprocess.run(["docker", "info"], capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@pytest.fixture(scope="session")
def nats_server(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[devservers.ServerProcess | str]:
    """The session's NATS: a URL every service shares (a container), or a local server with a
    user per service (``url_for``)."""
    if _docker_engine():
        from testcontainers.nats import NatsContainer

        with NatsContainer("nats:2.12-alpine").with_command("-js") as c:
            yield c.nats_uri()
        return
    server = devservers.start_nats(tmp_path_factory.mktemp("nats"))
    yield server
    server.stop()


@pytest.fixture(scope="session")
def redis_server(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[devservers.ServerProcess | str]:
    if _docker_engine():
        from testcontainers.redis import RedisContainer

        with RedisContainer("redis:7.0") as c:
            yield f"redis://{c.get_container_host_ip()}:{c.get_exposed_port(6379)}/0"
        return
    server = devservers.start_redis(tmp_path_factory.mktemp("redis"))
    yield server
    server.stop()


@pytest.fixture(scope="session")
def nats_url(nats_server) -> str:
    """The operator's (admin) URL of the session's NATS."""
    return nats_server if isinstance(nats_server, str) else nats_server.url


@pytest.fixture(scope="session")
def redis_url(redis_server) -> str:
    return redis_server if isinstance(redis_server, str) else redis_server.url


@pytest.fixture(scope="session")
def redis_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[devservers.RedisCluster]:
    """A 3-node Redis Cluster as local processes, with a user per service."""
    cluster = devservers.start_redis_cluster(tmp_path_factory.mktemp("redis-cluster"), 3)
    yield cluster
    cluster.stop()
