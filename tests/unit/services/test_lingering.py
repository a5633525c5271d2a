"""Closed connections whose answers the kernel still holds (services/table/lingering.py), over
real sockets: uvicorn with the guarded protocol on a free port, a client that reads nothing and
one that reads slowly."""

from __future__ import annotations

import socket
import struct
import time
import types

import pytest

from services.table import client_limits, connections
from services.table.client_limits import ConnectionLimits
from services.table.lingering import CHECK_EVERY, SEND_BUFFER, Lingering, bound_send_buffer
from tests.unit.services.served import serve_while

# more than a client that reads nothing takes, less than the kernel's send buffer holds: written
# whole, its connection closes with most of it still to send
ANSWER = b"x" * (SEND_BUFFER * 3 // 4)
GRACE = 1.0


async def app(scope, receive, send) -> None:  # noqa: ANN001
    if scope["type"] != "http":
        return
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [(b"content-length", str(len(ANSWER)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": ANSWER})


@pytest.fixture
def guarded(monkeypatch):
    """A served app whose connections are guarded; its limits (one address: 127.0.0.1)."""
    limits = ConnectionLimits(4, 100, head_timeout=10, max_head=8192)
    monkeypatch.setattr(client_limits, "_limits", limits)
    monkeypatch.setattr(connections, "_lingering", Lingering(limits.release, GRACE))
    return limits


def _ask(port: int, receive_buffer: int = 4096) -> socket.socket:
    c = socket.socket()
    c.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    c.settimeout(10)  # (a server that never answers fails the test, not hangs it)
    c.connect(("127.0.0.1", port))
    c.sendall(b"GET / HTTP/1.1\r\nhost: t\r\nconnection: close\r\n\r\n")
    return c


def test_a_closed_connection_whose_client_reads_nothing_stays_its_addresses_then_is_reset(
    guarded,
):
    """Before: the server closed the connection and forgot it, and the kernel kept its unsent
    answer for minutes for a client that reads nothing (which then connected again). It stays
    one of the address's connections until its grace is over, then is reset: the kernel keeps
    nothing for it."""

    def client(port: int) -> tuple[list[int], bytes]:
        c = _ask(port)
        counts = []
        for _ in range(int(GRACE / 0.25) + 8):  # the answer is written, the connection closed
            time.sleep(0.25)
            counts.append(guarded.open.get("127.0.0.1", 0))
        got = b""
        try:
            while chunk := c.recv(1 << 16):
                got += chunk
        except ConnectionResetError:
            got += b"<reset>"
        c.close()
        return counts, got

    counts, got = serve_while(app, client)
    assert counts[0] == 1  # held while the kernel has the answer to send
    assert counts[-1] == 0 and guarded.count == 0  # then reset, the address's place back
    assert got.endswith(b"<reset>") and len(got) < len(ANSWER)


def test_a_client_reading_its_answer_gets_all_of_it_then_the_end(guarded):
    """A closed connection whose client reads (slowly) is not cut: it gets the whole answer,
    then the end of the connection, and its place is given back."""

    def client(port: int) -> tuple[int, int]:
        c = _ask(port)
        got = 0
        time.sleep(0.3)  # the server closed its end meanwhile: the kernel holds the rest
        while chunk := c.recv(1 << 16):
            got += len(chunk)
            time.sleep(0.001)
        c.close()
        time.sleep(CHECK_EVERY + 0.5)  # (the lingering connections are looked at this often)
        return got, guarded.open.get("127.0.0.1", 0)

    got, still_open = serve_while(app, client)
    assert got > len(ANSWER) and still_open == 0


def test_a_client_taking_its_answer_slowly_for_longer_than_the_grace_gets_it_all(guarded):
    """The grace is of the client taking nothing, as for a connection whose writing stalls: one
    reading slowly but steadily for longer than it is not cut."""

    def client(port: int) -> int:
        c = _ask(port)
        got = 0
        started = time.monotonic()
        while chunk := c.recv(4096):
            got += len(chunk)
            time.sleep(0.06)  # about 70 KB a second: longer than the grace for the answer
        c.close()
        assert time.monotonic() - started > GRACE
        return got

    assert serve_while(app, client) > len(ANSWER)


def test_a_connection_its_client_resets_is_given_back_at_once(monkeypatch):
    """The kernel dropped what a reset connection held: its place is not kept for the grace."""
    limits = ConnectionLimits(4, 100, head_timeout=10, max_head=8192)
    monkeypatch.setattr(client_limits, "_limits", limits)
    monkeypatch.setattr(connections, "_lingering", Lingering(limits.release, 60.0))

    def client(port: int) -> int:
        c = _ask(port)
        time.sleep(0.3)  # the answer written, the connection closed: lingering
        assert limits.open.get("127.0.0.1") == 1
        c.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        c.close()  # a reset
        time.sleep(CHECK_EVERY * 3)
        return limits.count

    assert serve_while(app, client) == 0


def test_an_upgrade_to_websocket_gives_its_connections_place_back(guarded):
    """Before: uvicorn handed an upgraded connection to its WebSocket protocol, whose end the
    guard never saw: each upgrade asked held one of its address's places until the process
    restarted. No route speaks WebSocket: the service runs without it."""

    def client(port: int) -> int:
        for _ in range(6):  # more than the address's four places
            c = socket.create_connection(("127.0.0.1", port), timeout=10)
            c.sendall(
                b"GET / HTTP/1.1\r\nhost: t\r\nupgrade: websocket\r\nconnection: upgrade\r\n"
                b"sec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\nsec-websocket-version: 13\r\n\r\n"
            )
            assert c.recv(100).startswith(b"HTTP/1.1 200"), "refused: its places were held"
            c.close()
        time.sleep(CHECK_EVERY * 3)
        return guarded.count

    assert serve_while(app, client) == 0


def test_a_connections_send_buffer_is_bounded():
    """The kernel sizes a send buffer itself, to megabytes for a client that reads nothing."""
    with socket.socket() as s:
        bound_send_buffer(types.SimpleNamespace(get_extra_info=lambda name: s))
        assert s.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF) == 2 * SEND_BUFFER
