"""Tables divided into partitions: the one function every writer and reader uses to place a table.

A table belongs to partition ``partition_of(id, P)`` for good (a stable hash of its id, the same
in every process and release), and its entries are stored on the subject ``<prefix>.<p>.<id>``,
so one durable consumer per partition (``partition_group``) reads one partition's tables only,
and a partition is handed from one service instance to another as a whole. P is fixed for a
stream's life: it is recorded in the stream (jetstream.stream_config) and read back from there,
because a table placed under another P would no longer be found.
"""

from __future__ import annotations

import re
import zlib

# The default P (GCBC_PARTITIONS, used when a stream is created and then fixed for its life). One
# machine: 1 (every group one consumer; a second instance is a standby that takes over). Several
# instances dividing the tables: e.g. CLUSTER_PARTITIONS (make run-cluster, the compose cluster
# overlay). Each partition is a consumer per group, and each costs NATS CPU on every command
# (docs/benchmarks.md measures P=16 against P=1), so one machine keeps one.
PARTITIONS = 1
CLUSTER_PARTITIONS = 16
# the generated NATS rights name this many consumers per group: the most P a deployment may use
MOST_PARTITIONS = 16
_PARTITION_GROUP = re.compile(r"^(?P<group>.+)-p(?P<partition>\d+)$")


def partition_of(table: str, partitions: int) -> int:
    """The table's partition: CRC-32 of its id, modulo P (stable across processes, unlike
    Python's salted ``hash``)."""
    return zlib.crc32(table.encode()) % partitions


def partition_group(group: str, partition: int) -> str:
    """The durable consumer of one partition for a group (``rules-worker`` -> ``rules-worker-p3``)."""
    return f"{group}-p{partition}"


def group_of(durable: str) -> tuple[str, int | None]:
    """(group, partition) of a durable consumer's name; (name, None) for a whole-log one."""
    m = _PARTITION_GROUP.match(durable)
    return (m["group"], int(m["partition"])) if m else (durable, None)
