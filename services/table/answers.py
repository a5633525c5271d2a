"""How a handler answers a command it appended: the view or the outcome once the rules worker
answered, or 202 and the client's position when that takes longer (docs/api.md)."""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar

import msgspec
from litestar import Request, Response
from litestar.datastructures import State as AppState
from litestar.response import Stream

from gcbc.eventlog.port import LogUnavailable
from gcbc.readmodel.port import Answer, ModelUnavailable, StoredView, seat_key
from services.table.positions import Positions
from services.table.problems import refusal
from services.table.service import TableService

ANSWER_WAIT = 1.0  # docs/api.md: 200 with the view, or 202 if the outcome takes longer than ~1 s
LOBBY_WAIT = 10.0  # lobby requests wait longer for their answer (a seat must not be lost)
LONG_POLL_MOST = 60.0  # seconds a long-poll waits at most (a longer timeout asked is cut to it)
LONG_POLL_WORDS = "seconds to wait for a change: at most 60 (a longer wait asked is cut to 60)"
PENDING = object()  # an answer that did not come in time

# A dependency that fails after a command was appended must not turn into "nothing was
# recorded": the client gets 202 with the position instead (DESIGN property 7).
AFTER_APPEND = (LogUnavailable, ModelUnavailable, TimeoutError)


T = TypeVar("T")


class ClientGone(Exception):
    """The client of a long-poll closed its connection before the answer."""


def answer_gone(request: Request, exc: ClientGone) -> Response[bytes]:
    """What a long-poll whose client went away answers: nobody reads it, and the request
    metrics count it as a proxy's "client closed request"."""
    return Response(b"", status_code=499)


async def while_connected(request: Request, waiting: Awaitable[T]) -> T:
    """``waiting``'s result, unless the client goes away first (ClientGone): a long-poll's place
    and its wait end with its connection, not when its timeout runs out."""
    wait = asyncio.ensure_future(waiting)
    gone = asyncio.ensure_future(_disconnected(request))
    try:
        done, _ = await asyncio.wait((wait, gone), return_when=asyncio.FIRST_COMPLETED)
    except BaseException:  # this request cancelled: neither outlives it
        wait.cancel()
        gone.cancel()
        raise
    gone.cancel()
    if wait not in done:
        wait.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await wait
        raise ClientGone
    return wait.result()


async def _disconnected(request: Request) -> None:
    while (await request.receive())["type"] != "http.disconnect":
        pass  # (a GET's empty body first)


# a view (or a history) answers one request: a seat's is that token's alone, and each changes
# with the next move, so no cache on the way keeps one (the same URL serves every viewer)
NOT_STORED = {"Cache-Control": "private, no-store", "Vary": "Authorization"}


def json(data: bytes, status: int = 200) -> Response[bytes]:
    return Response(
        content=data, status_code=status, media_type="application/json", headers=NOT_STORED
    )


def event_stream(frames: AsyncIterator[bytes], close: Callable[[], None]) -> Stream:
    """Server-Sent Events of ``frames``; ``close`` gives the stream's place back, even for a
    stream never started."""
    weakref.finalize(frames, close)
    headers = {**NOT_STORED, "X-Accel-Buffering": "no"}
    return Stream(frames, media_type="text/event-stream", headers=headers)


def closing(frames: AsyncIterator[bytes], close: Callable[[], None]) -> AsyncIterator[bytes]:
    """The frames, the stream's place given back when they end (or are dropped unstarted)."""

    async def each() -> AsyncIterator[bytes]:
        try:
            async for data in frames:
                yield data
        finally:
            close()

    held = each()
    weakref.finalize(held, close)
    return held


def position(at: int, **more: Any) -> Response[bytes]:
    """202: recorded, not answered yet, at the client's position ``at``."""
    return json(msgspec.json.encode({"position": at, **more}), 202)


def position_of(state: AppState, table_id: str, seq: int) -> int:
    """What a client is shown of the entry at ``seq``: never the log's own sequence."""
    positions: Positions = state.positions
    return positions.of(table_id, seq)


async def answer(
    service: TableService, table_id: str, viewer: str, seq: int, wait: float
) -> tuple[StoredView, Answer] | object:
    """The viewer's view and the answer to its command (a refusal raises its problem), or
    PENDING when it takes longer than ``wait`` (the client gets 202 and its position)."""
    got = await service.answered(table_id, viewer, seq, wait)
    if got is None:
        return PENDING
    answered = got[1]
    if answered.code is not None:
        raise refusal(answered.code, answered.message or "")
    return got


async def answer_or_pending(
    service: TableService, table_id: str, viewer: str, seq: int, wait: float
) -> tuple[StoredView, Answer] | object:
    """As ``answer``, with a dependency failing after the append taken as PENDING."""
    try:
        return await answer(service, table_id, viewer, seq, wait)
    except AFTER_APPEND:
        return PENDING


async def view_once_answered(
    state: AppState, service: TableService, table_id: str, seat: int, seq: int
) -> Response[bytes]:
    """The seat's view once it shows its command's outcome (the refusal as a problem); 202 and
    its position if that takes longer, or however it fails after the append."""
    got = await answer_or_pending(service, table_id, seat_key(seat), seq, ANSWER_WAIT)
    if got is PENDING:
        return position(position_of(state, table_id, seq))
    return json(got[0].data)  # type: ignore[index]
