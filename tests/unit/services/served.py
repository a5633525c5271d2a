"""The guarded HTTP protocol serving an ASGI app on a free port, over real sockets, while a
blocking client runs in a thread (uvloop's event loop, as the table service runs)."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable
from typing import Any

import uvicorn
import uvloop

from services.table import connections


def serve_while(app: Any, client: Callable[[int], Any]) -> Any:
    """Serve ``app`` on a free port while ``client(port)`` runs in a thread; its result."""

    async def go() -> Any:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        config = uvicorn.Config(
            app, host="127.0.0.1", port=port, log_config=None, **connections.UVICORN
        )
        server = uvicorn.Server(config)
        serving = asyncio.create_task(server.serve())
        while not server.started:
            await asyncio.sleep(0.01)
        try:
            return await asyncio.to_thread(client, port)
        finally:
            server.should_exit = True
            await serving

    return uvloop.run(go())
