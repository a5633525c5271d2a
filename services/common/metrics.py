"""Each service's Prometheus metrics (prometheus_client, the reference client), one list for all
three: each service fills in the ones that are its own (docs/operating.md).

The table service serves them at ``/metrics``; the rules worker and the projection on a port of
their own (``GCBC_METRICS_PORT``, ``services.common.operators``). Several table-service processes on
one port (``GCBC_HTTP_WORKERS``) need ``PROMETHEUS_MULTIPROC_DIR`` for one view of them all.
"""

from __future__ import annotations

import os

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

# seconds: from a few milliseconds to a stuck table
_LATENCY = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)

COMMANDS = Counter(
    "gcbc_commands",
    "Commands answered by the rules worker, by command type and result (accepted, refused)",
    ["type", "result"],
)
REFUSALS = Counter(
    "gcbc_refusals",
    "Commands refused, by code and by whom (table: checked before append)",
    ["code", "by"],
)
APPEND_TO_ANSWER = Histogram(
    "gcbc_append_to_answer_seconds",
    "From a command written to the log to its answer written (rules worker)",
    buckets=_LATENCY,
)
ANSWER_TO_VIEWS = Histogram(
    "gcbc_answer_to_views_seconds",
    "From an answer written to the log to the views written in the read model (projection)",
    buckets=_LATENCY,
)
CONSUMER_LAG = Gauge(
    "gcbc_consumer_lag_entries", "Entries a durable consumer has not handled yet", ["consumer"]
)
CONSUMER_LAG_SECONDS = Gauge(
    "gcbc_consumer_lag_seconds",
    "Age of the oldest entry a durable consumer has not handled yet",
    ["consumer"],
)
DEADLINES = Counter(
    "gcbc_deadlines_fired",
    "What the rules worker appended by itself: deadline_passed, close_table (a lobby's time up),"
    " and unanswered (a command it answered for a worker that died)",
    ["kind"],
)
AUTOPILOT = Counter("gcbc_autopilot_actions", "Actions the autopilot took for an absent seat")
WATCHERS = Gauge("gcbc_open_watchers", "Open Server-Sent Events streams and long-polls", ["kind"])
TABLES = Gauge("gcbc_tables", "Tables in the read model, by status", ["status"])
PARTITIONS_HELD = Gauge(
    "gcbc_partitions_held",
    "Partitions of the tables this instance processes (rules worker, projection)",
)
MEMBERS = Gauge("gcbc_partition_members", "Live instances of this service sharing its partitions")
LOG_READS = Counter(
    "gcbc_log_reads",
    "A table's log read to catch up on it (a round trip to NATS): a table not held in memory, or"
    " asked for ahead of this process's follower",
)
VIEWS_WRITTEN = Counter("gcbc_views_written", "Tables' views written to the read model")
HTTP_REQUESTS = Counter(
    "gcbc_http_requests",
    "HTTP requests, by method, route and status",
    ["method", "route", "status"],
)
HTTP_SECONDS = Histogram(
    "gcbc_http_request_seconds",
    "HTTP request duration (a long-poll's wait included), by method and route",
    ["method", "route"],
    buckets=_LATENCY + (60,),
)
CONNECTIONS = Gauge("gcbc_http_connections", "HTTP connections open (table service)")
CONNECTIONS_REFUSED = Counter(
    "gcbc_http_connections_refused",
    "HTTP connections closed at the edge, by code: too_many_connections (per address or in all),"
    " request_timeout (a head too slow), headers_too_large, uri_too_long, too_many_pipelined,"
    " send_timeout (answers left unread)",
    ["code"],
)
PROBLEMS = Counter("gcbc_http_problems", "Problem answers (4xx, 5xx), by code", ["code"])


_TAGS: dict[type, str] = {}


def kind_of(command: object) -> str:
    """A command's wire tag (``take_seat``, ``shoot``, …), for labels and logs."""
    kind = type(command)
    tag = _TAGS.get(kind)
    if tag is None:
        import msgspec

        tag = _TAGS[kind] = str(msgspec.inspect.type_info(kind).tag)
    return tag


def exposition() -> tuple[bytes, str]:
    """The metrics in Prometheus's text format, and its content type."""
    directory = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if directory:
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry, path=directory)
        return generate_latest(registry), CONTENT_TYPE_LATEST
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST
