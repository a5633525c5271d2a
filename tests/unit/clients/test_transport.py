"""The asyncio client's behaviours on every transport (gcbc_client's httpx_transport.py,
aiohttp_transport.py): one suite, run over httpx and over aiohttp, against a scripted HTTP/1.1
server in the test's own event loop that answers each request with the next line of its script
(or drops the connection), so the failures a real server only shows under faults are given here.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import msgspec
import pytest
from gcbc_client import AsyncClient, _core
from gcbc_client.problems import Conflict, ServerError, Unauthorized
from gcbc_client.transport import Answer

from gcbc.rules.views import view
from gcbc_contract.http import SeatGranted, SeatLater, TableCreated
from gcbc_contract.options import Deadlines, TableOptions
from gcbc_contract.views import View
from tests.support import KP, A, H, K, table

TRANSPORTS = ["httpx", "aiohttp"]
TABLE = "0123456789abcdef"


def a_view(version: int, status: str = "playing", chat: list | None = None) -> View:
    v = view(table([[A, H, H], [KP, K, K], [H, K, H], [K, H, K]]), 1)
    return msgspec.structs.replace(
        v, table_id=TABLE, version=version, status=status, chat=chat or []
    )


def reply(
    status: int, body: bytes | msgspec.Struct = b"", headers: dict[str, str] | None = None
) -> bytes:
    data = body if isinstance(body, bytes) else msgspec.json.encode(body)
    head = [f"HTTP/1.1 {status} -", f"content-length: {len(data)}"]
    head += [f"{k}: {v}" for k, v in (headers or {"content-type": "application/json"}).items()]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + data


def problem(status: int, code: str, field: str | None = None) -> bytes:
    body = {"type": "about:blank", "title": code, "status": status, "code": code, "detail": code}
    return reply(status, json.dumps({**body, **({"field": field} if field else {})}).encode())


DROP = b""  # the connection closes before any answer: the outcome is unknown


@dataclass
class Events:
    """A Server-Sent Events answer (chunked), written piece by piece; ``drop``: the connection
    is cut mid-stream (no last chunk), as a crash or a network fault cuts it."""

    pieces: list[bytes]
    drop: bool = True


@dataclass
class Sent:
    method: str
    target: str
    headers: dict[str, str]
    body: bytes


@dataclass
class ScriptedServer:
    script: list[bytes | Events]
    sent: list[Sent] = field(default_factory=list)

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while line := await reader.readline():
                method, target, _ = line.decode().split(" ", 2)
                headers = {}
                while (h := await reader.readline()) not in (b"\r\n", b""):
                    name, _, value = h.decode().partition(":")
                    headers[name.strip().lower()] = value.strip()
                body = await reader.readexactly(int(headers.get("content-length", 0)))
                self.sent.append(Sent(method, target, headers, body))
                answer = self.script.pop(0)
                if answer == DROP:
                    return
                if isinstance(answer, Events):
                    writer.write(
                        b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n"
                        b"transfer-encoding: chunked\r\n\r\n"
                    )
                    for piece in answer.pieces:
                        writer.write(b"%x\r\n%s\r\n" % (len(piece), piece))
                        await writer.drain()
                    if not answer.drop:
                        writer.write(b"0\r\n\r\n")
                    return
                writer.write(answer)
                await writer.drain()
        finally:
            writer.close()


def run(
    transport: str,
    script: list[bytes | Events],
    play: Callable[[AsyncClient], Awaitable[None]],
    **kw,
) -> ScriptedServer:
    server = ScriptedServer(list(script))

    async def go() -> None:
        listening = await asyncio.start_server(server.serve, "127.0.0.1", 0)
        port = listening.sockets[0].getsockname()[1]
        try:
            async with AsyncClient(f"http://127.0.0.1:{port}", transport=transport, **kw) as c:
                await play(c)
        finally:
            listening.close()

    asyncio.run(go())
    assert server.script == [], "every scripted answer was asked for"
    return server


@pytest.fixture(autouse=True)
def no_waiting(monkeypatch):
    monkeypatch.setattr(_core, "RETRY_WAIT", 0)  # retries at once: the order is what is tested


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_table_is_created_and_a_seat_taken_with_json_bodies(transport):
    created = TableCreated(TABLE, 4, TableOptions(), Deadlines(), f"/tables/{TABLE}", [])
    answered: list[tuple[str, str, int]] = []

    async def play(client: AsyncClient) -> None:
        table = await client.create_table(4, seed=3)
        assert table == created
        seat = await client.join(TABLE, "ann")
        assert (seat.seat, seat.token) == (2, "t2")

    server = run(
        transport,
        [reply(201, created), reply(201, SeatGranted(2, "t2"))],
        play,
        answered=lambda method, url, sent, answer: answered.append((method, url, answer.status)),
    )
    assert [(s.method, s.target) for s in server.sent] == [
        ("POST", "/tables"),
        ("POST", f"/tables/{TABLE}/seats"),
    ]
    assert [json.loads(s.body) for s in server.sent] == [{"seats": 4, "seed": 3}, {"name": "ann"}]
    assert all(s.headers["content-type"] == "application/json" for s in server.sent)
    assert answered == [("POST", "/tables", 201), ("POST", f"/tables/{TABLE}/seats", 201)]


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_long_poll_asks_for_a_view_after_a_version_with_the_seats_token(transport):
    async def play(client: AsyncClient) -> None:
        seat = await client.join(TABLE, "ann")
        assert (await seat.view(after=3, timeout=10)).version == 4

    server = run(transport, [reply(201, SeatGranted(1, "secret")), reply(200, a_view(4))], play)
    assert server.sent[1].target == f"/tables/{TABLE}/view?after=3&timeout=10"
    assert server.sent[1].headers["authorization"] == "Bearer secret"


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_an_unknown_outcome_is_sent_again_with_the_same_command_id(transport):
    answered: list[Answer] = []

    async def play(client: AsyncClient) -> None:
        seat = await client.join(TABLE, "ann")
        got = await seat.send({"type": "pass"})
        assert isinstance(got, View) and got.version == 9

    server = run(
        transport,
        [
            reply(201, SeatGranted(1, "t1")),
            problem(503, "outcome_unknown"),  # NATS away: retried after Retry-After
            DROP,  # the connection lost before the answer: retried
            reply(200, a_view(9)),
        ],
        play,
        answered=lambda method, url, sent, answer: answered.append(answer),
    )
    commands = [json.loads(s.body) for s in server.sent[1:]]
    assert len(commands) == 3 and commands[0]["type"] == "pass"
    assert commands[0]["command_id"] and commands == [commands[0]] * 3
    assert [a.status for a in answered] == [201, 503, 200]  # a drop has no answer to see


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_refusal_is_a_typed_problem_and_is_not_sent_again(transport):
    async def play(client: AsyncClient) -> None:
        seat = await client.join(TABLE, "ann")
        with pytest.raises(Conflict) as refused:
            await seat.send({"type": "pass"})
        assert refused.value.code == "not_your_turn" and refused.value.field == "type"

    server = run(
        transport,
        [reply(201, SeatGranted(1, "t1")), problem(409, "not_your_turn", "type")],
        play,
    )
    assert len(server.sent) == 2


def frame(v: View) -> bytes:
    return b"id: %d\r\ndata: %s\r\n\r\n" % (v.version, msgspec.json.encode(v))


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_stream_resumes_after_a_drop_from_its_last_event_id(transport):
    long = frame(a_view(2, chat=[{"seat": 1, "text": "x" * 300_000}]))  # longer than a buffer
    pieces = [
        b": keep-alive\r\n\r\n" + frame(a_view(1))[:50],  # an event cut across pieces …
        frame(a_view(1))[50:] + long[:1000],
        long[1000:200_000],
        long[200_000:],
    ]
    opened: list[tuple[str, int]] = []

    async def play(client: AsyncClient) -> None:
        seat = await client.join(TABLE, "ann")
        seen = [v async for v in seat.stream()]  # … which ends with the game
        assert [v.version for v in seen] == [1, 2, 3]
        assert seen[1].chat == [{"seat": 1, "text": "x" * 300_000}]

    server = run(
        transport,
        [
            reply(201, SeatGranted(1, "t1")),
            Events(pieces),  # cut after the second event
            Events([frame(a_view(3, status="finished"))], drop=False),
        ],
        play,
        answered=lambda method, url, sent, answer: opened.append((url, answer.status)),
    )
    assert "last-event-id" not in server.sent[1].headers
    assert server.sent[2].headers["last-event-id"] == "2"
    assert server.sent[2].headers["authorization"] == "Bearer t1"
    assert opened[1:] == [(f"/tables/{TABLE}/stream", 200)] * 2


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_stream_closed_or_refused_for_a_while_is_opened_again_after_a_pause(
    transport, monkeypatch
):
    """The server closes a stream when NATS or Redis is away (no end event), and refuses one
    for a while (503, 429): each is opened again, after a pause (never at once, in a loop)."""
    pauses: list[float] = []
    real_sleep = asyncio.sleep

    async def sleep(seconds: float) -> None:
        pauses.append(seconds)
        await real_sleep(0)

    monkeypatch.setattr("gcbc_client.aio.asyncio.sleep", sleep)
    monkeypatch.setattr(_core, "RETRY_WAIT", 0.5)

    async def play(client: AsyncClient) -> None:
        seen = [v.version async for v in client.watch(TABLE)]
        assert seen == [1, 2]

    server = run(
        transport,
        [
            Events([frame(a_view(1))], drop=False),  # closed cleanly before the end
            problem(503, "views_unavailable"),
            reply(
                429,
                json.dumps(
                    {"type": "t", "title": "t", "status": 429, "code": "x", "detail": "x"}
                ).encode(),
                {"content-type": "application/problem+json", "retry-after": "3"},
            ),
            Events([frame(a_view(2, status="finished"))], drop=False),
        ],
        play,
    )
    assert len(pauses) == 3 and all(p > 0 for p in pauses) and pauses[2] >= 3
    assert server.sent[1].headers["last-event-id"] == "1"


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_seat_recorded_but_not_answered_yet_is_looked_for_till_its_token_holds(transport):
    async def play(client: AsyncClient) -> None:
        seat = await client.join(TABLE, "ann")
        assert (seat.seat, seat.token) == (1, "t1")

    server = run(
        transport,
        [
            reply(202, SeatLater(position=7, token="t1")),
            problem(403, "forbidden"),  # the table does not know its token yet
            problem(503, "views_unavailable"),
            reply(200, a_view(1)),
        ],
        play,
    )
    assert [x.headers["authorization"] for x in server.sent[1:]] == ["Bearer t1"] * 3


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_command_given_up_on_carries_its_command_id(transport):
    async def play(client: AsyncClient) -> None:
        seat = await client.join(TABLE, "ann")
        with pytest.raises(ServerError) as gave_up:
            await seat.send({"type": "pass"})
        assert gave_up.value.command_id is not None
        sent = {json.loads(x.body)["command_id"] for x in server_sent() if x.body}
        assert sent == {gave_up.value.command_id}

    server: list[ScriptedServer] = []

    def server_sent() -> list[Sent]:
        return [x for x in server[0].sent if x.target.endswith("/commands")]

    script = [reply(201, SeatGranted(1, "t1"))] + [problem(500, "internal_error")] * _core.RETRIES
    server.append(ScriptedServer(list(script)))

    async def go() -> None:
        listening = await asyncio.start_server(server[0].serve, "127.0.0.1", 0)
        port = listening.sockets[0].getsockname()[1]
        try:
            async with AsyncClient(f"http://127.0.0.1:{port}", transport=transport) as c:
                await play(c)
        finally:
            listening.close()

    asyncio.run(go())
    assert len(server_sent()) == _core.RETRIES  # a 500 is an unknown outcome: sent again


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_refused_stream_raises_its_problem(transport):
    async def play(client: AsyncClient) -> None:
        with pytest.raises(Unauthorized):
            await anext(client.watch(TABLE))

    run(transport, [problem(401, "bad_token")], play)


def test_a_transport_is_named_or_given():
    with pytest.raises(ValueError, match="not a transport"):
        AsyncClient("http://127.0.0.1:1", transport="carrier-pigeon")


def test_the_blocking_client_looks_for_a_seat_not_answered_yet_and_pauses_its_reconnects(
    monkeypatch,
):
    """The same two behaviours in gcbc_client.sync (its own code: httpx's blocking client)."""
    from gcbc_client import sync

    pauses: list[float] = []
    monkeypatch.setattr("gcbc_client.sync.time.sleep", pauses.append)
    monkeypatch.setattr(_core, "RETRY_WAIT", 0.5)
    server = ScriptedServer(
        [
            reply(202, SeatLater(position=7, token="t1")),
            problem(403, "forbidden"),
            reply(200, a_view(1)),
            Events([frame(a_view(1))], drop=False),  # closed before the end
            problem(503, "views_unavailable"),
            Events([frame(a_view(2, status="finished"))], drop=False),
        ]
    )

    def play(api: str) -> None:
        with sync.Client(api) as client:
            seat = client.join(TABLE, "ann")
            assert (seat.seat, seat.token) == (1, "t1")
            assert [v.version for v in seat.stream()] == [1, 2]

    async def go() -> None:
        listening = await asyncio.start_server(server.serve, "127.0.0.1", 0)
        port = listening.sockets[0].getsockname()[1]
        try:
            await asyncio.to_thread(play, f"http://127.0.0.1:{port}")
        finally:
            listening.close()

    asyncio.run(go())
    # a pause before each of the three reconnects the script makes (one more if httpx found a
    # kept-alive connection the scripted server had closed, on a busy machine: its retry is paused
    # too, and asks the script for nothing)
    assert 3 <= len(pauses) <= 4 and all(p > 0 for p in pauses)
