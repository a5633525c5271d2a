"""The bytes of the answers a client's address is sent, counted against its rate of requests
(the guard of ``services.table.connections`` counts its requests and their bodies)."""

from __future__ import annotations

from litestar.types import ASGIApp, Message, Receive, Scope, Send

from services.table.client_limits import limits
from services.table.connections import CHARGED

# an answer counts one request more against its address's rate for each of these bytes sent: at
# its rate of requests, one address asking again and again for large answers (the API's
# documentation, a long history) would take the server's bandwidth from everyone
ANSWER_BYTES_PER_REQUEST = 16 * 1024
EVENT_STREAM = b"text/event-stream"


def charged_answers(app: ASGIApp) -> ASGIApp:
    """Litestar middleware: the bytes of a counted request's answer (``CHARGED``: its address)
    count against its address's rate, as its body's do (``ANSWER_BYTES_PER_REQUEST``), a long one
    as it sends them. An event stream's first frame only (the view it was asked for): the rest
    are bounded by the streams an address may hold and a spectator's pace, and they follow what
    others do at its table (their chat makes a seat's views large), which must not spend the
    address's requests; a stream opened and closed again for its first frame is a request for
    a view like any other."""

    async def charged(scope: Scope, receive: Receive, send: Send) -> None:
        extensions = scope.get("extensions")
        address = extensions.get(CHARGED) if extensions else None
        if address is None:
            await app(scope, receive, send)
            return
        sent = 0
        stream = False

        async def sending(message: Message) -> None:
            nonlocal sent, address, stream
            if message["type"] == "http.response.start":
                for name, value in message.get("headers", ()):
                    if name.lower() == b"content-type" and value.startswith(EVENT_STREAM):
                        stream = True
            elif message["type"] == "http.response.body" and address is not None:
                body = message.get("body", b"")
                before = sent // ANSWER_BYTES_PER_REQUEST
                sent += len(body)
                more = sent // ANSWER_BYTES_PER_REQUEST - before
                if more:
                    limits().charge(address, more)
                if stream and body:
                    address = None  # its first frame charged: the others follow the table
            await send(message)

        await app(scope, receive, sending)

    return charged
