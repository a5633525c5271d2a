"""A cluster's wake-ups (gcbc.readmodel.clusterwakeups) against a fake node speaking RESP: a
node that loses a table's slot (a failover, a resharding) unsubscribes its channel on a live
connection, and the table is then not trusted quiet and is subscribed again on the next watch."""

from __future__ import annotations

import asyncio
import types

from gcbc.readmodel.clusterwakeups import CHANNEL, ShardedWakeups


class FakeNode:
    """Answers SSUBSCRIBE and PING; a test pushes messages to the clients it has."""

    def __init__(self) -> None:
        self.writers: list[asyncio.StreamWriter] = []
        self.subscribes = 0

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.writers.append(writer)
        try:
            while line := await reader.readline():
                args = []
                for _ in range(int(line[1:])):
                    size = int((await reader.readline())[1:])
                    args.append((await reader.readexactly(size + 2))[:-2])
                if args[0].upper() == b"SSUBSCRIBE":
                    self.subscribes += 1
                    writer.write(_push(b"ssubscribe", args[1], b":1\r\n"))
                else:
                    writer.write(b"+PONG\r\n")
                await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError):
            pass

    async def push(self, kind: bytes, channel: bytes, data: bytes) -> None:
        self.writers[-1].write(_push(kind, channel, data))
        await self.writers[-1].drain()


def _push(kind: bytes, channel: bytes, data: bytes) -> bytes:
    return b"*3\r\n$%d\r\n%s\r\n$%d\r\n%s\r\n%s" % (len(kind), kind, len(channel), channel, data)


def test_a_channel_the_node_unsubscribes_is_not_trusted_and_is_subscribed_again():
    async def go() -> None:
        fake = FakeNode()
        server = await asyncio.start_server(fake.serve, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        node = types.SimpleNamespace(host="127.0.0.1", port=port, name=f"127.0.0.1:{port}")

        class Cluster:
            async def initialize(self) -> None: ...

            def get_node_from_key(self, key: str) -> types.SimpleNamespace:
                return node

            async def aclose(self) -> None: ...

        async def read(table: str, fields: list[str]) -> list[bytes | None]:
            return [b"0"] + [None] * (len(fields) - 1)

        wakeups = ShardedWakeups(Cluster(), read, None, None)
        channel = CHANNEL.format(table="t1").encode()
        try:
            signal = wakeups.waiter("t1", "seat:0")
            await wakeups.watching("t1")
            await fake.push(b"smessage", channel, b"$9\r\n10 seat:0\r\n")
            for _ in range(100):
                if wakeups.quiet("t1", 10, "seat:0"):
                    break
                await asyncio.sleep(0.01)
            assert wakeups.quiet("t1", 10, "seat:0")
            await fake.push(b"sunsubscribe", channel, b":0\r\n")  # the slot moved away
            await asyncio.wait_for(signal.event.wait(), 5)  # its waiters read again
            assert not wakeups.quiet("t1", 10, "seat:0")  # nothing heard is trusted any more
            await wakeups.watching("t1")
            assert fake.subscribes == 2  # subscribed again, where the slot is now
        finally:
            await wakeups.stop()
            server.close()

    asyncio.run(go())
