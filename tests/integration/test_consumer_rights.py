"""The services' durable consumers under NATS permissions (tools.devservers): no service's user
creates, updates or deletes another's durable by any form of the JetStream API (the unnamed form
with the name in its body, the named forms, the durable form), nor inspects it (but the table
service, whose readiness reads the workers' progress); while each still does its own work: its
own durables, and the readers it names (catch-ups, scans, following the log). Against a real
NATS server of its own."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import nats
from nats.js import api

from gcbc.eventlog.jetstream import DIRECT_READS, STREAM, JetStreamEventLog
from gcbc.players.log import STREAM_NAMES as PLAYERS_STREAM
from tools import devservers

TABLE = "00000000000000aa"  # in partition 0 (one partition: the default)
DURABLES = {
    "rules": ("rules-worker", "rules-worker-p0"),
    "projection": ("projection", "projection-p0"),
}
USERS = ("table", "rules", "projection", "bots")


def _attempts(durable: str, config: api.ConsumerConfig) -> dict[str, dict | None]:
    """Every way to reach a durable: subject -> the request's config (None: an empty body)."""
    api_ = "$JS.API.CONSUMER"
    moved = {**config.as_dict(), "filter_subject": "gcbc.table.0.nothing"}  # it would read nothing
    unnamed = {k: v for k, v in moved.items() if k != "durable_name"} | {"name": durable}
    return {
        f"{api_}.CREATE.{STREAM}": unnamed,  # the name in the body only
        f"{api_}.CREATE.{STREAM}.{durable}": moved,
        f"{api_}.CREATE.{STREAM}.{durable}.gcbc.table.0.nothing": moved,
        f"{api_}.DURABLE.CREATE.{STREAM}.{durable}": moved,
        f"{api_}.DELETE.{STREAM}.{durable}": None,
        f"{api_}.INFO.{STREAM}.{durable}": None,
    }


async def _refused(nc: nats.NATS, subject: str, config: dict | None) -> bool:
    body = json.dumps({"stream_name": STREAM, "config": config}).encode() if config else b""
    try:
        await nc.request(subject, body, timeout=1)
    except nats.errors.TimeoutError:  # no right: no answer
        return True
    return False


def test_no_service_reaches_another_services_durables_and_each_does_its_own_work(tmp_path: Path):
    server = devservers.start_nats(tmp_path)

    async def go() -> None:
        admin = await JetStreamEventLog.connect(server.url)
        logs = {user: await JetStreamEventLog.connect(server.url_for(user)) for user in USERS}
        consumed: dict[str, list[bytes]] = {"rules": [], "projection": []}
        subscriptions = []
        try:
            for user, (group, _) in DURABLES.items():

                async def handle(batch, got=consumed[user]):
                    got.extend(stored.data for stored in batch)
                    return [None] * len(batch)

                only = "commands" if user == "rules" else "answers"
                subscriptions.append(
                    await logs[user].consume_batches(group, handle, partition=0, only=only)
                )
            before = {
                durable: (await admin.js.consumer_info(STREAM, durable)).config
                for _, durable in DURABLES.values()
            }

            attempts = [
                (user, subject, config)
                for user in USERS
                for owner, (_, durable) in DURABLES.items()
                if owner != user
                for subject, config in _attempts(durable, before[durable]).items()
                # the table service reads the workers' progress (its readiness)
                if not (user == "table" and ".INFO." in subject)
            ]
            refused = await asyncio.gather(
                *(_refused(logs[user].nc, subject, config) for user, subject, config in attempts)
            )
            answered = [(u, s) for (u, s, _), no in zip(attempts, refused, strict=True) if not no]
            assert answered == []
            for durable, config in before.items():  # untouched
                assert (await admin.js.consumer_info(STREAM, durable)).config == config
            for _, durable in DURABLES.values():
                info = await logs["table"].js.consumer_info(STREAM, durable)  # (readiness)
                assert info.config.durable_name == durable

            # each does its own work: its durables get their entries; its readers follow the
            # log, catch a long table up and scan the log
            followed: dict[str, list[bytes]] = {user: [] for user in USERS}
            followers = []
            for user in USERS:

                async def keep(stored, got=followed[user]):
                    got.append(stored.data)

                followers.append(await logs[user].follow(keep))
            last = 0
            for n in range(DIRECT_READS + 4):
                last = (await admin.append(TABLE, b"%d" % n, last, answer=n % 2 == 1)).seq
            entries = [b"%d" % n for n in range(DIRECT_READS + 4)]
            deadline = time.monotonic() + 10
            while any(len(got) < len(entries) for got in followed.values()) or len(
                consumed["rules"] + consumed["projection"]
            ) < len(entries):
                assert time.monotonic() < deadline, (followed, consumed)
                await asyncio.sleep(0.05)
            assert consumed["rules"] == entries[0::2] and consumed["projection"] == entries[1::2]
            for user in USERS:
                assert followed[user] == entries
                assert [s.data for s in await logs[user].read(TABLE)] == entries
                assert [s.data async for b in logs[user].scan() for s in b] == entries
            for follower in followers:
                await follower.close()
            names = sorted(c.name for c in await admin.js.consumers_info(STREAM))
            assert names == sorted(durable for _, durable in DURABLES.values())  # readers gone
        finally:
            for subscription in subscriptions:
                await subscription.close()
            for log in [admin, *logs.values()]:
                await log.close()

    try:
        asyncio.run(go())
    finally:
        server.stop()
    # the only violations the server saw: the attempts (its readers' own work needed no other)
    violations = [line for line in server.log.read_text().splitlines() if "Violation" in line]
    assert violations and all(
        any(f'"{s}"' in line for s in _attempted_subjects()) for line in violations
    ), violations


