"""``gcbc-ops inspect``, ``state``, ``replay`` and ``tail``: a table's timeline, the state or a
view at any point of it, a game as one seat saw it, and the log followed live."""

from __future__ import annotations

import asyncio
import signal
import sys
from collections import OrderedDict
from typing import Any

import click
import msgspec

from gcbc.eventlog.port import FullLog, Stored
from gcbc.eventlog.records import entry_or_none
from gcbc.rules.state import FINISHED
from gcbc.rules.views import version_of
from gcbc_contract.ids import checked
from services.common import view_writer
from services.common.folded import FoldedTable
from services.ops import show, travel
from services.ops.command import (
    Ops,
    cli,
    json_option,
    run,
    seated,
    settings_views,
    table_entries,
    viewer,
)
from services.ops.show import err, printable


@cli.command()
@click.argument("table")
@click.option("--from", "start", type=int, help="from this position (#seq).")
@click.option("--to", "end", type=int, help="up to this position.")
@json_option
@run
async def inspect(ops: Ops, table: str, start: int | None, end: int | None, as_json: bool) -> int:
    """A table's timeline: every command, answer and event (secrets included)."""
    stored = await table_entries(ops, table)
    version = 0
    for s in stored:
        entry = entry_or_none(s)
        lines, after = show.entry_lines(s.seq, entry, version)
        shown = (start is None or s.seq >= start) and (end is None or s.seq <= end)
        if shown:
            if as_json:
                show.emit(show.entry_json(s.seq, s.at, table, entry))
            else:
                click.echo("\n".join(lines))
        version = after
    return 0


# --- state (time travel) ------------------------------------------------------------------------
@cli.command()
@click.argument("table")
@click.option("--at", "at", type=int, metavar="SEQ", help="as of this position in the log.")
@click.option("--version", "version", type=int, metavar="V", help="as of this version.")
@click.option("--as", "seat", type=int, metavar="SEAT", help="the view this seat had then.")
@click.option("--public", is_flag=True, help="the view a spectator had then.")
@json_option
@run
async def state(
    ops: Ops,
    table: str,
    at: int | None,
    version: int | None,
    seat: int | None,
    public: bool,
    as_json: bool,
) -> int:
    """Time travel: the engine state (every secret), or a viewer's view, at a point of the log.

    --version counts events: the engine's with no viewer, else the viewer's own view version
    (the view it was sent with that version)."""
    if at is not None and version is not None:
        raise click.UsageError("--at or --version, not both")
    stored = await table_entries(ops, table)
    seat = seated(stored, table, None if public else seat)
    log_limit, chat_limit = settings_views(ops)
    viewer = seat is not None or public
    if viewer:
        who = None if public else seat
        if version is not None:
            position, data = travel.view_at_version(
                stored, table, who, version, log_limit, chat_limit
            )
        else:
            t = travel.folded(stored, table, at)
            position = t.seq
            data = view_writer.render_view(t, who, log_limit, chat_limit)
        if as_json:
            sys.stdout.write(data.decode() + "\n")
        else:
            err.print(f"position #{position}")
            show.pretty(msgspec.json.decode(data))
        return 0
    if version is not None:
        s = travel.engine_state_at_version(stored, version)
        position = None
    else:
        t = travel.folded(stored, table, at)
        s, position = t.state, t.seq
    if as_json:
        show.emit({"position": position, "state": show.engine_state(s)})
    else:
        if position is not None:
            err.print(f"position #{position}, version {s.version}")
        show.pretty(show.engine_state(s))
    return 0


# --- replay -------------------------------------------------------------------------------------
@cli.command()
@click.argument("table")
@click.option("--as", "seat", type=int, metavar="SEAT", help="as this seat saw it.")
@click.option("--public", is_flag=True, help="as a spectator saw it.")
@click.option("--step", is_flag=True, help="wait for Enter after each change (q: stop).")
@json_option
@run
async def replay(ops: Ops, table: str, seat: int | None, public: bool, step: bool, as_json: bool):
    """Walk the game as one seat (or a spectator) saw it, change by change: only what it was
    shown, so safe to show that player."""
    who = viewer(seat, public)
    stored = await table_entries(ops, table)
    who = seated(stored, table, who)
    for change in travel.replay(stored, table, who):
        if as_json:
            show.emit(change)
        else:
            for e in change.log:
                rest = {k: v for k, v in e.items() if k not in ("type", "v")}
                fields = " ".join(f"{k}={v}" for k, v in rest.items())
                click.echo(printable(f"v{e.get('v', '?'):<5} {e.get('type', '?')} {fields}"))
            for c in change.chat:
                click.echo(printable(f"       chat seat {c.get('seat')}: {c.get('text')}"))
        if step and not as_json:
            err.print(f"[dim]#{change.position} version {change.version} — Enter: next, q: stop[/]")
            answer = sys.stdin.readline()
            if not answer or answer.strip().lower() == "q":
                break
    return 0


