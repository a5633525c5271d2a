"""A table's commands and answers on subjects of their own (issue 13), with a log written before
they were: against a real NATS server. The operator's connection gives the stream the new
subjects and records where the old log ends; a table written before keeps its one subject to its
end, a new table has two; a durable consumer made before reads what its group reads now; a
connection that may not change the stream goes on with one subject per table."""

from __future__ import annotations

import asyncio
import uuid

import nats
from nats.js import api

from gcbc.eventlog.jetstream import JetStreamEventLog


def _collect(into: list[tuple[str, bytes]]):
    async def handle(stored) -> None:
        into.append((stored.table, stored.data))

    return handle


async def _subjects(js, stream: str, prefix: str) -> dict[str, int]:
    info = await js.stream_info(stream, subjects_filter=f"{prefix}.>")
    return dict(info.state.subjects or {})


async def _until(ready, seconds: float = 5) -> None:
    for _ in range(int(seconds / 0.02)):
        if ready():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("not in time")


def test_a_log_from_before_goes_on_beside_the_new_subjects(nats_url):
    async def go() -> None:
        name = uuid.uuid4().hex[:12]
        stream, prefix = f"APART_{name}", f"apart.{name}"
        nc = await nats.connect(nats_url)
        js = nc.jetstream()
        # the stream and a durable consumer as an earlier release made them
        await js.add_stream(
            name=stream,
            subjects=[f"{prefix}.*.*"],
            metadata={"gcbc_partitions": "4"},
            allow_direct=True,
        )
        await js.add_consumer(
            stream,
            api.ConsumerConfig(
                durable_name="rules",
                deliver_subject=nc.new_inbox(),
                deliver_group="rules",
                ack_policy=api.AckPolicy.EXPLICIT,
                filter_subject=f"{prefix}.*.*",
            ),
        )
        old = await JetStreamEventLog.connect(
            nats_url, stream=stream, prefix=prefix, partitions=4, create=False
        )
        assert not old.apart  # a stream without the new subjects: one subject per table
        before = uuid.uuid4().hex
        c1 = await old.append(before, b"before:c1", 0)
        a1 = await old.append(before, b"before:a1", c1.seq, answer=True)
        c2 = await old.append(before, b"before:c2", a1.seq)  # its answer comes after the upgrade
        await old.close()

        log = await JetStreamEventLog.connect(nats_url, stream=stream, prefix=prefix, partitions=4)
        try:
            info = await js.stream_info(stream)
            assert info.config.subjects == [f"{prefix}.*.*", f"{prefix}.*.*.*"]
            assert info.config.metadata["gcbc_apart_after"] == str(c2.seq)
            assert log.apart and log.apart_after == c2.seq
            commands: list[tuple[str, bytes]] = []
            group = await log.consume("rules", _collect(commands), only="commands")
            # the old table: its entries stay on its one subject, to its end
            a2 = await log.append(before, b"before:a2", c2.seq, answer=True)
            c3 = await log.append(before, b"before:c3", a2.seq)
            # a new table: its commands and answers apart
            after = uuid.uuid4().hex
            n1 = await log.append(after, b"after:c1", 0)
            await log.append(after, b"after:a1", n1.seq, answer=True)
            subjects = await _subjects(js, stream, prefix)
            stem = log.subject(after)
            assert subjects[f"{stem}.c"] == 1 and subjects[f"{stem}.a"] == 1
            assert subjects[log.subject(before)] == 5
            assert [s.data for s in await log.read(before)] == [
                b"before:c1",
                b"before:a1",
                b"before:c2",
                b"before:a2",
                b"before:c3",
            ]
            # a fresh connection finds out the old table's layout by itself
            other = await JetStreamEventLog.connect(nats_url, stream=stream, prefix=prefix)
            assert (await other.last(before)).seq == c3.seq
            fresh = await JetStreamEventLog.connect(nats_url, stream=stream, prefix=prefix)
            a3 = await fresh.append(before, b"before:a3", c3.seq, answer=True)  # learnt on refusal
            assert (await other.last(before)).seq == a3.seq
            await other.close()
            await fresh.close()
            # the durable consumer made before reads the group's subjects now: every entry of the
            # old table (one subject), the commands alone of the new one
            await _until(lambda: len(commands) >= 7)
            await asyncio.sleep(0.2)  # nothing more comes
            assert commands == [
                (before, b"before:c1"),
                (before, b"before:a1"),
                (before, b"before:c2"),
                (before, b"before:a2"),
                (before, b"before:c3"),
                (after, b"after:c1"),
                (before, b"before:a3"),
            ]
            consumer = await js.consumer_info(stream, "rules")
            assert sorted(consumer.config.filter_subjects) == sorted(
                [f"{prefix}.*.*", f"{prefix}.*.*.c"]
            )
            _, sizes = await log.sizes()
            assert sizes == {before: 6, after: 2}
            assert (await log.status()).tables == 2
            await group.close()
        finally:
            await log.close()
            await js.delete_stream(stream)
            await nc.close()

    asyncio.run(go())


def test_a_connection_that_may_not_change_the_stream_keeps_one_subject_per_table(nats_url):
    async def go() -> None:
        name = uuid.uuid4().hex[:12]
        stream, prefix = f"ONE_{name}", f"one.{name}"
        nc = await nats.connect(nats_url)
        js = nc.jetstream()
        await js.add_stream(name=stream, subjects=[f"{prefix}.*.*"], allow_direct=True)
        log = await JetStreamEventLog.connect(nats_url, stream=stream, prefix=prefix, create=False)
        try:
            answers: list[tuple[str, bytes]] = []
            group = await log.consume("projection", _collect(answers), only="answers")
            t = uuid.uuid4().hex
            c1 = await log.append(t, b"c1", 0)
            await log.append(t, b"a1", c1.seq, answer=True)
            await _until(lambda: len(answers) == 2)  # one subject: both kinds come
            assert [d for _, d in answers] == [b"c1", b"a1"]
            assert list(await _subjects(js, stream, prefix)) == [log.subject(t)]
            await group.close()
        finally:
            await log.close()
            await js.delete_stream(stream)
            await nc.close()

    asyncio.run(go())
