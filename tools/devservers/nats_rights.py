"""Each service's NATS rights: what it may publish (its own subjects, consumers and buckets),
and the ``authorization`` block of a NATS config that grants them."""

from __future__ import annotations

import json

from gcbc.eventlog.partitions import MOST_PARTITIONS, partition_group
from tools.devservers.process import USERS

STREAM = "GCBC_TABLES"  # gcbc.eventlog.jetstream.STREAM (kept here: no import of nats)


# <prefix>.<partition>.<table>: a table's subject (every entry of a table written before its
# commands and answers were apart), then its commands' (.c) and its answers' (.a)
COMMANDS = "gcbc.table.*.*.c"


ANSWERS = "gcbc.table.*.*.a"


# the players' log (gcbc.players.log.STREAM, PREFIX): the table service appends, the projection
# reads it through its durable consumer
PLAYERS = "GCBC_PLAYERS"
PLAYER_ENTRIES = "gcbc.player.*.*.c"
PLAYERS_DURABLE = "players"  # gcbc.players.projection.DURABLE
# the projection's consumer of every table's answers in order, for ratings
# (services.projection.ratings.DURABLE)
RATINGS_DURABLE = "ratings"


LEASES = "GCBC_LEASES"  # gcbc.eventlog.jetstream_leases.BUCKET: who processes which partition


DURABLES = {"rules": "rules-worker", "projection": "projection"}  # each service's consumer group


# each service's JetStream KV buckets (services.common.snapshots.BUCKET, .deadlines.BUCKET; the
# house's tables, .house_tables.BUCKET: the table service notes them, the bot worker plays them)
BUCKETS = {
    "rules": ("GCBC_SNAPSHOTS", "GCBC_DEADLINES"),
    "table": ("GCBC_HOUSE",),
    "bots": ("GCBC_HOUSE",),
}


def _bucket_rights(bucket: str) -> list[str]:
    """Create and read a bucket, put and delete its keys, watch it (an ordered consumer), purge
    its old deletions."""
    stream = f"KV_{bucket}"
    return [
        f"$JS.API.STREAM.INFO.{stream}",
        f"$JS.API.STREAM.CREATE.{stream}",
        f"$JS.API.STREAM.PURGE.{stream}",
        f"$JS.API.DIRECT.GET.{stream}.>",
        f"$JS.API.CONSUMER.CREATE.{stream}",
        f"$JS.FC.{stream}.>",
        f"$KV.{bucket}.>",
    ]


def _players_rights(user: str) -> list[str]:
    """The players' log: made by the first service up; the table service appends and reads a
    player's entries; the projection reads them all through its durable consumer, and scans
    the whole log to make the players again after a wipe."""
    api = "$JS.API"
    allow = [
        f"{api}.STREAM.INFO.{PLAYERS}",
        f"{api}.STREAM.CREATE.{PLAYERS}",
        f"{api}.DIRECT.GET.{PLAYERS}",
        f"{api}.DIRECT.GET.{PLAYERS}.>",
        f"{api}.STREAM.MSG.GET.{PLAYERS}",
        f"$JS.FC.{PLAYERS}.>",
        f"{api}.CONSUMER.CREATE.{PLAYERS}.*.>",  # a reader of one player's entries
        f"{api}.CONSUMER.DELETE.{PLAYERS}.*",
    ]
    if user == "table":
        allow += [PLAYER_ENTRIES]
    else:
        allow += [
            f"{api}.CONSUMER.CREATE.{PLAYERS}.*",  # a reader of every entry (a scan)
            f"{api}.CONSUMER.DURABLE.CREATE.{PLAYERS}.{PLAYERS_DURABLE}",
            f"{api}.CONSUMER.INFO.{PLAYERS}.{PLAYERS_DURABLE}",
            f"$JS.ACK.{PLAYERS}.{PLAYERS_DURABLE}.>",
        ]
    return allow


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
    if user == "projection":
        allow += [
            f"{api}.CONSUMER.DURABLE.CREATE.{STREAM}.{RATINGS_DURABLE}",
            f"{api}.CONSUMER.INFO.{STREAM}.{RATINGS_DURABLE}",
            f"$JS.ACK.{STREAM}.{RATINGS_DURABLE}.>",
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
    if group or user == "bots":  # (the bot worker plays in one process at a time)
        # its leases (gcbc.eventlog.jetstream_leases): writes its own keys only, reads the bucket
        allow += [
            f"$KV.{LEASES}.{user}.>",
            f"{api}.STREAM.INFO.KV_{LEASES}",
            f"{api}.STREAM.CREATE.KV_{LEASES}",  # the first instance up creates the bucket
            f"{api}.DIRECT.GET.KV_{LEASES}.$KV.{LEASES}.{user}.>",
        ]
    if user in ("table", "projection"):
        allow += _players_rights(user)
    for bucket in BUCKETS.get(user, ()):
        allow += _bucket_rights(bucket)
    return json.dumps(
        {
            "publish": {"allow": allow, "deny": _denied(partitions)},
            "subscribe": {"allow": [f"_INBOX_{user}.>"]},
        }
    )


def _denied(partitions: int) -> list[str]:
    """No reader's name is a durable's: a service makes its own durables by DURABLE.CREATE
    alone."""
    api = "$JS.API"
    durables = _durables(partitions)
    deny = [
        f"{api}.CONSUMER.{action}.{STREAM}.{durable}"
        for durable in durables
        for action in ("CREATE", "DELETE")
    ] + [f"{api}.CONSUMER.CREATE.{STREAM}.{durable}.>" for durable in durables]
    return deny + [
        f"{api}.CONSUMER.{action}.{stream}.{durable}{more}"
        for stream, durable in ((PLAYERS, PLAYERS_DURABLE), (STREAM, RATINGS_DURABLE))
        for action, more in (("CREATE", ""), ("DELETE", ""), ("CREATE", ".>"))
    ]


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
