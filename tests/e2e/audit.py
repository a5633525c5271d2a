"""The leak audit of a view a client received: against an independent oracle replayed from the
table's events (read from the log with the operator's credentials), the view shows a seat only
what it learned (RULES §11; DESIGN property 3)."""

from __future__ import annotations

import asyncio
from collections import defaultdict

import msgspec

from gcbc.eventlog.jetstream import JetStreamEventLog
from gcbc_contract.entries import OutcomeEntry, decode_entry
from gcbc_contract.views import View
from tests.property.knowledge_oracle import Oracle
from tests.property.test_no_leaks import (
    PRIVATE_EVENTS,
    check_cards,
    check_entry,
    check_equipment,
)

_view = msgspec.json.Decoder(View)


def log_events(nats_url: str, table_id: str) -> list:
    """Every event of the table, as recorded (operators only: it holds every secret)."""

    async def read() -> list:
        log = await JetStreamEventLog.connect(nats_url)
        try:
            stored = await log.read(table_id)
        finally:
            await log.close()
        events: list = []
        for s in stored:
            entry = decode_entry(s.data)
            if isinstance(entry, OutcomeEntry):
                events += entry.events
        return events

    return asyncio.run(read())


def check_response(events: list, seat: int | None, body: bytes) -> None:
    """A view a seat received, against the oracle replayed to that view's version. Before the
    end a view counts only the events its seat sees (private ones of others are not there)."""
    v = _view.decode(body)
    entries = defaultdict(list)
    for entry in v.log:
        entries[entry["v"]].append(entry)
    o = Oracle()
    if v.status == "finished":
        for e in events:
            o.apply(e)
    else:
        seen = 0
        for e in events:
            if seen == v.version:
                break
            o.apply(e)
            private = PRIVATE_EVENTS.get(type(e))
            if private is not None and getattr(e, private) != seat:
                continue
            seen += 1
            for entry in entries.get(seen, ()):
                check_entry(o, seat, e, entry)
        assert seen == v.version
    if o.dealt:
        check_cards(o, seat, v)
        check_equipment(o, seat, v)


def seat_of(body: bytes) -> int | None:
    """The seat a view was made for (None: the public view)."""
    you = _view.decode(body).you
    return you.seat if you is not None else None
