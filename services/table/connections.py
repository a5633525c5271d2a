"""The table service's connections (DESIGN property 7): no client may hold the process's sockets.

uvicorn's HTTP protocol, with the limits a reverse proxy would enforce, added where the bytes
arrive (one hop less than a proxy in front, and the same in ``make run``, compose and the
cluster): a request's head must arrive within ``head_timeout`` seconds of the connection or of its
first byte (else ``408`` and the connection closes), its body within ``body_timeout`` seconds of
its head (the same), a head is at most ``max_head`` bytes (else
``431``, refused as soon as the bytes pass it, never buffered whole) and its target (path and
query) at most ``MAX_TARGET`` (else ``414``), one client address holds
at most ``per_client`` connections at once, the process ``total`` (else a ``429`` or ``503``
problem, then the connection closes), and one client address sends at most ``request_rate``
requests a second on average, ``request_burst`` at once (else ``429``, and the connection closes,
as nginx's ``limit_req`` would): ``services.table.client_limits`` counts them. uvicorn takes the
protocol class as its ``http`` setting.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
from typing import Any

import msgspec
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from services.common.house_bots import HOUSE_HEADER
from services.table.client_limits import limits
from services.table.lingering import Lingering, bound_send_buffer, reset_on_close, still_sending
from services.table.problems import type_of

log = logging.getLogger("gcbc.table")


# uvicorn's lines per request: a malformed one, and an upgrade (to WebSocket, which no route speaks)
_UNREPEATED = (
    "Invalid HTTP request received.",
    "Unsupported upgrade request.",
    "No supported WebSocket library detected.",
)


class _Unrepeated(logging.Filter):
    """uvicorn logs every request its parser refuses; ``ConnectionLimits.refused`` counts each
    and logs an address's once a minute (a line a request would let a client fill the disk)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith(_UNREPEATED)


logging.getLogger("uvicorn.error").addFilter(_Unrepeated())
# a request's target (its path and query), as a proxy's usual line buffer: no route needs more,
# and every parser of a query (the public reads' ticket check, Litestar's) costs by its length
MAX_TARGET = 8 * 1024
# a query's parameters, at most (a route takes a few): Litestar parses each of them, so a query
# of very many costs the event loop several plain requests, and is refused before that
MAX_QUERY_PARAMETERS = 32
# a body counts one request more against its address's rate for each of these bytes: decoding
# (and refusing) a large body costs several small requests (a command's body is a small one)
BODY_BYTES_PER_REQUEST = 4 * 1024
# what a chunk of a body sent in chunks costs, in its bytes: parsing each is a call into Python,
# so a body in tiny chunks costs the event loop far more than its bytes
CHUNK_BYTES = 512
# where a counted request's scope names its address, for ``services.table.charged``
CHARGED = "gcbc.charged"
# a client that reads none of its answers must not hold them (in this process and the kernel's
# buffers) for nobody: its connection is closed once writing to it has stalled this long, or once
# it has queued more requests behind the one being answered than any client pipelines
SEND_TIMEOUT = 30.0
MAX_PIPELINED = 4
# a request's headers, at most (a browser sends a score): each is a Python call and a tuple kept
# until the head ends, so the byte cap alone lets a head of thousands of tiny ones cost the event
# loop and the memory far more than its bytes
MAX_HEADERS = 100

# a refused connection's request is read and dropped this long, so that its client reads the
# refusal rather than a reset; at most MOST_DRAINING at once (past them, closed at once)
DRAIN_SECONDS = 1.0
MOST_DRAINING = 1024
# what is read and dropped of a refused connection's request, at most (a request's rest is less:
# past it, a client sending on and on is read no more, a second of it would cost a core)
MOST_DROPPED = 256 * 1024


# how uvicorn serves the table service: this protocol; and no WebSocket (no route speaks it, and an
# upgrade hands the connection to another protocol, whose end the guard never sees: the address's
# place would never be given back)
UVICORN = {"http": "services.table.connections:GuardedHttp", "ws": "none"}

_lingering: Lingering | None = None


def lingering() -> Lingering:
    """This process's closed connections still sending, given ``SEND_TIMEOUT`` as any answer."""
    global _lingering
    if _lingering is None:
        _lingering = Lingering(limits().release, SEND_TIMEOUT)
    return _lingering


def _cancelled(timer: asyncio.TimerHandle | None) -> None:
    """Cancel ``timer`` if there is one; None, for the attribute that held it."""
    if timer is not None:
        timer.cancel()


