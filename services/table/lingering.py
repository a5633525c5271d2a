"""Closed connections whose answers the kernel still holds (DESIGN property 7).

A connection the server closes is handed to the kernel with what its client has not acknowledged
yet. A client that reads nothing (its receive window shut) would leave that memory to the kernel
for minutes, no longer counted as one of its connections, and open another: one address took the
host's TCP memory to its limit so. Such a connection stays its address's until the kernel has sent
it all (then it closes as any other), or until its client has taken nothing for ``grace`` seconds
(then it is reset, what was left dropped, as a connection whose writing stalls is); and a
connection's send buffer is bounded (``bound_send_buffer``), so that what an address's connections
may hold is bounded too.
"""

from __future__ import annotations

import asyncio
import atexit
import fcntl
import os
import socket
import struct
import termios
import time
from collections.abc import Callable
from typing import Any

# the kernel's send buffer of a connection (it doubles it for its own bookkeeping): past it an
# answer waits in the process, where an unread one stalls writing and is dropped in time; a
# buffer the kernel sizes itself grows to megabytes for a client that reads nothing
SEND_BUFFER = 128 * 1024
CHECK_EVERY = 0.25  # seconds between two looks at the lingering connections
TCP_CLOSE = 7  # a socket's state in TCP_INFO once its connection is over (reset, or done)


def bound_send_buffer(transport: asyncio.BaseTransport) -> None:
    sock = transport.get_extra_info("socket")
    if sock is not None:
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
        except OSError:
            pass  # not a TCP socket (a test's): nothing to bound


def reset_on_close(sock: Any) -> None:
    """Closing ``sock`` resets its connection: what is queued for the client is dropped at once."""
    if sock is not None:
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        except OSError:
            pass


def unsent(sock: Any) -> int:
    """The bytes of a TCP socket its peer has not acknowledged yet: 0 if none, if its connection
    is over (a reset one still counts what it dropped), or if it cannot tell."""
    try:
        left = struct.unpack("i", fcntl.ioctl(sock.fileno(), termios.TIOCOUTQ, b"\0\0\0\0"))[0]
        if left and sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 1)[0] == TCP_CLOSE:
            return 0
        return left
    except (OSError, ValueError):
        return 0


def still_sending(transport: asyncio.BaseTransport) -> socket.socket | None:
    """The connection's socket, kept open past its transport's close, if the kernel still holds
    bytes for the client (None: nothing left to send)."""
    sock = transport.get_extra_info("socket")
    if sock is None or unsent(sock) <= 0:
        return None
    try:
        fd = os.dup(sock.fileno())
    except OSError:
        return None
    try:
        return socket.socket(fileno=fd)
    except OSError:
        os.close(fd)
        return None


class Lingering:
    """The closed connections still sending, each counted as its address's until it is done."""

    def __init__(
        self, release: Callable[[str], None], grace: float, clock: Any = time.monotonic
    ) -> None:
        self.release, self.grace, self.clock = release, grace, clock
        # socket -> [its address, the bytes it had left, when it last had fewer]
        self.held: dict[socket.socket, list[Any]] = {}
        self._timer: asyncio.TimerHandle | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        atexit.register(self.reset_all)  # left to the kernel at exit, they would linger on

    def hold(self, address: str, sock: socket.socket) -> None:
        """Keep ``sock`` (what the kernel still sends) as ``address``'s until it is sent or its
        client stops taking it; its end of the connection closes now (the client reads to the
        end)."""
        try:
            sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass
        self.held[sock] = [address, unsent(sock), self.clock()]
        loop = asyncio.get_running_loop()
        if self._timer is None or self._loop is not loop:
            self._loop = loop
            self._timer = loop.call_later(CHECK_EVERY, self.check)

    def check(self) -> None:
        """Close those sent; reset those whose client took nothing for ``grace`` seconds."""
        self._timer = None
        now = self.clock()
        for sock, seen in list(self.held.items()):
            address, before, since = seen
            left = unsent(sock)
            if left and left < before:
                seen[1:] = [left, now]  # taking it: its grace starts again
                continue
            if left and now - since < self.grace:
                continue
            self._done(sock, address, reset=left > 0)
        if self.held and self._loop is not None:
            self._timer = self._loop.call_later(CHECK_EVERY, self.check)

    def reset_all(self) -> None:
        for sock, (address, _, _) in list(self.held.items()):
            self._done(sock, address, reset=True)

    def _done(self, sock: socket.socket, address: str, reset: bool) -> None:
        if reset:
            reset_on_close(sock)
        sock.close()
        del self.held[sock]
        self.release(address)
