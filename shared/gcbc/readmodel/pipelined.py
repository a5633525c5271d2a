"""A pipelined connection to one Redis, for the read model's hot calls: each call is written at
once and its reply is matched by order (Redis answers a connection's commands in the order they
came), parsed by hiredis (the Redis project's C reply parser, the one redis-py itself uses).

Kept beside redis-py because its public clients (pooled, single-connection, pipelines) cost
several times the CPU per view read and about twice per projected write (docs/benchmarks.md); the
table service reads a view twice per command, the projection writes once per change. redis-py
stays for everything else (scripts' loading, scans, pub/sub, Redis Cluster).

Failures are redis-py's exceptions, so callers handle both alike: ``ConnectionError`` (the
connection was lost, or could not be made: every call in flight fails with it, and the next call
connects again), ``TimeoutError`` (no reply within ``timeout``; a connection that sent nothing
for that long is dropped, one answering others is not: one slow reply fails its call alone), and
a reply error as redis-py's class for it (``NoScriptError``, ``ResponseError``...). A call that
failed with a lost connection is sent again on a new one, ``retries`` times with a short backoff:
the read model's calls are reads, or writes that may run twice (a put names its position)."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import ssl
from collections import deque
from typing import Any
from urllib.parse import unquote, urlsplit

import hiredis
from redis.exceptions import (
    AuthenticationError,
    BusyLoadingError,
    ExecAbortError,
    MasterDownError,
    NoPermissionError,
    NoScriptError,
    OutOfMemoryError,
    ReadOnlyError,
    ResponseError,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

Arg = bytes | str | int

# the reply errors one Redis sends, by their code, as redis-py's classes (its parser's table is
# not public); any other is a ResponseError
ERRORS: dict[str, type[Exception]] = {
    "NOSCRIPT": NoScriptError,
    "LOADING": BusyLoadingError,
    "NOAUTH": AuthenticationError,
    "WRONGPASS": AuthenticationError,
    "NOPERM": NoPermissionError,
    "READONLY": ReadOnlyError,
    "OOM": OutOfMemoryError,
    "MASTERDOWN": MasterDownError,
    "EXECABORT": ExecAbortError,
}

AUTH_REFUSED = ("invalid password", "Client sent AUTH", "AUTH <password> called without")


def reply_error(message: str) -> Exception:
    """A reply error as redis-py raises it: its code's class, the code left out of the message."""
    code, _, rest = message.partition(" ")
    if code == "ERR":
        if rest.startswith("max number of clients reached"):
            return RedisConnectionError(rest)
        if rest.startswith(AUTH_REFUSED):
            return AuthenticationError(rest)
        return ResponseError(rest)
    kind = ERRORS.get(code)
    return ResponseError(message) if kind is None else kind(rest)


def pack(args: tuple[Arg, ...] | list[Arg]) -> bytes:
    """A command in RESP: an array of bulk strings."""
    out = [b"*%d\r\n" % len(args)]
    for a in args:
        if isinstance(a, str):
            a = a.encode()
        elif isinstance(a, int):
            a = b"%d" % a
        out += (b"$%d\r\n" % len(a), a, b"\r\n")
    return b"".join(out)


class _Connection(asyncio.Protocol):
    """One connection: the futures of the calls in flight, oldest first."""

    def __init__(self) -> None:
        self.reader = hiredis.Reader()
        self.waiting: deque[asyncio.Future[Any]] = deque()
        self.transport: asyncio.Transport | None = None
        self.open = False
        self.outgoing: list[bytes] = []  # written together once the loop's callbacks have run
        self.heard = 0.0  # when Redis last sent something (the loop's clock)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self.open = True
        sock = transport.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)

    def data_received(self, data: bytes) -> None:
        self.heard = asyncio.get_running_loop().time()
        self.reader.feed(data)
        waiting = self.waiting
        while True:
            try:
                reply = self.reader.gets()
            except hiredis.ProtocolError as e:
                self.lose(RedisConnectionError(f"Redis protocol error: {e}"))
                return
            if reply is False:
                return
            if not waiting:  # a reply nobody asked for: the connection cannot be trusted
                self.lose(RedisConnectionError("Redis sent a reply to no command"))
                return
            future = waiting.popleft()
            if future.done():  # its caller gave up (a timeout, a cancellation)
                continue
            if isinstance(reply, hiredis.ReplyError):
                future.set_exception(reply_error(str(reply)))
            else:
                future.set_result(reply)

    def connection_lost(self, exc: Exception | None) -> None:
        self.open = False
        self._fail(RedisConnectionError(f"connection to Redis lost: {exc or 'closed'}"))

    def lose(self, error: Exception) -> None:
        """Close the connection; the calls in flight fail with ``error``."""
        self.open = False
        if self.transport is not None:
            self.transport.abort()
        self._fail(error)

    def _fail(self, error: Exception) -> None:
        while self.waiting:
            future = self.waiting.popleft()
            if not future.done():
                future.set_exception(error)

    def send(self, packed: bytes, count: int = 1) -> list[asyncio.Future[Any]]:
        """``packed``: ``count`` commands, written at once; their replies' futures."""
        if not self.open or self.transport is None:
            raise RedisConnectionError("connection to Redis lost")
        loop = asyncio.get_running_loop()
        futures = [loop.create_future() for _ in range(count)]
        self.waiting.extend(futures)
        if not self.outgoing:  # the calls made in this turn of the loop go in one write
            loop.call_soon(self._flush)
        self.outgoing.append(packed)
        return futures

    def _flush(self) -> None:
        outgoing, self.outgoing = self.outgoing, []
        if self.open and self.transport is not None:
            self.transport.write(outgoing[0] if len(outgoing) == 1 else b"".join(outgoing))


