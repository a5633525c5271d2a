"""A durable JetStream consumer shared by every instance of a service (a deliver group): entries
are pushed as they are stored (no polling delay), handled one at a time in order, and acked only
once handled; a failure is logged and the entry redelivered."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import msgspec
from nats.js import api

from gcbc.eventlog.jetstream import PREFIX, STREAM, JetStreamEventLog, table_of
from gcbc.eventlog.port import Stored

log = logging.getLogger("gcbc.consumer")


async def consume(
    events: JetStreamEventLog,
    durable: str,
    handle: Callable[[Stored], Awaitable[object]],
    stop: asyncio.Event,
    ack_wait: float = 30,
) -> None:
    async def on_msg(msg) -> None:  # noqa: ANN001
        meta = msg.metadata
        stored = Stored(
            seq=meta.sequence.stream,
            table=table_of(msg.subject),
            data=msg.data,
            at=meta.timestamp.timestamp(),
        )
        try:
            await handle(stored)
        except msgspec.DecodeError as e:
            # not an entry of ours: redelivering it would never help; keep going
            log.error(
                "%s: entry %s of %s is not an entry, skipped: %s",
                durable,
                stored.seq,
                stored.table,
                e,
            )
        except Exception as e:  # noqa: BLE001  (logged; the entry is redelivered)
            log.exception(
                "%s: entry %s failed: %s (%s)", durable, stored.seq, e, getattr(e, "err_code", "")
            )
            await msg.nak(delay=0.5)
            return
        await msg.ack()

    sub = await events.js.subscribe(
        f"{PREFIX}.*",
        queue=durable,
        durable=durable,
        stream=STREAM,
        cb=on_msg,
        manual_ack=True,
        pending_msgs_limit=100_000,
        config=api.ConsumerConfig(
            ack_policy=api.AckPolicy.EXPLICIT,
            max_ack_pending=20_000,
            ack_wait=ack_wait,
            deliver_policy=api.DeliverPolicy.ALL,
        ),
    )
    try:
        await stop.wait()
    finally:
        await sub.unsubscribe()
