"""The table service's connections (services/table/connections.py) without a socket: what a
refusal says, and a connection whose answers stay unread."""

from __future__ import annotations

import asyncio

import msgspec

from services.table.client_limits import ConnectionLimits
from services.table.connections import _answer


def limits(per_client: int = 2, total: int = 5, trusted: str = "") -> ConnectionLimits:
    return ConnectionLimits(per_client, total, head_timeout=5, max_head=1024, trusted=trusted)


def test_a_refusal_is_a_whole_problem_answer_that_closes_the_connection():
    raw = _answer(431, "headers_too_large", "too big")
    head, body = raw.split(b"\r\n\r\n", 1)
    lines = head.decode().split("\r\n")
    assert lines[0] == "HTTP/1.1 431 Request Header Fields Too Large"
    assert "connection: close" in lines and f"content-length: {len(body)}" in lines
    problem = msgspec.json.decode(body)
    assert problem["status"] == 431 and problem["code"] == "headers_too_large"


class _Transport(asyncio.Transport):
    """A socket's transport that only notes what is done to it."""

    def __init__(self) -> None:
        super().__init__()
        self.aborted = self.closed = False

    def get_extra_info(self, name, default=None):  # noqa: ANN001, ANN201
        return {"peername": ("10.0.0.7", 5000), "sockname": ("127.0.0.1", 80)}.get(name, default)

    def abort(self) -> None:
        self.aborted = True

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.aborted or self.closed

    def write(self, data) -> None:  # noqa: ANN001
        pass

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


def test_a_connection_whose_answers_stay_unread_is_closed(monkeypatch):
    """Before: writing to a client that reads nothing stalled for ever, its answers held in the
    process and the kernel. Past ``SEND_TIMEOUT`` of stalled writing the connection is aborted;
    a client that reads again in time keeps it."""
    from uvicorn.config import Config
    from uvicorn.server import ServerState

    from services.table import client_limits, connections

    monkeypatch.setattr(connections, "SEND_TIMEOUT", 0.05)
    monkeypatch.setattr(client_limits, "_limits", limits(per_client=0, total=0))

    async def go() -> None:
        async def app(scope, receive, send) -> None:  # noqa: ANN001
            pass

        config = Config(app=app, http=connections.GuardedHttp)
        config.load()

        def connected() -> tuple[connections.GuardedHttp, _Transport]:
            protocol = connections.GuardedHttp(
                config=config, server_state=ServerState(), app_state={}
            )
            transport = _Transport()
            protocol.connection_made(transport)
            return protocol, transport

        slow, gone = connected()
        slow.pause_writing()
        await asyncio.sleep(0.03)
        slow.resume_writing()  # read in time
        await asyncio.sleep(0.05)
        assert not gone.aborted
        slow.pause_writing()
        await asyncio.sleep(0.1)
        assert gone.aborted
        slow.connection_lost(None)

    asyncio.run(go())