@cli.command()
@click.argument("table", required=False)
@click.option("--public", is_flag=True, help="only what spectators see.")
@click.option("--count", type=int, help="stop after this many entries.")
@json_option
@run
async def tail(ops: Ops, table: str | None, public: bool, count: int | None, as_json: bool) -> int:
    """Follow new entries live (Ctrl-C stops)."""
    log = await ops.log()
    if table is not None and await log.last(checked(table)) is None:
        raise travel.NotFound(f"no table {table} in the log")  # a typo: said, not waited on
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    queue: asyncio.Queue[Stored] = asyncio.Queue()

    async def handle(stored: Stored) -> None:
        queue.put_nowait(stored)

    spectator = Spectator(log, as_json) if public else None
    subscription = await log.follow(handle, table=table)
    err.print(
        "[dim]following" + (f" table {table}" if table else " every table") + " (Ctrl-C stops)[/]"
    )
    try:
        seen = 0
        while not stop.is_set() and (count is None or seen < count):
            s = await _next(queue, stop)
            if s is None:
                break
            seen += 1
            if spectator is not None:
                await spectator.show(s)
                continue
            _show_entry(s, as_json)
    finally:
        await subscription.close()
    return 0


async def _next(queue: asyncio.Queue[Stored], stop: asyncio.Event) -> Stored | None:
    """The next entry followed, or None once ``stop`` is set."""
    getter = asyncio.ensure_future(queue.get())
    stopper = asyncio.ensure_future(stop.wait())
    await asyncio.wait({getter, stopper}, return_when=asyncio.FIRST_COMPLETED)
    stopper.cancel()
    if not getter.done():
        getter.cancel()
        return None
    return getter.result()


def _show_entry(s: Stored, as_json: bool) -> None:
    entry = entry_or_none(s)
    if as_json:
        show.emit(show.entry_json(s.seq, s.at, s.table, entry))
    else:
        lines, _ = show.entry_lines(s.seq, entry, 0)
        click.echo("\n".join(f"{s.table} {line}" for line in lines), nl=True)
    sys.stdout.flush()


class Spectator:
    """What spectators see of the entries followed: each table folded from the log once, then
    its public log's and chat's new lines as its entries come. Only the ``KEEP`` tables last
    followed stay folded, and a finished one does not: an entry of a table not kept folds it
    again from its log (a tail that runs for days must not hold every table it has seen)."""

    KEEP = 256

    def __init__(self, log: FullLog, as_json: bool) -> None:
        self.log, self.as_json = log, as_json
        # table -> (it, its public version, its chat's length), the last followed last
        self.folded: OrderedDict[str, tuple[FoldedTable, int, int]] = OrderedDict()

    async def show(self, s: Stored) -> None:
        kept = self.folded.pop(s.table, None)
        t, version, chat = kept or await self._fold(s)
        if s.seq > t.seq:
            version, chat = self._apply(t, s, chat) or (version, chat)
        if t.state.step != FINISHED:
            self.folded[s.table] = (t, version, chat)
            if len(self.folded) > self.KEEP:
                self.folded.popitem(last=False)

    def _apply(self, t: FoldedTable, s: Stored, chat: int) -> tuple[int, int] | None:
        """Fold ``s`` into ``t`` and show what spectators see of it: (the public version, the
        chat's length) after it, or None while it is not settled."""
        before, prior = t.state.version, version_of(t.state, None)
        t.apply(s)
        if not t.settled:
            return None
        new_events, new_chat = t.state.version - before, len(t.state.chat) - chat
        v = msgspec.json.decode(view_writer.render_view(t, None, new_events, new_chat))
        # the public log's entries of these events: numbered past its version before them (its
        # last entries may be older ones, when these events show none)
        for e in (x for x in v["log"] if x["v"] > prior):
            self._line(s, {"event": e}, _event_text(s.table, e))
        for c in v["chat"] if len(t.state.chat) > chat else []:
            self._line(s, {"chat": c}, f"{s.table} chat seat {c.get('seat')}: {c.get('text')}")
        return v["version"], len(t.state.chat)

    async def _fold(self, s: Stored) -> tuple[FoldedTable, int, int]:
        """The table as it was before ``s``."""
        t = FoldedTable(s.table)
        for x in await self.log.read(s.table):
            if x.seq >= s.seq:
                break
            t.apply(x)
        return t, -1, len(t.state.chat)

    def _line(self, s: Stored, item: dict[str, Any], text: str) -> None:
        if self.as_json:
            show.emit({"table": s.table, "seq": s.seq, **item})
        else:
            click.echo(printable(text))


def _event_text(table: str, e: dict[str, Any]) -> str:
    rest = " ".join(f"{k}={x}" for k, x in e.items() if k not in ("type", "v"))
    return f"{table} v{e.get('v')} {e.get('type')} {rest}"
