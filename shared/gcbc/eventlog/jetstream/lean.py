"""The one place the adapter reaches past nats-py's public API: whole-log passes and durable groups
take their deliveries raw, because nats-py parses every delivery's headers (each entry carries the
append's three) and builds a message object for it, a measured loss of throughput
(docs/benchmarks.md). A raw delivery needs only its subject, its data and its acknowledgement
subject (which names its place, its time and what is left)."""

from __future__ import annotations

from collections.abc import Callable

import nats
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription

# a raw delivery's handler: (subject, reply, data, headers) -> a subject to answer empty, or None
Sink = Callable[[bytes, bytes, bytes, bytes | None], "str | None"]


class LeanClient(nats.NATS):
    """nats-py's client; a subscription made by ``subscribe_raw`` hands its deliveries to its
    sink as they come off the wire (no message object, no header parsing, no queue)."""

    def __init__(self) -> None:
        super().__init__()
        self.sinks: dict[int, Sink] = {}

    async def subscribe_raw(self, subject: str, sink: Sink, queue: str = "") -> Subscription:
        async def early(msg: Msg) -> None:
            """What comes before the sink is in place, through nats-py's own path."""
            answer = sink(msg.subject.encode(), msg.reply.encode(), msg.data, None)
            if answer:
                await self.publish(answer)

        sub = await self.subscribe(subject, queue=queue, cb=early, pending_msgs_limit=100_000)
        self.sinks[sub._id] = sink  # noqa: SLF001
        return sub

    async def unsubscribe_raw(self, sub: Subscription) -> None:
        self.sinks.pop(sub._id, None)  # noqa: SLF001
        await sub.unsubscribe()

    async def _process_msg(  # type: ignore[override]
        self, sid: int, subject: bytes, reply: bytes, data: bytes, headers: bytes | None
    ) -> None:
        sink = self.sinks.get(sid) if self.sinks else None
        if sink is None:
            await super()._process_msg(sid, subject, reply, data, headers)  # type: ignore[arg-type]
            return
        answer = sink(subject, reply, data, headers)
        if answer:
            await self.publish(answer)


def acked(reply: bytes) -> tuple[int, int, int, int] | None:
    """A JetStream delivery's stream sequence, consumer sequence, time (ns) and pending count,
    from its acknowledgement subject:
    ``$JS.ACK.<stream>.<consumer>.<delivered>.<sseq>.<dseq>.<ts>.<pending>``, or with a domain
    and an account hash before the stream (and maybe a token after). None: not a delivery."""
    t = reply.split(b".")
    if len(t) == 9:
        return int(t[5]), int(t[6]), int(t[7]), int(t[8])
    if len(t) >= 11 and t[0] == b"$JS" and t[1] == b"ACK":
        return int(t[7]), int(t[8]), int(t[9]), int(t[10])
    return None


def table_at(subject: bytes, skip: int) -> str:
    """The table of a raw delivery's subject (``skip``: the prefix's length and its dot)."""
    rest = subject[skip:]
    start = rest.find(b".") + 1
    end = rest.find(b".", start)
    return (rest[start:] if end < 0 else rest[start:end]).decode()
