"""The asyncio client over httpx, its default transport (httpx is a dependency of the client)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager

import httpx

from gcbc_client.transport import STREAM_CONNECT, STREAM_READ, Answer, EventStream


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
