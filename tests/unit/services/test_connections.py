"""The table service's connections (services/table/connections.py) without a socket: what a
refusal says, and a connection whose answers stay unread."""

from __future__ import annotations

import asyncio
import logging
import socket
import time

import msgspec
from uvicorn.config import Config
from uvicorn.server import ServerState

from services.table import charged, client_limits, connections, lingering
from services.table.client_limits import ConnectionLimits
from services.table.connections import _answer
from services.table.lingering import Lingering
from tests.unit.services.served import serve_while


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
        self.buffered = 0  # bytes queued in the process, not written to the socket yet
        self.paused = False

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

    def get_write_buffer_size(self) -> int:
        return self.buffered

    def pause_reading(self) -> None:
        self.paused = True

    def resume_reading(self) -> None:
        pass


def _sending(answer: bytes):
    """An app answering every request ``answer``."""

    async def app(scope, receive, send) -> None:  # noqa: ANN001
        if scope["type"] != "http":
            return
        headers = [(b"content-length", str(len(answer)).encode())]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": answer})

    return app


def test_a_connection_whose_answers_stay_unread_is_closed(monkeypatch):
    """Before: writing to a client that reads nothing stalled for ever, its answers held in the
    process and the kernel. Past ``SEND_TIMEOUT`` of stalled writing the connection is aborted;
    a client that reads again in time keeps it."""
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

        # closed while writing stalled, then read a little, then not at all: what is still
        # queued must be read in time too
        closed, ending = connected()
        closed.pause_writing()
        ending.closed, ending.buffered = True, 4096
        closed.resume_writing()
        await asyncio.sleep(0.1)
        assert ending.aborted
        closed.connection_lost(None)

    asyncio.run(go())


def test_answers_pipelined_on_a_connection_dropped_are_not_written_to_it(monkeypatch, caplog):
    """Before: uvicorn told only the newest request's answer that its connection was dropped (a
    client reading nothing, its answers unread past ``SEND_TIMEOUT``); an older one pipelined
    before it wrote to the closed connection, and each such request logged a traceback."""
    limits_ = limits(per_client=0, total=100)
    monkeypatch.setattr(connections, "SEND_TIMEOUT", 0.3)
    monkeypatch.setattr(client_limits, "_limits", limits_)
    monkeypatch.setattr(connections, "_lingering", Lingering(limits_.release, 0.3))
    answer = b"x" * (2 * 1024 * 1024)

    app = _sending(answer)

    def client(port: int) -> int:
        c = socket.socket()
        c.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        c.connect(("127.0.0.1", port))
        c.sendall(b"GET / HTTP/1.1\r\nhost: t\r\n\r\n" * 4)  # and reads nothing
        time.sleep(1.5)
        c.close()
        return limits_.count

    with caplog.at_level(logging.ERROR):
        assert serve_while(app, client) == 0
    assert not [r for r in caplog.records if "Exception in ASGI" in r.getMessage()]


class _Charges:
    def __init__(self) -> None:
        self.charged: list[tuple[str, float]] = []

    def charge(self, address: str, requests: float) -> None:
        self.charged.append((address, requests))


def _answering(media_type: bytes, chunks: list[bytes]):
    async def app(scope, receive, send) -> None:
        headers = [(b"content-type", media_type)]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        for n, chunk in enumerate(chunks):
            more = n < len(chunks) - 1
            await send({"type": "http.response.body", "body": chunk, "more_body": more})

    return app


def _charged(monkeypatch, app, scope: dict) -> list[tuple[str, float]]:
    charges = _Charges()
    monkeypatch.setattr(charged, "limits", lambda: charges)

    async def send(message) -> None:
        pass

    asyncio.run(charged.charged_answers(app)(scope, None, send))
    return charges.charged


