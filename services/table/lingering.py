"""Closed connections whose answers the kernel still holds (DESIGN property 7).

A connection the server closes is handed to the kernel with what its client has not acknowledged
yet. A client that reads nothing (its receive window shut) would leave that memory to the kernel
for minutes, no longer counted as one of its connections, and open another: one address took the
host's TCP memory to its limit so. Such a connection stays its address's until the kernel has sent
it all (then it closes as any other) or for ``grace`` seconds (then it is reset, what was left
dropped); and a connection's send buffer is bounded (``bound_send_buffer``), so that what an
address's connections may hold is bounded too.
"""

from __future__ import annotations

import asyncio
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
CHECK_EVERY = 1.0  # seconds between two looks at the lingering connections


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


def unsent(fd: int) -> int:
    """The bytes of a socket its peer has not acknowledged yet (0 if it cannot tell)."""
    try:
        return struct.unpack("i", fcntl.ioctl(fd, termios.TIOCOUTQ, b"\0\0\0\0"))[0]
    except OSError:
        return 0


def still_sending(transport: asyncio.BaseTransport) -> socket.socket | None:
    """The connection's socket, kept open past its transport's close, if the kernel still holds
    bytes for the client (None: nothing left to send)."""
    sock = transport.get_extra_info("socket")
    if sock is None:
        return None
    try:
        fd = sock.fileno()
    except OSError:
        return None
    if fd < 0 or unsent(fd) <= 0:
        return None
    try:
        return socket.socket(fileno=os.dup(fd))
    except OSError:
        return None


class Lingering:
    """The closed connections still sending, each counted as its address's until it is done."""

    def __init__(
        self, release: Callable[[str], None], grace: float, clock: Any = time.monotonic
    ) -> None:
        self.release, self.grace, self.clock = release, grace, clock
        self.held: dict[socket.socket, tuple[str, float]] = {}
        self._timer: asyncio.TimerHandle | None = None

    def hold(self, address: str, sock: socket.socket) -> None:
        """Keep ``sock`` (what the kernel still sends) as ``address``'s until it is sent or its
        grace is over; its end of the connection closes now (the client reads to the end)."""
        try:
            sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass
        self.held[sock] = (address, self.clock() + self.grace)
        if self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(CHECK_EVERY, self.check)

    def check(self) -> None:
        """Close those sent; reset those past their grace (their bytes dropped)."""
        self._timer = None
        now = self.clock()
        for sock, (address, until) in list(self.held.items()):
            left = unsent(sock.fileno())
            if left and now < until:
                continue
            if left:
                reset_on_close(sock)
            sock.close()
            del self.held[sock]
            self.release(address)
        if self.held:
            self._timer = asyncio.get_running_loop().call_later(CHECK_EVERY, self.check)
