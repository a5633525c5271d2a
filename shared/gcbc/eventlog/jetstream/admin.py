"""The operators' side of the JetStream log: the stream's setup, the tables and their sizes, the
log's state and each durable group's progress."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

import msgspec
import nats
from nats.js import api
from nats.js.errors import APIError, NotFoundError

from gcbc.eventlog.jetstream.stream import (
    COMPRESSION,
    NOT_STORED,
    UNANSWERED,
    Connected,
    everything,
    stored,
    stream_config,
    table_of,
    unavailable,
    when,
)
from gcbc.eventlog.partitions import group_of, partition_group
from gcbc.eventlog.port import GroupStatus, LogStatus, combined

log = logging.getLogger("gcbc.eventlog")
_json = msgspec.json.Decoder()


def _progress(info: api.ConsumerInfo) -> GroupStatus:
    return GroupStatus(
        name=info.name,
        pending=info.num_pending or 0,
        ack_pending=info.num_ack_pending or 0,
        redelivered=info.num_redelivered or 0,
        delivered=info.delivered.stream_seq if info.delivered else 0,
        acked=info.ack_floor.stream_seq if info.ack_floor else 0,
    )


class Admin(Connected):
    """The log's operators' methods (mixed into JetStreamEventLog, which provides its fields)."""

    async def ensure_stream(
        self, replicas: int | None = None, configure: bool = False
    ) -> api.StreamInfo:
        """The stream exists, with ``replicas`` copies: created if missing (one copy if None).
        ``configure`` (an operator's connection): an existing one is updated to the configured
        copies (None keeps its count) and compression. The services' users may not change a
        stream (their request would wait out its timeout): they say how it differs and use it."""
        try:
            info = await self.js.stream_info(self.stream)
        except NotFoundError:
            replicas = replicas or 1
            config = stream_config(replicas, self.stream, self.prefix, self.partitions)
            self.direct = replicas == 1
            try:
                return await self.js.add_stream(config)
            except APIError:  # another process created it meanwhile: take what it made
                return await self.js.stream_info(self.stream)
        self.direct = info.config.num_replicas == 1 and replicas in (None, 1)
        wanted = replace(
            info.config,
            num_replicas=info.config.num_replicas if replicas is None else replicas,
            compression=COMPRESSION,
        )
        if wanted == info.config:
            return info
        try:
            if configure:
                await self.js.update_stream(wanted)
                return info
            error = "this user does not configure streams"
        except nats.errors.Error as e:
            error = str(e)
        log.warning(
            "stream %s has %s replicas and %s compression, %s and %s configured; not updated"
            " (%s): an operator updates it (python -m tools.launcher does with the admin user;"
            " elsewhere, NATS's own tool: nats stream edit)",
            self.stream,
            info.config.num_replicas,
            getattr(info.config.compression, "value", info.config.compression),
            wanted.num_replicas,
            getattr(wanted.compression, "value", wanted.compression),
            error,
        )
        return info

    async def stream_info(self) -> api.StreamInfo:
        try:
            return await self.js.stream_info(self.stream)
        except (*NOT_STORED, *UNANSWERED) as e:
            raise unavailable(e) from None

    async def _stream_state(self, body: dict[str, Any] | None = None) -> dict[str, Any]:
        """The stream's state as JetStream answers it: nats-py's stream_info neither pages its
        subjects nor keeps the last entry's time."""
        try:
            msg = await self.nc.request(
                f"$JS.API.STREAM.INFO.{self.stream}",
                msgspec.json.encode(body) if body else b"",
                timeout=5,
            )
        except (*NOT_STORED, *UNANSWERED) as e:
            raise unavailable(e) from None
        got = _json.decode(msg.data)
        error = got.get("error")
        if error:
            if error.get("code") == 404:
                raise NotFoundError(description=error.get("description"))
            raise unavailable(Exception(f"{error.get('description')} ({error.get('err_code')})"))
        return got

    async def tables(self, partition: int | None = None) -> AsyncIterator[str]:
        _, sizes = await self.sizes(partition)
        for table in sorted(sizes):
            yield table

    async def sizes(self, partition: int | None = None) -> tuple[int, dict[str, int]]:
        """One snapshot of the stream's subjects (``partition``: that one's), page by page
        (JetStream pages them): a table's commands and answers counted together."""
        out: dict[str, int] = {}
        last = seen = 0
        body: dict[str, Any] = {"subjects_filter": everything(self.prefix, partition)}
        while True:
            got = await self._stream_state(body)
            state = got.get("state", {})
            if not seen:
                last = state.get("last_seq", 0)
            subjects = state.get("subjects") or {}
            for subj, count in subjects.items():
                table = table_of(subj, self.prefix)
                out[table] = out.get(table, 0) + count
            seen += len(subjects)
            if not subjects or seen >= got.get("total", 0):
                return last, out
            body = {**body, "offset": seen}

    async def _entry_at(self, seq: int, partition: int | None = None) -> float | None:
        """When the first entry at or after ``seq`` was stored (None: none)."""
        try:
            msg = await self.js.get_msg(
                self.stream,
                seq=seq,
                subject=everything(self.prefix, partition),
                next=True,
                direct=True,
            )
        except NotFoundError:
            return None
        return stored(msg, self.prefix).at or None

    async def _with_oldest(self, g: GroupStatus) -> GroupStatus:
        if not g.lag:
            return g
        partition = group_of(g.name)[1]
        return msgspec.structs.replace(g, oldest_at=await self._entry_at(g.acked + 1, partition))

    async def _consumer(self, name: str) -> GroupStatus | None:
        try:
            info = await self.js.consumer_info(self.stream, name)
        except NotFoundError:
            return None
        except (*NOT_STORED, *UNANSWERED) as e:
            raise unavailable(e) from None
        return await self._with_oldest(_progress(info))

    async def group(self, name: str) -> GroupStatus | None:
        """A durable consumer's progress, or a group's over its partitions' consumers."""
        whole = await self._consumer(name)
        if whole is not None:
            return whole
        parts = [await self._consumer(partition_group(name, p)) for p in range(self.partitions)]
        found = [g for g in parts if g is not None]
        return combined(name, found) if found else None

    async def _groups(self) -> list[GroupStatus]:
        """Every durable consumer's progress (ephemeral readers are not groups)."""
        out: list[GroupStatus] = []
        offset = 0
        while True:
            try:
                page = await self.js.consumers_info(self.stream, offset)
            except (*NOT_STORED, *UNANSWERED) as e:
                raise unavailable(e) from None
            for info in page:
                if info.config.durable_name:
                    out.append(await self._with_oldest(_progress(info)))
            offset += len(page)
            if not page:
                return out

    async def status(self) -> LogStatus:
        state = (await self._stream_state()).get("state", {})
        by_group: dict[str, list[GroupStatus]] = {}
        for g in await self._groups():  # a group's partitions are shown as the group
            by_group.setdefault(group_of(g.name)[0], []).append(g)
        return LogStatus(
            entries=state.get("messages", 0),
            bytes=state.get("bytes", 0),
            first=state.get("first_seq", 0),
            last=state.get("last_seq", 0),
            last_at=when(state.get("last_ts")) if state.get("messages") else None,
            # a table has its commands' and its answers' subjects (counted as one)
            tables=len((await self.sizes())[1]),
            groups=[combined(name, parts) for name, parts in sorted(by_group.items())],
        )