def test_an_answers_bytes_are_charged_to_its_address_and_an_event_streams_first_frame_only(
    monkeypatch,
):
    """Each 16 KiB of an answer is one request more for the address the guard counted it under
    (a long answer's as it is sent); an event stream's first frame too (the view it was asked
    for: before, streams opened and closed again for it fetched views uncharged), not its later
    ones (bounded by the streams an address holds, and driven by others' chat at
    its table); a request not counted costs nothing."""
    per = charged.ANSWER_BYTES_PER_REQUEST
    counted = {"type": "http", "extensions": {connections.CHARGED: "10.0.0.7"}}
    big = _answering(b"application/json", [b"x" * (per * 3 + 5)])
    assert _charged(monkeypatch, big, counted) == [("10.0.0.7", 3)]
    long = _answering(b"application/x-ndjson", [b"x" * (per // 2)] * 5)
    assert _charged(monkeypatch, long, counted) == [("10.0.0.7", 1), ("10.0.0.7", 1)]
    small = _answering(b"application/json", [b"x" * (per - 1)])
    assert _charged(monkeypatch, small, counted) == []
    stream = _answering(b"text/event-stream; charset=utf-8", [b"x" * per * 4] * 3)
    assert _charged(monkeypatch, stream, counted) == [("10.0.0.7", 4)]
    assert _charged(monkeypatch, big, {"type": "http", "extensions": {}}) == []  # the house's
    assert _charged(monkeypatch, big, {"type": "http"}) == []


def _counting(limits_: ConnectionLimits, monkeypatch) -> list[int]:
    """The requests the guard counted (each a head parsed and handled in Python)."""
    counted = [0]
    request = limits_.request

    def counting(address: str) -> bool:
        counted[0] += 1
        return request(address)

    monkeypatch.setattr(limits_, "request", counting)
    return counted


async def _nothing(scope, receive, send) -> None:  # noqa: ANN001
    if scope["type"] == "http":
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})


def _sent_then_read(port: int, data: bytes) -> bytes:
    """``data`` sent at once on a new connection, then its answers read until it closes."""
    with socket.create_connection(("127.0.0.1", port)) as c:
        c.settimeout(5)
        try:
            c.sendall(data)
        except OSError:
            pass  # dropped while sending
        got = b""
        try:
            while chunk := c.recv(65536):
                got += chunk
        except OSError:
            pass
        return got


def test_requests_pipelined_past_a_refusal_are_not_parsed(monkeypatch):
    """Before: a connection dropped over its address's rate went on parsing everything one read
    had brought, each pipelined request's head handled in Python after the connection's end: a
    long block of the event loop for every connection. Parsing stops where the connection is
    dropped."""
    limits_ = ConnectionLimits(0, 0, 5, 8192, request_rate=10, request_burst=10)
    monkeypatch.setattr(client_limits, "_limits", limits_)
    counted = _counting(limits_, monkeypatch)
    flood = b"GET / HTTP/1.1\r\nhost: t\r\n\r\n" * 2000

    def client(port: int) -> int:
        _sent_then_read(port, flood)
        return counted[0]

    assert serve_while(_nothing, client) <= 2 * connections.MAX_PIPELINED + 10


def test_a_body_in_tiny_chunks_is_refused_once_its_address_owes_its_burst(monkeypatch, caplog):
    """Before: each chunk of a body cost its address 512 bytes, but what an address may owe
    stopped at its burst and nothing closed the connection, so a body of one-byte chunks was
    parsed (two calls into Python a chunk) for as long as its client sent it, a core's worth
    from one connection. The body is refused once its address owes its burst."""
    limits_ = ConnectionLimits(0, 0, 5, 8192, body_timeout=10, request_rate=10, request_burst=10)
    monkeypatch.setattr(client_limits, "_limits", limits_)
    chunks = []
    on_chunk_header = connections.GuardedHttp.on_chunk_header

    def counting(self) -> None:  # noqa: ANN001
        chunks.append(1)
        on_chunk_header(self)

    monkeypatch.setattr(connections.GuardedHttp, "on_chunk_header", counting)
    head = b"POST / HTTP/1.1\r\nhost: t\r\ntransfer-encoding: chunked\r\n\r\n"

    def client(port: int) -> tuple[int, bytes]:
        got = _sent_then_read(port, head + b"1\r\nx\r\n" * 50_000)
        return len(chunks), got

    # the burst owed twice over: 20 requests of 4 KiB, 8 chunks each
    per_request = connections.BODY_BYTES_PER_REQUEST // connections.CHUNK_BYTES
    with caplog.at_level(logging.ERROR):
        parsed, got = serve_while(_nothing, client)
    assert parsed <= 2 * 10 * per_request + 8
    # answered 429 by the guard, the handler (which answers without reading a body) told its
    # client left: its own answer is not written after the guard's
    assert got.startswith(b"HTTP/1.1 429"), got[:100]
    assert not [r for r in caplog.records if "Exception in ASGI" in r.getMessage()]


def _kernel_holds() -> int:
    """The bytes a server's socket (its send buffer bound as the guard bounds it) queues in the
    kernel for a client of a small receive buffer that reads nothing."""
    with socket.create_server(("127.0.0.1", 0)) as listening:
        with socket.socket() as c:
            c.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            c.connect(listening.getsockname())
            s, _ = listening.accept()
            with s:
                s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, lingering.SEND_BUFFER)
                s.setblocking(False)
                held = 0
                try:
                    while True:
                        held += s.send(b"x" * 4096)
                except BlockingIOError:
                    return held


