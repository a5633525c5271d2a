"""How the asyncio client reaches the server: a transport sends one request and reads its whole
answer, or opens a stream of lines (Server-Sent Events). The client's behaviours (command ids,
retries, problems, long-poll, resuming streams) sit above it, the same on every transport.

- ``gcbc_client.httpx_transport.HttpxTransport`` (the default; httpx is a dependency of the client);
- ``gcbc_client.aiohttp_transport.AiohttpTransport`` (``pip install 'gcbc-client[aiohttp]'``,
  ``AsyncClient(api, transport="aiohttp")``): a fifth of httpx's CPU per request or less (httpx's
  connection pool looks at every connection for each request), for load generators and bots
  sharing their cores with a server.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from contextlib import AbstractAsyncContextManager
from typing import NamedTuple, Protocol

# a stream's server sends a keep-alive comment every ~15 s, and paces a long export by up to a
# minute between two games (its log-read budget): a minute and a half of silence is a dead link
STREAM_CONNECT, STREAM_READ = 30.0, 90.0


class Answer(NamedTuple):
    """One answer, read whole. ``headers`` are looked up case-insensitively (``.get``)."""

    status: int
    body: bytes
    headers: Mapping[str, str]


class EventStream(Protocol):
    """An open stream: its status and headers as soon as they come, then its body."""

    status: int
    headers: Mapping[str, str]

    async def read(self) -> bytes:
        """The whole body (an error's problem)."""
        ...

    def lines(self) -> AsyncIterator[str]:
        """The body line by line, without line endings."""
        ...


class AsyncTransport(Protocol):
    """``url``: a path under the API (``/tables/…?after=3``) or an absolute URL."""

    # what a broken or timed-out connection raises: the outcome of what was sent is unknown
    failures: tuple[type[BaseException], ...]

    async def request(
        self, method: str, url: str, headers: Mapping[str, str], body: bytes | None
    ) -> Answer: ...

    def stream(
        self, url: str, headers: Mapping[str, str]
    ) -> AbstractAsyncContextManager[EventStream]: ...

    async def close(self) -> None: ...