def _answer(status: int, code: str, detail: str, headers: dict[str, str] | None = None) -> bytes:
    """A whole HTTP answer that closes the connection: a problem (docs/api.md's form)."""
    body = msgspec.json.encode(
        {
            "type": type_of(code),
            "title": code.replace("_", " "),
            "status": status,
            "code": code,
            "detail": detail,
        }
    )
    reason = {
        400: "Bad Request",
        408: "Request Timeout",
        414: "URI Too Long",
        429: "Too Many Requests",
        431: "Request Header Fields Too Large",
    }
    lines = [
        f"HTTP/1.1 {status} {reason.get(status, 'Service Unavailable')}",
        "content-type: application/problem+json",
        f"content-length: {len(body)}",
        "connection: close",
        *(f"{k}: {v}" for k, v in (headers or {}).items()),
    ]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


class _Closing(Exception):  # noqa: N818  (not an error: the parser stopped on purpose)
    """Stops the HTTP parser of a connection that is closing."""


class GuardedHttp(HttpToolsProtocol):
    """uvicorn's httptools protocol with the connection limits (``ConnectionLimits``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.limits = limits()
        self._address: str | None = None  # counted under this address while open
        self._head_bytes = self._body_bytes = 0
        self._counted = False  # the request in hand counts against its address's rate
        self._in_head = True  # the bytes arriving belong to a request's head
        self._head_timer: asyncio.TimerHandle | None = None
        self._body_timer: asyncio.TimerHandle | None = None
        self._send_timer: asyncio.TimerHandle | None = None
        self._closing = False
        self._reset = False  # closed with what was queued dropped (nothing lingers)
        self._cycles: list[Any] = []  # the requests' answers not complete, oldest first
        self._too_many_headers = False
        self._dropped = 0  # bytes read and dropped since the connection began closing

    # --- the connection ---------------------------------------------------------------------
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        address = self.client[0] if self.client else "unknown"
        refusal = self.limits.admit(address)
        if refusal is not None:
            status, code, why = refusal
            self.limits.refused(address, code, why)
            self._refuse(status, code, why, {"retry-after": "5"})
            return
        self._address = address
        bound_send_buffer(transport)
        self._start_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        # uvicorn tells only the newest request's answer that the client is gone: one answered
        # before it (requests pipelined) would write to the closed connection, and fail
        for cycle in self._cycles:
            if not cycle.response_complete:
                cycle.disconnected = True
                cycle.message_event.set()
        self._cycles = []
        self._head_timer = _cancelled(self._head_timer)
        self._body_timer = _cancelled(self._body_timer)
        self._send_timer = _cancelled(self._send_timer)
        if self._address is not None:
            # what the kernel still sends the client stays the address's until sent or reset
            reset = self._reset or exc is not None  # (a connection failed: nothing to send)
            sending = None if reset else still_sending(self.transport)
            if sending is None:
                self.limits.release(self._address)
            else:
                lingering().hold(self._address, sending)
            self._address = None
        super().connection_lost(exc)

    def eof_received(self) -> bool | None:
        if self._closing:
            self.transport.close()  # a refused client has read its answer and gone
        return super().eof_received()

    def data_received(self, data: bytes) -> None:
        if self._closing:  # a refused connection's request: read and dropped, up to a point
            self._dropped += len(data)
            if self._dropped > MOST_DROPPED:
                self.transport.pause_reading()
            return
        # (a callback that finds the connection closing stops the parser: ``_stopped``)
        if self._in_head:
            self._head_bytes += len(data)
        super().data_received(data)
        if self._in_head and self._head_bytes > self.limits.max_head and not self._closing:
            self._too_large()

    # --- a request's head ---------------------------------------------------------------------
    def _stopped(self) -> None:
        """Raised out of the parser once the connection is closing (refused, dropped): the
        rest of what one read brought (thousands of requests pipelined, a body in one-byte
        chunks) is not parsed, each a call into Python, after the connection's end. uvicorn
        hands the parser's error to ``send_400_response``, which answers nothing then."""
        if self._closing:
            raise _Closing

    def on_message_begin(self) -> None:
        self._stopped()
        super().on_message_begin()
        if self._head_timer is None:
            self._start_head_timer()

    def on_header(self, name: bytes, value: bytes) -> None:
        self._stopped()
        if len(self.headers) >= MAX_HEADERS:
            # raised out of the parser, which stops at once: uvicorn answers its errors with
            # ``send_400_response``, which answers this one 431
            self._too_many_headers = True
            raise ValueError("too many headers")
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._in_head = False
        self._head_timer = _cancelled(self._head_timer)
        size = len(self.url) + sum(len(n) + len(v) + 4 for n, v in self.headers)
        if size > self.limits.max_head:
            self._too_large()
            return
        if len(self.url) > MAX_TARGET:
            why = f"a request's target (its path and query) is at most {MAX_TARGET} bytes"
            self.limits.refused(self.client[0] if self.client else "unknown", "uri_too_long", why)
            self._refuse(414, "uri_too_long", why)
            return
        if self.url.count(b"&", self.url.find(b"?") + 1) >= MAX_QUERY_PARAMETERS:
            why = f"a request's query has at most {MAX_QUERY_PARAMETERS} parameters"
            self.limits.refused(self._address or "unknown", "invalid_parameter", why)
            self._refuse(400, "invalid_parameter", why)
            return
        self._counted = (
            self._address is not None
            and self.limits.request_rate > 0
            and not self._from_the_house()
        )
        if self._counted:
            if not self.limits.request(self._address):
                self._too_fast()
                return
            self.scope["extensions"] = {CHARGED: self._address}
        super().on_headers_complete()
        if self.cycle is not None:
            self._cycles = [c for c in self._cycles if not c.response_complete]
            self._cycles.append(self.cycle)
        if len(self.pipeline) > MAX_PIPELINED:
            self._drop(
                "too_many_pipelined",
                f"more than {MAX_PIPELINED} requests queued on one connection, none read",
            )
            return
        if self.limits.body_timeout > 0:  # stopped as the request ends (at once without a body)
            self._body_timer = self.loop.call_later(self.limits.body_timeout, self._body_late)

    def on_body(self, body: bytes) -> None:
        self._stopped()
        self._charge_body(len(body))
        if not self._closing:
            super().on_body(body)

    def on_chunk_header(self) -> None:
        """A chunk of a body sent in chunks (httptools calls it): each costs as its bytes do."""
        self._stopped()
        self._charge_body(CHUNK_BYTES)

    def _charge_body(self, size: int) -> None:
        """A large body costs its address as several requests; one whose address comes to owe
        all it may (its rate's burst) is refused where it is, as its next request would be:
        otherwise a body sent on and on (in chunks, after its answer) would cost the event loop
        for as long as its client kept sending."""
        if not self._counted or self._address is None:
            return
        before = self._body_bytes // BODY_BYTES_PER_REQUEST
        self._body_bytes += size
        more = self._body_bytes // BODY_BYTES_PER_REQUEST - before
        if more and not self.limits.charge(self._address, more):
            self._body_too_costly()

    def _body_too_costly(self) -> None:
        """429 and closed where the body is (dropped if an answer is on its way already)."""
        why = self.limits.too_fast()
        if self.pipeline or (self.cycle is not None and self.cycle.response_started):
            self._drop("rate_limited", why)
            return
        self.limits.refused(self._address or "unknown", "rate_limited", why)
        self._answered_here()
        self._refuse(429, "rate_limited", why, {"retry-after": "1"})

    def _answered_here(self) -> None:
        """The request in hand is answered by the guard: its handler, which may answer without
        reading the body, is told its client left (its answer would follow the guard's)."""
        if self.cycle is not None and not self.cycle.response_complete:
            self.cycle.disconnected = True
            self.cycle.message_event.set()

    def on_message_complete(self) -> None:
        self._body_timer = _cancelled(self._body_timer)
        if self._closing:
            return
        super().on_message_complete()
        # what follows is the next request's head
        self._in_head, self._head_bytes, self._body_bytes = True, 0, 0

    def _start_head_timer(self) -> None:
        if self.limits.head_timeout > 0:
            self._head_timer = self.loop.call_later(self.limits.head_timeout, self._head_late)

    def _head_late(self) -> None:
        self._head_timer = None
        if not self._in_head or self._closing:
            return
        why = f"the request's head did not arrive within {self.limits.head_timeout:g} s"
        self.limits.refused(self.client[0] if self.client else "unknown", "request_timeout", why)
        self._refuse(408, "request_timeout", why)

    def _body_late(self) -> None:
        """The body is late: 408 if nothing was answered yet, and the connection closes (the
        handler waiting for the body is told the client left)."""
        self._body_timer = None
        if self._closing:
            return
        if self.flow.read_paused:  # held back by the server (a request before it runs): not late
            self._body_timer = self.loop.call_later(self.limits.body_timeout, self._body_late)
            return
        why = f"the request's body did not arrive within {self.limits.body_timeout:g} s"
        self.limits.refused(self.client[0] if self.client else "unknown", "request_timeout", why)
        if self.pipeline or (self.cycle is not None and self.cycle.response_started):
            self._closing = True  # an answer is on its way on this connection: no 408 over it
            self.transport.close()
            return
        self._answered_here()
        self._refuse(408, "request_timeout", why)

    # --- answers the client does not read ------------------------------------------------------
    def pause_writing(self) -> None:
        super().pause_writing()
        if self._send_timer is None:
            self._send_timer = self.loop.call_later(SEND_TIMEOUT, self._send_late)

    def resume_writing(self) -> None:
        super().resume_writing()
        self._send_timer = _cancelled(self._send_timer)
        self._closed_unread()  # closed meanwhile: what is left must still be read in time

    def timeout_keep_alive_handler(self) -> None:
        super().timeout_keep_alive_handler()
        self._closed_unread()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._closed_unread()

    def _closed_unread(self) -> None:
        """A connection closed with answers still queued here (less than the buffer's high
        mark: writing never paused) waits for its client to read them before it ends, and may
        never end: it is dropped once ``SEND_TIMEOUT`` has passed, as one paused."""
        transport = self.transport
        if transport.is_closing() and transport.get_write_buffer_size() and not self._closing:
            if self._send_timer is None:
                self._send_timer = self.loop.call_later(SEND_TIMEOUT, self._send_late)

    def _send_late(self) -> None:
        self._send_timer = None
        self._drop("send_timeout", f"its answers unread for {SEND_TIMEOUT:g} s")

    def _drop(self, code: str, why: str) -> None:
        """Close at once, what is queued for the client dropped (it reads none of it)."""
        self.limits.refused(self.client[0] if self.client else "unknown", code, why)
        self._closing = True
        self._head_timer = _cancelled(self._head_timer)
        self._body_timer = _cancelled(self._body_timer)
        self._send_timer = _cancelled(self._send_timer)
        self._reset = True
        reset_on_close(self.transport.get_extra_info("socket"))
        self.transport.abort()

    def send_400_response(self, msg: str) -> None:
        """A request the HTTP parser refuses (a malformed head): answered as a problem, as every
        other answer, not in uvicorn's plain text; then the connection closes. Nothing for a
        connection already closing (the parser stopped by ``_stopped``)."""
        if self._closing:
            return
        address = self.client[0] if self.client else "unknown"
        if self._too_many_headers:
            why = f"a request has at most {MAX_HEADERS} headers"
            self.limits.refused(address, "headers_too_large", why)
            self._refuse(431, "headers_too_large", why)
            return
        self.limits.refused(address, "malformed_request", msg)
        self._closing = True
        self._head_timer = _cancelled(self._head_timer)
        self._body_timer = _cancelled(self._body_timer)
        if not self.transport.is_closing():
            self.transport.write(
                _answer(400, "malformed_request", f"{msg.rstrip('.')}: not HTTP/1.1")
            )
            self.transport.close()

    def _from_the_house(self) -> bool:
        """Whether the request carries the house's key (the bot worker's)."""
        key = self.limits.house_key
        if key is None:
            return False
        name = HOUSE_HEADER.encode()
        return any(n == name and hmac.compare_digest(v, key) for n, v in self.headers)

    def _too_fast(self) -> None:
        """429 and closed: over the address's request rate (an answer on its way on this
        connection is not written over: then closed at once)."""
        limits = self.limits
        why = limits.too_fast()
        if self.pipeline or (self.cycle is not None and not self.cycle.response_complete):
            self._drop("rate_limited", why)
            return
        limits.refused(self._address or "unknown", "rate_limited", why)
        self._refuse(429, "rate_limited", why, {"retry-after": "1"})

    def _too_large(self) -> None:
        why = f"a request's head (its line and headers) is at most {self.limits.max_head} bytes"
        self.limits.refused(self.client[0] if self.client else "unknown", "headers_too_large", why)
        self._refuse(431, "headers_too_large", why)

    def _refuse(
        self, status: int, code: str, why: str, headers: dict[str, str] | None = None
    ) -> None:
        """Answer with the problem and close: the rest of the request is read and dropped for a
        moment (closing with unread bytes would reset the connection before the client reads
        the answer), never buffered."""
        self._closing = True
        self._head_timer = _cancelled(self._head_timer)
        transport = self.transport
        if transport.is_closing():
            return
        transport.write(_answer(status, code, why, headers))
        limits = self.limits
        if status == 503 or limits.draining >= MOST_DRAINING:
            transport.close()  # out of descriptors: none is kept a moment longer
            return
        try:
            transport.write_eof()
        except (NotImplementedError, OSError, RuntimeError):
            transport.close()
            return
        limits.draining += 1

        def close() -> None:
            limits.draining -= 1
            transport.close()

        self.loop.call_later(DRAIN_SECONDS, close)
