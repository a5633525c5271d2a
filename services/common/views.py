"""What the read model holds for a table, from its folded log: every view (from the engine's view
function, the one place views are made), its lobby listing, and the recent answers per viewer.
The projection writes it live; the ops CLI rebuilds it; both through the log and the read model."""

from __future__ import annotations

import msgspec

from gcbc.eventlog.port import EventLog
from gcbc.readmodel.port import PUBLIC, ReadModel, answers_encoder, seat_key
from gcbc.rules import view
from services.common.folded import FoldedTable
from services.common.settings import CHAT_LIMIT, LOG_LIMIT

_encode = msgspec.json.Encoder().encode


def render_views(
    t: FoldedTable, log_limit: int | None = LOG_LIMIT, chat_limit: int | None = CHAT_LIMIT
) -> dict[str, bytes]:
    """Every view of a table: the public one and each seated seat's."""
    s = t.state
    started = t.wait_started or None
    views = {}
    for key, seat in [(PUBLIC, None), *((seat_key(i), i) for i, x in enumerate(s.seats) if x)]:
        v = view(s, seat, log_limit=log_limit, wait_started=started, chat_limit=chat_limit)
        views[key] = _encode(v)
    return views


def lobby_summary(t: FoldedTable) -> bytes | None:
    """A table waiting for players, as GET /tables lists it; None once it started."""
    s = t.state
    if s.step != "lobby" or not s.table_id:
        return None
    return _encode(
        {
            "table_id": s.table_id,
            "seats": len(s.seats),
            # a rematch's held seats are spoken for: its players come back to them
            "taken": sum(1 for i, x in enumerate(s.seats) if x is not None or i in s.held),
            "options": s.options,
            "deadlines": s.deadlines,
            "seeded": s.requested_seed is not None or s.deal is not None,
            "bots": s.house_bots,
        }
    )


def answers(t: FoldedTable) -> dict[str, bytes]:
    """Each viewer's recent answers (what a command's sender reads back with its view)."""
    return {viewer: answers_encoder.encode(list(kept)) for viewer, kept in t.recent.items()}


async def write(
    model: ReadModel,
    t: FoldedTable,
    views: dict[str, bytes],
    changed: list[str] | None = None,
) -> bool:
    """The table's views, listing and answers at its position: one atomic step."""
    return await model.put(t.table_id, views, t.seq, changed, lobby_summary(t), answers(t))


async def rebuild(
    events: EventLog,
    model: ReadModel,
    table_id: str,
    log_limit: int | None = LOG_LIMIT,
    chat_limit: int | None = CHAT_LIMIT,
) -> bool:
    """Wipe a table's views and write them again from the log (what the live projection would
    have written)."""
    t = FoldedTable(table_id)
    for stored in await events.read(table_id):
        t.apply(stored)
    await model.delete(table_id)
    if not t.seq:
        return False
    return await write(model, t, render_views(t, log_limit, chat_limit))
