"""The read model's pipelined connection (gcbc.readmodel.pipelined) against a real Redis: replies
matched to their calls in order however many are in flight, reply errors as redis-py's classes
without upsetting the calls around them, the URL's user, password and database, a lost
connection made again (the calls in flight sent again), and a silent server or no server at all
failing in time, as redis-py's ConnectionError and TimeoutError."""

from __future__ import annotations

import asyncio
import socket
from urllib.parse import urlsplit, urlunsplit

import hiredis
import pytest
import redis.asyncio as aioredis
from redis.exceptions import AuthenticationError, NoScriptError, ResponseError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from gcbc.readmodel.pipelined import PipelinedRedis, pack


def _db(url: str, db: int) -> str:
    return url.rsplit("/", 1)[0] + f"/{db}"


def test_pack_is_resp():
    assert (
        pack(("HMGET", "k", b"f", 7)) == b"*4\r\n$5\r\nHMGET\r\n$1\r\nk\r\n$1\r\nf\r\n$1\r\n7\r\n"
    )


def test_replies_match_their_calls_in_order(redis_url):
    async def go() -> None:
        url = _db(redis_url, 12)
        fast = PipelinedRedis(url)
        plain = aioredis.Redis.from_url(url)
        await plain.flushdb()
        try:
            await plain.hset("h", mapping={f"f{i}": f"v{i}" * (i + 1) for i in range(200)})

            async def one(i: int) -> None:
                for _ in range(20):
                    got = await fast.call("HMGET", "h", f"f{i}", "missing")
                    assert got == [f"v{i}".encode() * (i + 1), None]

            await asyncio.gather(*(one(i) for i in range(200)))
            # several at once, one of them refused: the refusal in its place, the others answered
            got = await fast.calls([("SET", "a", 1), ("HGET", "a", "x"), ("GET", "a")])
            assert got[0] == b"OK" and got[2] == b"1"
            assert isinstance(got[1], ResponseError) and "WRONGTYPE" in str(got[1])
            with pytest.raises(NoScriptError):
                await fast.call("EVALSHA", "0" * 40, 0)
            assert await fast.call("GET", "a") == b"1"  # the connection is still good
            assert await fast.calls([]) == []
        finally:
            await fast.close()
            await plain.aclose()

    asyncio.run(go())


def test_the_urls_user_password_and_database(redis_url):
    async def go() -> None:
        url = _db(redis_url, 11)
        plain = aioredis.Redis.from_url(url)
        await plain.set("where", b"db11")
        fast = PipelinedRedis(url)
        try:
            assert await fast.call("GET", "where") == b"db11"
            parts = urlsplit(url)
            if parts.password:  # a local server with users: a wrong password is refused
                wrong = parts._replace(
                    netloc=f"{parts.username}:wrong@{parts.hostname}:{parts.port}"
                )
                bad = PipelinedRedis(urlunsplit(wrong), retries=0)
                with pytest.raises(AuthenticationError):
                    await bad.call("GET", "where")
                await bad.close()
        finally:
            await fast.close()
            await plain.aclose()

    asyncio.run(go())


def test_a_lost_connection_is_made_again(redis_url):
    async def go() -> None:
        url = _db(redis_url, 12)
        fast = PipelinedRedis(url)
        admin = aioredis.Redis.from_url(url)
        try:
            await fast.call("SET", "k", "1")
            await fast.call("CLIENT", "SETNAME", "pipelined-test")
            # killed between calls: the next call connects again
            await admin.client_kill_filter(_type="normal", skipme=True, laddr=None, user=None)
            assert await fast.call("GET", "k") == b"1"
            # killed with calls in flight: they are sent again on a new connection
            calls = [fast.call("GET", "k") for _ in range(50)]
            kill = admin.client_kill_filter(_type="normal", skipme=True)
            got = await asyncio.gather(*calls, kill)
            assert got[:50] == [b"1"] * 50
        finally:
            await fast.close()
            await admin.aclose()

    asyncio.run(go())


def test_no_server_or_a_silent_one_fails_in_time():
    async def go() -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]  # nothing listens there once closed
        fast = PipelinedRedis(f"redis://127.0.0.1:{port}/0", retries=1)
        with pytest.raises(RedisConnectionError):
            await fast.call("GET", "k")

        # a server that takes the connection and never answers
        async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await reader.read(1 << 16)
            await asyncio.sleep(10)

        server = await asyncio.start_server(silent, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        fast = PipelinedRedis(f"redis://127.0.0.1:{port}/0", timeout=0.2)
        try:
            with pytest.raises(RedisTimeoutError):
                await asyncio.wait_for(fast.call("GET", "k"), 5)
            assert fast._connection is not None and not fast._connection.open  # dropped
        finally:
            await fast.close()
            server.close()

    asyncio.run(go())


def test_a_slow_reply_fails_its_call_alone_while_the_connection_answers():
    """A server answering each command 0.3 s after the one before: with a 1 s timeout, the calls
    queued behind time out, but the connection keeps answering, so it is kept, and a call made
    after gets its own reply on it."""

    async def go() -> None:
        async def slow(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            parser = hiredis.Reader()
            while data := await reader.read(1 << 16):
                parser.feed(data)
                while (command := parser.gets()) is not False:
                    await asyncio.sleep(0.3)
                    writer.write(b"$%d\r\n%s\r\n" % (len(command[-1]), command[-1]))
                    await writer.drain()

        server = await asyncio.start_server(slow, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        fast = PipelinedRedis(f"redis://127.0.0.1:{port}/0", timeout=1.0)
        try:
            got = await asyncio.gather(
                *(fast.call("ECHO", f"m{i}") for i in range(5)), return_exceptions=True
            )
            assert got[:3] == [b"m0", b"m1", b"m2"]
            assert all(isinstance(g, RedisTimeoutError) for g in got[3:])
            connection = fast._connection
            assert connection is not None and connection.open  # still answering: kept
            assert await fast.call("ECHO", "later") == b"later"
            assert fast._connection is connection
        finally:
            await fast.close()
            server.close()

    asyncio.run(go())


def test_reply_errors_are_redis_pys_classes():
    """A reply error becomes the class redis-py raises for it, its code left out of the message
    as redis-py does (a Redis loading its data is a connection error: tried again)."""
    from redis.exceptions import BusyLoadingError, NoPermissionError, ReadOnlyError

    from gcbc.readmodel.pipelined import reply_error

    cases = {
        "NOSCRIPT No matching script.": (NoScriptError, "No matching script."),
        "LOADING Redis is loading the dataset in memory": (
            BusyLoadingError,
            "Redis is loading the dataset in memory",
        ),
        "WRONGPASS invalid username-password pair": (
            AuthenticationError,
            "invalid username-password pair",
        ),
        "ERR invalid password": (AuthenticationError, "invalid password"),
        "ERR max number of clients reached": (
            RedisConnectionError,
            "max number of clients reached",
        ),
        "ERR unknown command 'X'": (ResponseError, "unknown command 'X'"),
        "NOPERM no permissions": (NoPermissionError, "no permissions"),
        "READONLY a replica": (ReadOnlyError, "a replica"),
        "WRONGTYPE Operation against a key": (ResponseError, "WRONGTYPE Operation against a key"),
    }
    for message, (kind, text) in cases.items():
        error = reply_error(message)
        assert type(error) is kind and str(error) == text, message
    assert issubclass(BusyLoadingError, RedisConnectionError)
