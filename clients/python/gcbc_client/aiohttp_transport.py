"""The asyncio client over aiohttp (``pip install 'gcbc-client[aiohttp]'``): the same behaviours
as over httpx for much less CPU per request, which matters to a load generator or bots sharing
their cores with the server (``tools.bench``)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager

import aiohttp

from gcbc_client.transport import STREAM_CONNECT, STREAM_READ, Answer, EventStream


class AiohttpTransport:
    failures: tuple[type[BaseException], ...] = (
        aiohttp.ClientConnectionError,  # refused, reset, a kept-alive connection the server closed
        aiohttp.ClientPayloadError,  # the answer cut short
        asyncio.TimeoutError,
    )

    def __init__(self, api: str, timeout: float = 70.0, connections: int = 100) -> None:
        self.api = api.rstrip("/")
        # each phase bounded as httpx bounds it, not the whole exchange (a long-poll may wait)
        self.timeout = aiohttp.ClientTimeout(total=None, connect=timeout, sock_read=timeout)
        self.connections = connections
        self._session: aiohttp.ClientSession | None = None

    @property
    def http(self) -> aiohttp.ClientSession:
        """The session, opened on first use: aiohttp wants it opened inside the event loop."""
        if self._session is None:
            self._session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=self.connections),
                timeout=self.timeout,
                cookie_jar=aiohttp.DummyCookieJar(),  # the server sets none: a bearer is the key
            )
        return self._session

    def _url(self, url: str) -> str:
        return url if "://" in url else self.api + url

    async def request(
        self, method: str, url: str, headers: Mapping[str, str], body: bytes | None
    ) -> Answer:
        async with self.http.request(method, self._url(url), headers=headers, data=body) as r:
            return Answer(r.status, await r.read(), r.headers)

    @asynccontextmanager
    async def stream(self, url: str, headers: Mapping[str, str]) -> AsyncIterator[EventStream]:
        timeout = aiohttp.ClientTimeout(total=None, connect=STREAM_CONNECT, sock_read=STREAM_READ)
        async with self.http.get(self._url(url), headers=headers, timeout=timeout) as r:
            yield _AiohttpStream(r)

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None


class _AiohttpStream:
    def __init__(self, response: aiohttp.ClientResponse) -> None:
        self.response = response
        self.status = response.status
        self.headers = response.headers

    async def read(self) -> bytes:
        return await self.response.read()

    async def lines(self) -> AsyncIterator[str]:
        # split here, not with the reader's readline: a view is one line of JSON, and readline
        # refuses lines longer than its buffer (128 KiB)
        pending: list[bytes] = []  # the current line's pieces (a long view comes in many)
        async for chunk in self.response.content.iter_any():
            pending.append(chunk)
            if b"\n" not in chunk:
                continue
            *complete, rest = b"".join(pending).split(b"\n")
            pending = [rest]
            for line in complete:
                yield line.rstrip(b"\r").decode()
        if rest := b"".join(pending):
            yield rest.rstrip(b"\r").decode()
