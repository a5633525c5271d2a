"""How the asyncio client reaches the server: a transport sends one request and reads its whole
answer, or opens a stream of lines (Server-Sent Events). The client's behaviours (command ids,
retries, problems, long-poll, resuming streams) sit above it, the same on every transport.

- ``HttpxTransport`` (the default; httpx is a dependency of the client);
- ``gcbc_client.aiohttp_transport.AiohttpTransport`` (``pip install 'gcbc-client[aiohttp]'``,
  ``AsyncClient(api, transport="aiohttp")``): a fifth of httpx's CPU per request or less (httpx's
  connection pool looks at every connection for each request), for load generators and bots
  sharing their cores with a server.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import NamedTuple, Protocol

import httpx

# a stream's server sends a keep-alive comment every ~15 s: a minute of silence is a dead link
STREAM_CONNECT, STREAM_READ = 30.0, 60.0


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


class HttpxTransport:
    failures: tuple[type[BaseException], ...] = (httpx.TransportError,)

    def __init__(self, api: str, timeout: float = 70.0, connections: int = 100) -> None:
        limits = httpx.Limits(max_connections=connections)  # 20 of them kept alive when idle
        self.http = httpx.AsyncClient(base_url=api, timeout=timeout, limits=limits)

    async def request(
        self, method: str, url: str, headers: Mapping[str, str], body: bytes | None
    ) -> Answer:
        r = await self.http.request(method, url, headers=headers, content=body)
        return Answer(r.status_code, r.content, r.headers)

    @asynccontextmanager
    async def stream(self, url: str, headers: Mapping[str, str]) -> AsyncIterator[EventStream]:
        timeout = httpx.Timeout(STREAM_CONNECT, read=STREAM_READ)
        async with self.http.stream("GET", url, headers=headers, timeout=timeout) as r:
            yield _HttpxStream(r)

    async def close(self) -> None:
        await self.http.aclose()


class _HttpxStream:
    def __init__(self, response: httpx.Response) -> None:
        self.response = response
        self.status = response.status_code
        self.headers = response.headers

    async def read(self) -> bytes:
        return await self.response.aread()

    def lines(self) -> AsyncIterator[str]:
        return self.response.aiter_lines()


def open_transport(kind: str, api: str, timeout: float, connections: int) -> AsyncTransport:
    """A transport by name: ``httpx`` or ``aiohttp`` (the ``gcbc-client[aiohttp]`` extra)."""
    if kind == "httpx":
        return HttpxTransport(api, timeout, connections)
    if kind == "aiohttp":
        from gcbc_client.aiohttp_transport import AiohttpTransport

        return AiohttpTransport(api, timeout, connections)
    raise ValueError(f"not a transport: {kind!r} (httpx or aiohttp)")