class PipelinedRedis:
    """Calls to the Redis at ``url`` (``redis://[user:password@]host:port[/db]``, or
    ``rediss://``) on one connection, made when first needed and again after a loss."""

    def __init__(
        self,
        url: str,
        timeout: float = 5.0,
        connect_timeout: float = 2.0,
        retries: int = 3,
    ) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("redis", "rediss"):
            raise ValueError(f"not a Redis URL: {parts.scheme}://…")
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or 6379
        self.username = unquote(parts.username) if parts.username else None
        self.password = unquote(parts.password) if parts.password else None
        self.db = int(parts.path.strip("/") or 0)
        self.tls = parts.scheme == "rediss"
        self.timeout, self.connect_timeout, self.retries = timeout, connect_timeout, retries
        self._connection: _Connection | None = None
        self._connecting: asyncio.Lock | None = None

    async def call(self, *args: Arg) -> Any:
        """One command's reply (bytes for strings, lists for arrays, None for nil)."""
        packed = pack(args)
        for attempt in range(self.retries + 1):
            connection = self._connection
            if connection is None or not connection.open:
                connection = await self._connect()
            try:
                return await self._answer(connection, connection.send(packed)[0])
            except RedisConnectionError:
                if attempt == self.retries:
                    raise
                await asyncio.sleep(min(0.25, 0.02 * 2**attempt))
        raise AssertionError("unreachable")

    async def calls(self, commands: list[tuple[Arg, ...]]) -> list[Any]:
        """Several commands written at once (one write, one round trip): their replies in
        order, a command's reply error as its exception in its place. Those lost with a
        connection are sent again on a new one."""
        packed = [pack(c) for c in commands]
        results: list[Any] = [None] * len(commands)
        todo = list(range(len(commands)))
        for attempt in range(self.retries + 1):
            connection = self._connection
            if connection is None or not connection.open:
                connection = await self._connect()
            try:
                futures = connection.send(b"".join(packed[i] for i in todo), len(todo))
            except RedisConnectionError:
                futures = []
            lost = [] if futures else todo
            for i, future in zip(todo, futures, strict=False):
                try:
                    results[i] = await self._answer(connection, future)
                except RedisConnectionError:
                    lost.append(i)
                except RedisTimeoutError:
                    raise
                except Exception as e:  # noqa: BLE001  (a reply error: the caller's to judge)
                    results[i] = e
            if not lost:
                return results
            if attempt == self.retries:
                raise RedisConnectionError(f"connection to Redis lost ({len(lost)} calls)")
            todo = lost
            await asyncio.sleep(min(0.25, 0.02 * 2**attempt))
        return results

    async def _answer(self, connection: _Connection, future: asyncio.Future[Any]) -> Any:
        if future.done():
            return future.result()
        try:
            async with asyncio.timeout(self.timeout):
                return await future
        except TimeoutError:
            if asyncio.get_running_loop().time() - connection.heard >= self.timeout:
                # silent all that time: gone (a slow answer among others is only this call's)
                connection.lose(RedisTimeoutError("Redis did not answer in time"))
            raise RedisTimeoutError(f"Redis did not answer within {self.timeout} s") from None

    async def _connect(self) -> _Connection:
        if self._connecting is None:
            self._connecting = asyncio.Lock()
        async with self._connecting:
            if self._connection is not None and self._connection.open:
                return self._connection  # another call made it meanwhile
            loop = asyncio.get_running_loop()
            context = ssl.create_default_context() if self.tls else None
            connection: _Connection | None = None
            try:
                async with asyncio.timeout(self.connect_timeout):
                    _, connection = await loop.create_connection(
                        _Connection, self.host, self.port, ssl=context
                    )
                    if self.password is not None:
                        who = [self.username] if self.username else []
                        await connection.send(pack(("AUTH", *who, self.password)))[0]
                    if self.db:
                        await connection.send(pack(("SELECT", self.db)))[0]
            except BaseException as e:
                if connection is not None:  # refused (a wrong password), or timed out
                    connection.lose(RedisConnectionError(str(e)))
                if isinstance(e, TimeoutError):
                    raise RedisTimeoutError(
                        f"no connection to Redis at {self.host}:{self.port} in time"
                    ) from None
                if isinstance(e, OSError):
                    raise RedisConnectionError(
                        f"no connection to Redis at {self.host}:{self.port}: {e}"
                    ) from None
                raise
            self._connection = connection
            return connection

    async def close(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None and connection.transport is not None:
            connection.open = False
            connection.transport.close()
