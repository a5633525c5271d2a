"""A long-poll's wait ends with its connection (services/table/answers.py ``while_connected``):
the client gone, or the request cancelled, no wait is left running behind it."""

from __future__ import annotations

import asyncio

import pytest

from services.table.answers import ClientGone, while_connected


class Request:
    """A request's receive: its empty body, then the disconnect once ``gone`` is set."""

    def __init__(self) -> None:
        self.gone = asyncio.Event()
        self.sent_body = False

    async def receive(self) -> dict:
        if not self.sent_body:
            self.sent_body = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await self.gone.wait()
        return {"type": "http.disconnect"}


async def _long_wait(waited: asyncio.Event) -> None:
    """A wait far longer than any test, that sets ``waited`` however it ends."""
    try:
        await asyncio.sleep(60)
    finally:
        waited.set()


def test_the_answer_comes_while_the_client_is_there():
    async def go() -> None:
        async def answer() -> str:
            await asyncio.sleep(0.01)
            return "view"

        assert await while_connected(Request(), answer()) == "view"  # type: ignore[arg-type]

    asyncio.run(go())


def test_a_client_gone_ends_the_wait():
    async def go() -> None:
        waited = asyncio.Event()
        request = Request()
        asyncio.get_running_loop().call_later(0.02, request.gone.set)
        with pytest.raises(ClientGone):
            await while_connected(request, _long_wait(waited))  # type: ignore[arg-type]
        assert waited.is_set()

    asyncio.run(go())


def test_a_cancelled_request_leaves_no_wait_behind():
    async def go() -> None:
        waited = asyncio.Event()
        polling = asyncio.ensure_future(while_connected(Request(), _long_wait(waited)))  # type: ignore[arg-type]
        await asyncio.sleep(0.02)
        polling.cancel()
        with pytest.raises(asyncio.CancelledError):
            await polling
        await asyncio.sleep(0)
        assert waited.is_set()

    asyncio.run(go())
