"""The rules worker's timers, beside its answering of commands: the sweeps that fire deadlines
and close lobbies, the deadline index read (and built once from the log), the snapshots kept."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from services.common.purges import keep_purged
from services.rules.worker import RulesWorker

log = logging.getLogger("gcbc.rules")


async def deadlines(
    worker: RulesWorker, stop: asyncio.Event, every: float = 0.1, rest_every: float = 5.0
) -> None:
    rested = time.monotonic()
    while not stop.is_set():
        try:
            await worker.sweep_deadlines()
        except Exception as e:  # noqa: BLE001
            log.warning("deadline sweep failed: %s", e)
        if time.monotonic() - rested >= rest_every:
            rested = time.monotonic()
            worker.rest()
        await _pause(stop, every)


async def keep_index(worker: RulesWorker, stop: asyncio.Event, every: float = 0.2) -> None:
    """Beside the answering and the sweeps, never before them: read the deadline index (every
    pending deadline, then each change another instance makes), build it once from the log if
    it is not built yet, write its changes as they come and the snapshots owed."""
    index = worker.index
    writing = asyncio.create_task(index.run(stop))
    snapshotting = asyncio.create_task(keep_snapshots(worker, stop, every))
    try:
        started = time.monotonic()
        while True:
            try:
                await index.start()
                break
            except Exception as e:  # noqa: BLE001  (the store away: the answering goes on)
                log.warning("reading the deadline index failed: %s", e)
                await _pause(stop, 1.0)
                if stop.is_set():
                    return
        log.info(
            "deadline index read: %d tables pending, in %.2f s",
            len(index.known),
            time.monotonic() - started,
        )
        while not index.built and not stop.is_set():
            try:
                await worker.load_all()  # a log from before the index
                while index.owed and not stop.is_set():
                    await asyncio.sleep(every)
                if not stop.is_set():
                    await index.mark_built()
                    log.info(
                        "deadline index built: %d tables folded in %.1f s",
                        worker.folds,
                        time.monotonic() - started,
                    )
            except Exception as e:  # noqa: BLE001
                log.warning("building the deadline index failed: %s", e)
                await _pause(stop, 5.0)
        await keep_purged(index.store, stop, "deadline index")
    finally:
        await snapshotting
        await writing
        await index.close()


async def keep_snapshots(worker: RulesWorker, stop: asyncio.Event, every: float = 0.2) -> None:
    """Write the snapshots owed as they come (those of every table as the worker stops are
    written as each partition is handed over: ``RulesWorker.part``)."""
    while not stop.is_set():
        try:
            await worker.snapshots.flush()
        except Exception as e:  # noqa: BLE001
            log.warning("writing snapshots failed: %s", e)
        await _pause(stop, every)


async def _pause(stop: asyncio.Event, seconds: float) -> None:
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), seconds)
