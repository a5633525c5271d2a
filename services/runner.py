"""Run a service's main coroutine until SIGINT/SIGTERM, then stop it cleanly."""

from __future__ import annotations

import asyncio
import logging
import signal
from collections.abc import Awaitable, Callable


def run_service(name: str, main: Callable[[asyncio.Event], Awaitable[None]]) -> None:
    logging.basicConfig(level=logging.INFO, format=f"%(asctime)s {name}: %(message)s")

    async def go() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await main(stop)

    import uvloop

    uvloop.run(go())
