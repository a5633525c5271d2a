"""The typed client's Server-Sent Events reader (gcbc_client._core): views as (id, data), keep-alive
comments skipped, and the server's ``end`` event as ``END``, after which nothing is read."""

from __future__ import annotations

import asyncio

from gcbc_client import _core

LINES = [
    ": keep-alive",
    "",
    "id: 7",
    'data: {"version": 7}',
    "",
    "event: end",
    'data: {"reason": "finished", "version": 7}',
    "",
    "id: 8",
    'data: {"version": 8}',
    "",
]


def test_views_then_the_end_and_nothing_after_it():
    got = list(_core.sse_events(LINES))
    assert got == [("7", '{"version": 7}'), _core.END] and got[-1] is _core.END


def test_the_async_reader_reads_the_same():
    async def lines():
        for line in LINES:
            yield line

    async def read():
        return [got async for got in _core.sse_events_from(lines())]

    got = asyncio.run(read())
    assert got == [("7", '{"version": 7}'), _core.END] and got[-1] is _core.END
