"""The JetStream adapter of the event log: one stream (gcbc.eventlog.jetstream.stream), a table's
appends and reads (.append), durable groups (.consume), whole-log passes and followers (.scan),
and the operators' side (.admin). It implements both ports (gcbc.eventlog.port)."""

from __future__ import annotations

import asyncio
import logging
from urllib.parse import urlsplit

import nats
from nats import errors as nats_errors
from nats.js.errors import NotFoundError

from gcbc.eventlog.jetstream.admin import Admin
from gcbc.eventlog.jetstream.append import APPEND_TIMEOUT, Acknowledgements, Appends
from gcbc.eventlog.jetstream.append import DIRECT_READS as DIRECT_READS
from gcbc.eventlog.jetstream.consume import Consumers
from gcbc.eventlog.jetstream.lean import LeanClient
from gcbc.eventlog.jetstream.scan import Scans
from gcbc.eventlog.jetstream.stream import (
    NOT_STORED,
    PREFIX,
    STREAM,
    UNANSWERED,
    inbox_prefix,
    stream_partitions,
    unavailable,
)
from gcbc.eventlog.partitions import PARTITIONS
from gcbc.eventlog.port import FullLog, LogUnavailable

log = logging.getLogger("gcbc.eventlog")


def forget_unsent(nc: nats.NATS) -> None:
    """On a lost connection, drop what nats-py had not written yet: it would send it after
    reconnecting, and an append whose caller already gave up must never land later. (Acks and
    flow-control replies dropped with it are redelivered; harmless.) nats-py has no public way to
    drop its buffer; if a release renames it, the connection must still come back, so a failure
    is only logged."""
    try:
        nc._pending.clear()  # noqa: SLF001
        nc._pending_data_size = 0  # noqa: SLF001
    except Exception as e:  # noqa: BLE001
        log.error("could not drop unsent data after a disconnect: %s", e)


async def _quiet(e: Exception) -> None:
    """nats-py's asynchronous errors, one line each (its default logs a traceback per retry)."""
    log.warning("nats: %s", str(e) or type(e).__name__)


async def _connected(url: str, patient: bool) -> nats.NATS:
    servers = [u.strip() for u in url.split(",") if u.strip()]  # a cluster: several URLs
    nc = LeanClient()

    async def disconnected() -> None:
        forget_unsent(nc)

    try:
        await nc.connect(
            servers,
            max_reconnect_attempts=-1 if patient else 1,
            reconnect_time_wait=0.2 if patient else 0.5,
            connect_timeout=2,
            pending_size=0,  # no buffering while disconnected: an append fails at once
            disconnected_cb=disconnected,
            error_cb=_quiet,
            inbox_prefix=inbox_prefix(servers[0]),
        )
    except (nats_errors.Error, OSError, TimeoutError) as e:
        await nc.close()
        raise unavailable(e) from None
    return nc


class JetStreamEventLog(Appends, Consumers, Scans, Admin, FullLog):
    """Both ports on JetStream (the ports last: their own methods serve only where no part
    has one)."""

    def __init__(
        self,
        nc: LeanClient,
        stream: str = STREAM,
        prefix: str = PREFIX,
        partitions: int = PARTITIONS,
    ) -> None:
        self.nc = nc
        self.js = nc.jetstream()
        self.owner = "reader"
        self.stream = stream
        self.prefix = prefix
        self.partitions = partitions  # the stream's own, once connected
        self.direct = True
        self.append_timeout = APPEND_TIMEOUT
        self.acks = Acknowledgements(nc)

    @classmethod
    async def connect(
        cls,
        url: str,
        replicas: int | None = None,
        stream: str = STREAM,
        prefix: str = PREFIX,
        patient: bool = True,
        create: bool = True,
        partitions: int = PARTITIONS,
        configure: bool = False,
    ) -> JetStreamEventLog:
        """``patient``: a service waits for NATS as long as it takes; a tool (``patient=False``)
        gives up within seconds with LogUnavailable. ``create``: make the stream if missing,
        with ``partitions`` (an existing stream keeps its own, recorded in it). ``replicas``: the
        copies the stream is made or updated to; None keeps an existing stream's (one if new), so
        that a tool connecting without the deployment's count never shrinks a cluster's stream.
        ``configure``: an operator's connection, which updates an existing stream to the
        configured copies and compression (``ensure_stream``)."""
        log = cls(await _connected(url, patient), stream, prefix, partitions)
        log.owner = urlsplit(url.split(",")[0].strip()).username or log.owner
        try:
            if create:
                info = await log.ensure_stream(replicas, configure)
            else:
                info = await log.js.stream_info(stream)
                log.direct = info.config.num_replicas == 1
            log.partitions = stream_partitions(info.config, partitions)
        except NotFoundError:
            await log.close()
            raise LogUnavailable(f"no stream {stream}") from None
        except (*NOT_STORED, *UNANSWERED) as e:
            await log.close()
            raise unavailable(e) from None
        return log

    async def close(self) -> None:
        try:
            await asyncio.wait_for(self.nc.drain(), 2)
        except (TimeoutError, nats.errors.Error):
            await self.nc.close()
