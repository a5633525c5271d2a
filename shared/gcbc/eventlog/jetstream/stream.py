"""The stream the log is stored in: its name, its subjects, its configuration, and how a stored
message becomes a ``Stored``.

A table's commands and its answers each have a subject of their own under its partition
(``<prefix>.<partition>.<table>.c`` and ``.a``, gcbc.eventlog.partitions), so a consumer of one
kind is not handed the other.
"""

from __future__ import annotations

import logging
import re
import secrets
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

from nats import errors as nats_errors
from nats.js import JetStreamContext, api
from nats.js.errors import APIError, NoStreamResponseError

from gcbc.eventlog.jetstream.lean import LeanClient
from gcbc.eventlog.partitions import PARTITIONS, partition_of
from gcbc.eventlog.port import LogUnavailable, Only, OutcomeUnknown, Stored
from gcbc_contract.ids import checked

STREAM = "GCBC_TABLES"
PREFIX = "gcbc.table"
PARTITIONS_KEY = "gcbc_partitions"  # the stream's metadata: its P, fixed for its life
COMMANDS, ANSWERS = "c", "a"  # the last token of a table's commands' subject, its answers'
log = logging.getLogger("gcbc.eventlog")

# errors after which nothing was stored: raised before sending, or the server's own refusal …
NOT_STORED = (
    nats_errors.ConnectionClosedError,
    nats_errors.OutboundBufferLimitError,
    nats_errors.NoServersError,
    nats_errors.ConnectionDrainingError,
    nats_errors.MaxPayloadError,
    nats_errors.BadSubjectError,
    nats_errors.NoRespondersError,  # no JetStream answered: nothing was stored
    NoStreamResponseError,
    APIError,  # JetStream answered with an error (limits, storage): it stored nothing
)
# … any other failure once the append was sent leaves its fate unknown
UNANSWERED = (nats_errors.Error, TimeoutError, OSError)


def unavailable(e: BaseException) -> LogUnavailable:
    return LogUnavailable(str(e) or type(e).__name__)


def unknown(e: BaseException) -> OutcomeUnknown:
    return OutcomeUnknown(str(e) or type(e).__name__)


def inbox_prefix(url: str) -> str:
    """Replies to a user's requests come on an inbox of its own (``_INBOX_<user>``): with NATS
    permissions, no service can read another's replies (tools.devservers)."""
    user = urlsplit(url).username
    return f"_INBOX_{user}" if user else "_INBOX"


def reader_name(owner: str) -> str:
    """A name for one of the log's readers (a consumer of its own): its user's, so an operator
    sees whose it is, and a part no other client can guess. Named in the request's subject, it
    lets NATS permissions refuse a durable's name (tools.devservers)."""
    return f"{re.sub(r'[^A-Za-z0-9_-]', '_', owner)}-{secrets.token_hex(8)}"


def subject(table: str, prefix: str = PREFIX, partitions: int = PARTITIONS) -> str:
    """The table's stem under its partition: its commands' and its answers' subjects are this
    and a token more (``.c``, ``.a``). An id that is not one safe token (``*``, ``>``, a dot, a
    space, a control character) raises InvalidTableId: it could read or write other tables."""
    return f"{prefix}.{partition_of(checked(table), partitions)}.{table}"


def everything(prefix: str = PREFIX, partition: int | None = None) -> str:
    """Every entry of every table (of ``partition``), of either kind."""
    return f"{prefix}.{'*' if partition is None else partition}.>"


def filters(prefix: str, partition: int | None, only: Only) -> list[str]:
    """What a consumer reads, with as few filters as do: one without a filter (every entry of
    the stream, which holds only these) is served by JetStream's fastest path."""
    if only is None:
        return [] if partition is None else [everything(prefix, partition)]
    kind = ANSWERS if only == "answers" else COMMANDS
    return [f"{prefix}.{'*' if partition is None else partition}.*.{kind}"]


def subjects_config(subjects: list[str]) -> dict[str, Any]:
    """A consumer's filter: none (every entry), one subject, or several (NATS 2.10)."""
    if not subjects:
        return {}
    if len(subjects) == 1:
        return {"filter_subject": subjects[0]}
    return {"filter_subjects": list(subjects)}


class Connected:
    """What each part of the adapter works through (JetStreamEventLog sets it): the connection,
    its JetStream context, the stream and its tables' place."""

    nc: LeanClient
    js: JetStreamContext
    stream: str
    prefix: str
    partitions: int  # the stream's own P
    owner: str  # its readers' names begin with it: the connection's user
    # direct gets may be answered by any replica, one not caught up yet included: a table's
    # reads (a catch-up after a stale append, above all) go through the leader unless the stream
    # has one copy
    direct: bool

    def subject(self, table: str) -> str:
        return subject(table, self.prefix, self.partitions)


def table_of(subj: str, prefix: str = PREFIX) -> str:
    """The table a subject is of (its commands' or its answers')."""
    return subj[len(prefix) + 1 :].split(".", 2)[1]


# the log is kept for good and is JSON: its full blocks are stored compressed
COMPRESSION = api.StoreCompression.S2


def stream_config(
    replicas: int = 1, stream: str = STREAM, prefix: str = PREFIX, partitions: int = PARTITIONS
) -> api.StreamConfig:
    return api.StreamConfig(
        name=stream,
        subjects=[f"{prefix}.*.*.*"],  # every table's commands' and answers'
        metadata={PARTITIONS_KEY: str(partitions)},
        storage=api.StorageType.FILE,
        retention=api.RetentionPolicy.LIMITS,
        num_replicas=replicas,
        duplicate_window=120.0,
        allow_direct=True,
        compression=COMPRESSION,
    )


def stream_partitions(config: api.StreamConfig, default: int) -> int:
    """The stream's P as recorded in it (``default`` for a stream that records none)."""
    recorded = (config.metadata or {}).get(PARTITIONS_KEY)
    if recorded is None:
        return default
    if int(recorded) != default:
        log.warning(
            "stream %s has %s partitions (%s configured): using its own",
            config.name,
            recorded,
            default,
        )
    return int(recorded)


def when(text: str | None) -> float | None:
    """An RFC 3339 time as JetStream writes it (nanoseconds) in seconds since the epoch."""
    if not text or text.startswith("0001-"):
        return None
    head, _, rest = text.partition(".")
    fraction = rest.rstrip("Z")[:6] if rest else "0"
    base = datetime.fromisoformat((head if rest else text.rstrip("Z")) + "+00:00")
    return base.timestamp() + (int(fraction.ljust(6, "0")) / 1e6 if rest else 0.0)


def stored(msg: api.RawStreamMsg, prefix: str) -> Stored:
    """A message got by its sequence (a direct get) as the log's entry."""
    at = msg.time.timestamp() if getattr(msg, "time", None) else 0.0
    return Stored(seq=msg.seq, table=table_of(msg.subject, prefix), data=msg.data or b"", at=at)