def test_a_connection_closed_with_its_answers_unread_ends_within_the_send_timeout(monkeypatch):
    """Before: a connection closed (its keep-alive over) with a few answers still queued in
    the process, under the mark at which writing pauses, waited for its client to read them for
    ever: nor was its address's place given back. It is dropped once ``SEND_TIMEOUT`` passes."""
    limits_ = ConnectionLimits(0, 0, 5, 8192)
    monkeypatch.setattr(client_limits, "_limits", limits_)
    monkeypatch.setattr(connections, "SEND_TIMEOUT", 0.5)
    monkeypatch.setattr(connections, "_lingering", Lingering(limits_.release, 0.5))
    # what the kernel holds for a client reading nothing, and 32 KiB more queued in the process
    answer = b"x" * (_kernel_holds() + 32 * 1024)

    app = _sending(answer)

    def client(port: int) -> tuple[int, int]:
        c = socket.socket()
        c.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        c.connect(("127.0.0.1", port))
        # answers unread; each closes its connection once sent ("connection: close")
        c.sendall(b"GET / HTTP/1.1\r\nhost: t\r\nconnection: close\r\n\r\n")
        time.sleep(0.2)
        held = limits_.count
        time.sleep(2.0)
        c.close()
        return held, limits_.count

    held, after = serve_while(app, client)
    assert held == 1 and after == 0


def test_a_refused_connection_is_read_no_more_past_a_requests_rest(monkeypatch):
    """Before: a refused connection's bytes were read and dropped for its whole second of
    draining, and a client sending on and on at loopback speed cost the table service a third
    of a core per connection. Past ``MOST_DROPPED`` the connection is read no more."""
    monkeypatch.setattr(client_limits, "_limits", limits(per_client=0, total=0))

    async def go() -> None:
        config = Config(app=_nothing, http=connections.GuardedHttp)
        config.load()
        protocol = connections.GuardedHttp(config=config, server_state=ServerState(), app_state={})
        transport = _Transport()
        protocol.connection_made(transport)
        protocol._refuse(429, "rate_limited", "too fast")  # noqa: SLF001
        protocol.data_received(b"x" * (connections.MOST_DROPPED // 2))
        assert not transport.paused  # a request's rest: read, so its client reads the refusal
        protocol.data_received(b"x" * connections.MOST_DROPPED)
        assert transport.paused
        protocol.connection_lost(None)

    asyncio.run(go())
