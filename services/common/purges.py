"""The keyed stores' old deletions purged now and then: a deadline or a house table's note is
deleted once its table is finished, the store keeps each deletion, and a process that starts
reads them all. Those older than an hour (every process watching has seen them by then) go."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from gcbc.keyvalue.port import KeyValue

log = logging.getLogger("gcbc.keyvalue")
PURGE_EVERY = PURGE_AFTER = 3600.0  # seconds


async def keep_purged(store: KeyValue, stop: asyncio.Event, what: str) -> None:
    """Every ``PURGE_EVERY`` seconds until ``stop``, the deletions older than ``PURGE_AFTER``
    purged from ``store`` (``what``: its name in the logs; a failed purge waits for the next)."""
    while not stop.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), PURGE_EVERY)
        if stop.is_set():
            return
        try:
            purged = await store.purge_deletes(PURGE_AFTER)
        except Exception as e:  # noqa: BLE001
            log.warning("%s: purging old deletions failed: %s", what, e)
            continue
        if purged:
            log.info("%s: %d old deletions purged", what, purged)
