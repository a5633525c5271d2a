"""Run a service's main coroutine until SIGINT/SIGTERM, then stop it cleanly."""

from __future__ import annotations

import asyncio
import gc
import signal
from collections.abc import Awaitable, Callable


def tune_gc() -> None:
    """Services hold thousands of long-lived objects (connections, streams, folded tables):
    freeze what exists at start and collect the old generation rarely, so a full collection does
    not stall every request for tens of milliseconds."""
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)


def die_with_parent(sig: int = signal.SIGTERM) -> None:
    """Linux's parent-death signal: the kernel sends ``sig`` to this process once the one that
    started it dies, so a killed parent leaves nothing behind (a ``preexec_fn``, or a worker
    process's first call)."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, sig)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def run_service(name: str, main: Callable[[asyncio.Event], Awaitable[None]]) -> None:
    from services.common import logs

    logs.setup(name)
    tune_gc()

    async def go() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await main(stop)

    import uvloop

    uvloop.run(go())
