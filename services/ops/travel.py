"""Time travel over one table's log: the engine state or a viewer's view at any point, and the
game as one viewer saw it, change by change (only what that viewer was shown: safe to show a
player). Every view comes from the engine's view function, as the projection renders it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec

from gcbc.eventlog.port import Stored
from gcbc.eventlog.records import entry_or_none
from gcbc.rules import fold, view
from gcbc.rules.state import State
from gcbc_contract.entries import OutcomeEntry
from services.common import view_writer
from services.common.folded import FoldedTable, states
from services.common.settings import CHAT_LIMIT, LOG_LIMIT


class NotFound(Exception):
    """No such point in the table's log."""


def folded(stored: list[Stored], table_id: str, at: int | None = None) -> FoldedTable:
    """The table folded up to position ``at`` (None: its end)."""
    t = FoldedTable(table_id)
    for s in stored:
        if at is not None and s.seq > at:
            break
        t.apply(s)
    return t


def engine_state_at_version(stored: list[Stored], version: int) -> State:
    """The engine state after exactly ``version`` events (event by event, not answer by
    answer)."""
    events: list[Any] = []
    for s in stored:
        entry = entry_or_none(s)
        if isinstance(entry, OutcomeEntry):
            events += entry.events
            if len(events) >= version:
                break
    if len(events) < version:
        raise NotFound(f"the table has {len(events)} events, not {version}")
    return fold(events[:version])


def view_at_version(
    stored: list[Stored],
    table_id: str,
    seat: int | None,
    version: int,
    log_limit: int | None = LOG_LIMIT,
    chat_limit: int | None = CHAT_LIMIT,
) -> tuple[int, bytes]:
    """(position, view) where the viewer's view first had ``version``: the view it was sent."""
    seen = None
    for seq, t in states(stored, table_id):
        v = view(t.state, seat, log=False).version
        if v == version:
            return seq, view_writer.render_view(t, seat, log_limit, chat_limit)
        if v > version:
            seen = v
            break
    raise NotFound(
        f"no view of {'the public' if seat is None else f'seat {seat}'} had version {version}"
        + (f" (it went to {seen})" if seen is not None else "")
    )


class Change(msgspec.Struct):
    """What one viewer was shown new at one position of the log."""

    position: int
    version: int
    log: list[dict[str, Any]]
    chat: list[dict[str, Any]]
    status: str


def replay(stored: list[Stored], table_id: str, seat: int | None) -> Iterator[Change]:
    """The game as ``seat`` (None: a spectator) saw it: each change of its view, with the log
    entries and chat messages it was shown (from its view, so never more than it knew)."""
    version = -1
    events = chat = 0
    for seq, t in states(stored, table_id):
        s = t.state
        if seat is not None and not (0 <= seat < len(s.seats) and s.seats[seat] is not None):
            events, chat = s.version, len(s.chat)  # not seated (yet, or any more): nothing shown
            continue
        new_events, new_chat = s.version - events, len(s.chat) - chat
        events, chat = s.version, len(s.chat)
        first = version < 0  # what it was shown first: everything it could see so far
        log_limit = None if first else max(new_events, 0)
        chat_limit = None if first else max(new_chat, 0)
        v = msgspec.json.decode(view_writer.render_view(t, seat, log_limit, chat_limit))
        if v["version"] == version:
            continue
        shown = [e for e in v["log"] if e.get("v", 0) > version]
        version = v["version"]
        yield Change(seq, version, shown, v["chat"] if new_chat or first else [], v["status"])
