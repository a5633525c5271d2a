"""The read model's writer: what it holds for a table, from its folded log: every view (from
the engine's view function, the one place views are made), its lobby listing, and the recent
answers per viewer. The projection writes it live; the ops CLI rebuilds it; both through the log
and the read model."""

from __future__ import annotations

import msgspec

from gcbc.eventlog.port import EventLog
from gcbc.readmodel.port import (
    ROSTER,
    Put,
    Replacement,
    ViewWriter,
    encode_answers,
    viewer_key,
)
from gcbc.rules import view
from gcbc.rules.views import LogMemo, views
from services.common.folded import FoldedTable
from services.common.settings import CHAT_LIMIT, LOG_LIMIT

_encode = msgspec.json.Encoder().encode


def viewers_of(t: FoldedTable) -> list[int | None]:
    """Whose views a table has: the public (None) and each seated seat."""
    return [None, *(i for i, x in enumerate(t.state.seats) if x)]


def render_views(
    t: FoldedTable,
    log_limit: int | None = LOG_LIMIT,
    chat_limit: int | None = CHAT_LIMIT,
    memo: LogMemo | None = None,
    seats: list[int | None] | None = None,
) -> dict[str, bytes]:
    """Every view of a table: the public one and each seated seat's (``memo``: see ``views``,
    kept by the caller for this table; ``seats``: only these viewers')."""
    s = t.state
    if seats is None:
        seats = viewers_of(t)
    made = views(
        s,
        seats,
        log_limit=log_limit,
        wait_started=t.wait_started or None,
        chat_limit=chat_limit,
        memo=memo,
        players=t.players,
    )
    return {viewer_key(seat): _encode(v) for seat, v in zip(seats, made, strict=True)}


def render_view(
    t: FoldedTable,
    seat: int | None,
    log_limit: int | None = LOG_LIMIT,
    chat_limit: int | None = CHAT_LIMIT,
) -> bytes:
    """One viewer's view (``seat``; None: the public one), as the read model holds it."""
    v = view(
        t.state,
        seat,
        log_limit=log_limit,
        wait_started=t.wait_started or None,
        chat_limit=chat_limit,
        players=t.players,
    )
    return _encode(v)


def lobby_summary(t: FoldedTable) -> bytes | None:
    """A table waiting for players, as GET /tables lists it; None once it started."""
    s = t.state
    if s.step != "lobby" or not s.table_id:
        return None
    return _encode(
        {
            "table_id": s.table_id,
            "seats": len(s.seats),
            # reserved seats are spoken for: their invitees, or a rematch's players, take them
            "taken": sum(1 for i, x in enumerate(s.seats) if x is not None or i in s.reserved),
            "options": s.options,
            "deadlines": s.deadlines,
            "seeded": s.requested_seed is not None or s.deal is not None,
            "bots": s.house_bots,
            "reserved": len(s.reserved),
            "rated": s.rated,
        }
    )


def table_status(t: FoldedTable) -> str:
    """lobby (waiting for players), playing, or finished (a game over, or a lobby closed)."""
    step = t.state.step
    return "lobby" if step == "lobby" else "finished" if step == "finished" else "playing"


def seated_record(t: FoldedTable) -> bytes | None:
    """A finished table's players and their seats at the end (player id -> seat), what the read
    model keeps of it once its views expire; None for a table not finished."""
    if table_status(t) != "finished":
        return None
    return _encode(_seats_of(t))


def shown_status(t: FoldedTable) -> str:
    """The table's status as its views say it: waiting, playing or finished."""
    status = table_status(t)
    return "waiting" if status == "lobby" else status


def roster_record(t: FoldedTable) -> bytes:
    """The table's status, as its views say it, and its players' seats (player id -> seat),
    kept beside its views (``ROSTER``)."""
    return _encode({"status": shown_status(t), "players": _seats_of(t)})


def _seats_of(t: FoldedTable) -> dict[str, int]:
    seats: dict[str, int] = {}
    for seat, player in sorted(t.players.items()):
        seats.setdefault(player, seat)  # (its first seat, as a public view is read)
    return seats


def answers(t: FoldedTable, viewers: list[str] | None = None) -> dict[str, bytes]:
    """Each viewer's recent answers (what a command's sender reads back with its view);
    ``viewers``: only theirs."""
    recent = t.recent
    if viewers is None:
        return {viewer: encode_answers(kept) for viewer, kept in recent.items()}
    return {viewer: encode_answers(recent[viewer]) for viewer in viewers}


def replacement_of(
    t: FoldedTable, views: dict[str, bytes], answered: dict[str, bytes] | None = None
) -> Replacement:
    """The table's views (rendered) with its listing, answers (``answered``: these; None:
    every viewer's) and status, at its position."""
    if answered is None:
        answered = answers(t)
    views = {**views, ROSTER: roster_record(t)}
    return Replacement(
        t.table_id, views, t.seq, lobby_summary(t), answered, table_status(t), seated_record(t)
    )


async def write(
    model: ViewWriter,
    t: FoldedTable,
    views: dict[str, bytes],
    changed: list[str] | None = None,
    answered: dict[str, bytes] | None = None,
) -> bool:
    """The table's views, listing and answers (``answered``: these; None: every viewer's) at its
    position: one atomic step."""
    item = replacement_of(t, views, answered)
    return (await model.put_many([Put(item, changed)]))[0]


def replacement(
    t: FoldedTable, log_limit: int | None = LOG_LIMIT, chat_limit: int | None = CHAT_LIMIT
) -> Replacement:
    """Everything the read model holds for the table, rendered from its folded log."""
    return replacement_of(t, render_views(t, log_limit, chat_limit))


def renders(t: FoldedTable) -> bool:
    """Whether the projection writes views for the table as folded (an opened table)."""
    return bool(t.seq and t.state.table_id)


async def fold(events: EventLog, table_id: str, t: FoldedTable | None = None) -> FoldedTable:
    """The table folded from its log (``t``: go on from there)."""
    t = t or FoldedTable(table_id)
    for stored in await events.read(table_id, after=t.seq):
        t.apply(stored)
    return t


async def rebuild(
    events: EventLog,
    model: ViewWriter,
    table_id: str,
    log_limit: int | None = LOG_LIMIT,
    chat_limit: int | None = CHAT_LIMIT,
    t: FoldedTable | None = None,
) -> bool:
    """Write a table's views again from its log (what the live projection would have written),
    in one atomic step: no moment without a view. If the live projection wrote a newer position
    meanwhile, the log is read on and the newer state written; a read model ahead of the log
    (a stream that was reset) is overwritten. False: not a table (nothing written)."""
    t = await fold(events, table_id, t)
    for _ in range(20):
        if not renders(t):
            return False
        item = replacement(t, log_limit, chat_limit)
        if (await model.replace([item]))[0]:
            return True
        seq = t.seq
        t = await fold(events, table_id, t)
        if t.seq == seq:  # the read model is ahead of the log itself
            return (await model.replace([item], force=True))[0]
    raise RuntimeError(f"table {table_id}: the log kept moving while it was rebuilt")
