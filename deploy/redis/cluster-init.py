"""Makes the Redis Cluster of deploy/docker-compose.cluster.yml once its nodes answer: the 16384
slots split evenly over the nodes, then the nodes met with one another (the same steps as
tools.devservers.start_redis_cluster, here by DNS name on the compose network). A cluster already
made is left as it is. Run by the one-shot ``redis-cluster`` service with the operator's user."""

import os
import socket
import sys
import time

import redis

HOSTS = os.environ.get("GCBC_REDIS_NODES", "gcbc-redis-1,gcbc-redis-2,gcbc-redis-3").split(",")
PORT = 6379
SLOTS = 16384


def main() -> int:
    password = os.environ["GCBC_REDIS_ADMIN_PASSWORD"]
    nodes = [redis.Redis(host=h, port=PORT, username="admin", password=password) for h in HOSTS]
    deadline = time.monotonic() + 120
    while True:  # the nodes start in any order
        try:
            infos = [n.execute_command("CLUSTER", "INFO").decode() for n in nodes]
            break
        except (redis.ConnectionError, OSError):
            if time.monotonic() > deadline:
                raise
            time.sleep(1)
    if all("cluster_state:ok" in info for info in infos):
        print("redis cluster: already made")
        return 0
    if all("cluster_slots_assigned:0" in info for info in infos):
        per = SLOTS // len(nodes)
        for i, node in enumerate(nodes):
            last = SLOTS - 1 if i == len(nodes) - 1 else (i + 1) * per - 1
            node.execute_command("CLUSTER", "ADDSLOTSRANGE", i * per, last)
    for host in HOSTS[1:]:  # CLUSTER MEET takes an address, not a name
        nodes[0].execute_command("CLUSTER", "MEET", socket.gethostbyname(host), PORT)
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
