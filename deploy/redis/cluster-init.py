"""Makes the Redis Cluster of deploy/docker-compose.cluster.yml once its nodes answer: the 16384
slots split evenly over the primaries, the nodes met with one another, then each replica set to
follow its primary (the same steps as tools.devservers.start_redis_cluster, here by DNS name on
the compose network). A cluster already made is left as it is. Run by the one-shot
``redis-cluster`` service with the operator's user. Nodes: ``host`` or ``host:port``."""

import os
import socket
import sys
import time

import redis

HOSTS = os.environ.get("GCBC_REDIS_NODES", "gcbc-redis-1,gcbc-redis-2,gcbc-redis-3").split(",")
# gcbc-redis-4 follows gcbc-redis-1, and so on ("": none)
REPLICAS = os.environ.get("GCBC_REDIS_REPLICAS", "gcbc-redis-4,gcbc-redis-5,gcbc-redis-6")
PORT = 6379
SLOTS = 16384


def _replicas() -> list[str]:
    return [host for host in REPLICAS.split(",") if host]


def _serves_slots(node: redis.Redis) -> bool:
    """Whether the node holds slots (a replica promoted by a failover does)."""
    mine = [
        line
        for line in node.execute_command("CLUSTER", "NODES").decode().splitlines()
        if "myself" in line.split()[2]
    ]
    return len(mine[0].split()) > 8


def _address(host: str) -> tuple[str, int]:
    name, _, port = host.partition(":")
    return name, int(port or PORT)


def main() -> int:
    password = os.environ["GCBC_REDIS_ADMIN_PASSWORD"]
    nodes = [
        redis.Redis(host=name, port=port, username="admin", password=password)
        for name, port in map(_address, HOSTS + _replicas())
    ]
    primaries, replicas = nodes[: len(HOSTS)], nodes[len(HOSTS) :]
    deadline = time.monotonic() + 120
    while True:  # the nodes start in any order
        try:
            infos = [n.execute_command("CLUSTER", "INFO").decode() for n in nodes]
            break
        except (redis.ConnectionError, OSError):
            if time.monotonic() > deadline:
                raise
            time.sleep(1)
    if all(
        "cluster_state:ok" in info and f"cluster_known_nodes:{len(nodes)}" in info for info in infos
    ):
        print("redis cluster: already made")
        return 0
    if all("cluster_slots_assigned:0" in info for info in infos):
        per = SLOTS // len(primaries)
        for i, node in enumerate(primaries):
            last = SLOTS - 1 if i == len(primaries) - 1 else (i + 1) * per - 1
            node.execute_command("CLUSTER", "ADDSLOTSRANGE", i * per, last)
    for name, port in map(_address, HOSTS[1:] + _replicas()):  # MEET takes an address, not a name
        nodes[0].execute_command("CLUSTER", "MEET", socket.gethostbyname(name), port)
    ids = [n.execute_command("CLUSTER", "MYID").decode() for n in primaries]
    for i, replica in enumerate(replicas):
        # (one following already, or promoted by a failover: left as it is)
        while replica.execute_command("ROLE")[0] == b"master" and not _serves_slots(replica):
            try:  # it knows its primary once the meeting's gossip reached it
                replica.execute_command("CLUSTER", "REPLICATE", ids[i % len(ids)])
            except redis.ResponseError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)
    while not all(
        "cluster_state:ok" in n.execute_command("CLUSTER", "INFO").decode() for n in nodes
    ):
        if time.monotonic() > deadline:
            print("redis cluster: not ok in time", file=sys.stderr)
            return 1
        time.sleep(0.5)
    print("redis cluster: made")
    return 0


if __name__ == "__main__":
    sys.exit(main())