def _attempted_subjects() -> set[str]:
    config = api.ConsumerConfig(durable_name="x")
    return {s for _, d in DURABLES.values() for s in _attempts(d, config)}


def test_a_consumer_aimed_at_a_workers_deliver_subject_hands_it_nothing(tmp_path: Path):
    """The table service reads the workers' consumers (its readiness), their deliver subjects
    among them, and makes readers of its own (here made by the admin, whose rights every
    version allows): one delivering to the rules worker's subject once handed it every entry
    again (old commands, answers) as if its own consumer's."""
    server = devservers.start_nats(tmp_path)

    async def go() -> None:
        admin = await JetStreamEventLog.connect(server.url)
        rules = await JetStreamEventLog.connect(server.url_for("rules"))
        table = await JetStreamEventLog.connect(server.url_for("table"))
        got: list[bytes] = []

        async def handle(batch):
            got.extend(stored.data for stored in batch)
            return [None] * len(batch)

        subscription = await rules.consume_batches(
            "rules-worker", handle, partition=0, only="commands"
        )
        try:
            last = (await admin.append(TABLE, b"command", 0)).seq
            last = (await admin.append(TABLE, b"answer", last, answer=True)).seq
            aim = (await table.js.consumer_info(STREAM, "rules-worker-p0")).config
            await admin.js.add_consumer(
                STREAM,
                name="table-aimed",
                deliver_subject=aim.deliver_subject,
                deliver_group=aim.deliver_group,
                ack_policy=api.AckPolicy.NONE,
            )
            deadline = time.monotonic() + 5
            while (await admin.js.consumer_info(STREAM, "table-aimed")).delivered.stream_seq < last:
                assert time.monotonic() < deadline, "the aimed consumer delivered nothing"
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.2)  # (what it delivered has reached the worker)
            assert got == [b"command"]
        finally:
            await subscription.close()
            for log in (admin, rules, table):
                await log.close()

    try:
        asyncio.run(go())
    finally:
        server.stop()


def test_the_projection_reads_the_whole_players_log_to_make_players_again(tmp_path: Path):
    """After its store was wiped the projection makes the players again from their whole log
    (services.projection.ratings.rebuild_players): before, its user could not name the reader
    that scans it, and the players stayed missing (their games unlisted) after every wipe."""
    server = devservers.start_nats(tmp_path)

    async def go() -> None:
        table = await JetStreamEventLog.connect(server.url_for("table"), **PLAYERS_STREAM)
        await table.append("p0000000000000aa", b"an entry", expected=0)
        projection = await JetStreamEventLog.connect(server.url_for("projection"), **PLAYERS_STREAM)
        try:
            read = [stored.data async for batch in projection.scan() for stored in batch]
            assert read == [b"an entry"]
        finally:
            await projection.close()
            await table.close()

    try:
        asyncio.run(asyncio.wait_for(go(), 30))
    finally:
        server.stop()
