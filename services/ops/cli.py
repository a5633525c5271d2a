"""``gcbc-ops`` (or ``python -m services.ops``): the operator's tools over the event log and the
read model. They show secrets: operators only (NATS's and Redis's admin users).

Every read command takes ``--json`` (JSON lines, or one JSON object); each says clearly, and
exits 2 within seconds, when NATS or Redis cannot be reached. Exit 1: a check found something
(``verify``, ``diff``, a table that ``rebuild`` could not write).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import signal
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

import click
import msgspec

from gcbc.contract.ids import InvalidTableId
from gcbc.eventlog.port import FullLog, LogUnavailable, Stored
from gcbc.eventlog.records import entry_or_none
from gcbc.readmodel.port import ModelUnavailable, ReadModel, Replacement, TableSnapshot
from services.common import views
from services.common.folded import FoldedTable
from services.common.settings import Settings
from services.ops import jobs, show, transfer, travel
from services.ops.scan import Pass
from services.ops.show import err, printable

# --- connections (the composition root, ``main``, says which adapters) -------------------------


class Ops:
    """What the commands work with: settings, and how to reach the log and the read model."""

    def __init__(
        self,
        settings: Settings,
        connect_log: Callable[[], Awaitable[FullLog]],
        connect_model: Callable[[], Awaitable[ReadModel]],
        workers: int,
    ) -> None:
        self.settings = settings
        self._connect_log, self._connect_model = connect_log, connect_model
        self.workers = workers
        self._log: FullLog | None = None
        self._model: ReadModel | None = None

    async def log(self) -> FullLog:
        if self._log is None:
            self._log = await self._connect_log()
        return self._log

    async def model(self) -> ReadModel:
        if self._model is None:
            model = await self._connect_model()
            try:
                await model.ping()
            except ModelUnavailable:
                await model.close()
                raise
            self._model = model
        return self._model

    async def close(self) -> None:
        if self._log is not None:
            await self._log.close()
        if self._model is not None:
            await self._model.close()


class Found(Exception):
    """A check found differences: exit 1 (after its report)."""


def run(fn: Callable[..., Awaitable[Any]]) -> Callable[..., Any]:
    """A command as a coroutine: connections closed at the end; NATS or Redis away, a bad id,
    a bad file: one line on stderr and exit 2, never a traceback."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        ops: Ops = click.get_current_context().obj

        async def go() -> Any:
            try:
                return await fn(ops, *args, **kwargs)
            finally:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(ops.close(), 3)

        try:
            code = asyncio.run(go())
        except LogUnavailable as e:
            err.print(f"[red]error:[/] the event log (NATS) cannot be reached: {printable(str(e))}")
            sys.exit(2)
        except ModelUnavailable as e:
            err.print(
                f"[red]error:[/] the read model (Redis) cannot be reached: {printable(str(e))}"
            )
            sys.exit(2)
        except (InvalidTableId, transfer.ImportError_, travel.NotFound) as e:
            err.print(f"[red]error:[/] {printable(str(e))}")
            sys.exit(2)
        except Found:
            sys.exit(1)
        except KeyboardInterrupt:
            sys.exit(130)
        sys.exit(code or 0)

    return wrapper


json_option = click.option("--json", "as_json", is_flag=True, help="JSON instead of text.")


@click.group(help=__doc__, context_settings={"help_option_names": ["-h", "--help"]})
def cli() -> None:
    pass


async def _stored(ops: Ops, table: str) -> list[Stored]:
    stored = await (await ops.log()).read(table)
    if not stored:
        raise travel.NotFound(f"no table {table} in the log")
    return stored


def _viewer(seat: int | None, public: bool) -> int | None:
    if seat is None and not public:
        raise click.UsageError("say whose view: --as SEAT or --public")
    return None if public else seat


def _settings_views(ops: Ops) -> tuple[int | None, int | None]:
    return ops.settings.log_limit, ops.settings.chat_limit


# --- tables -------------------------------------------------------------------------------------
@cli.command()
@click.option("--status", type=click.Choice(["lobby", "playing", "finished"]))
@click.option("--idle", metavar="DURATION", help="no entry for this long (10m, 2h, 30s).")
@click.option("--stuck", is_flag=True, help="a command or a deadline the rules left behind.")
@click.option(
    "--option",
    "options",
    multiple=True,
    metavar="NAME",
    help="zombies, bombers_traitors, extra_equipment, classic, fourth, wounds=card|token.",
)
@json_option
@run
async def tables(
    ops: Ops,
    status: str | None,
    idle: str | None,
    stuck: bool,
    options: tuple[str, ...],
    as_json: bool,
) -> int:
    """Find tables (every table folded, in one pass over the log)."""
    now = time.time()
    idle_for = show.duration(idle) if idle else None
    found: list[jobs.Summary] = []
    log = await ops.log()
    scan = await Pass(log, jobs.Summarize(now, ops.settings.lobby_ttl), workers=ops.workers).start()
    with show.Meter("tables", scan.total_entries) as meter:
        async for s in scan.results():
            meter.update(scan.entries)
            if status and s.status != status:
                continue
            if idle_for is not None and now - s.last_at < idle_for:
                continue
            if stuck and not s.stuck:
                continue
            if not all(_has_option(s.options, o) for o in options):
                continue
            found.append(s)
    found.sort(key=lambda s: -s.last_at)
    if as_json:
        for s in found:
            show.emit(s)
        return 0
    for s in found:
        opts = ",".join(_short_options(s.options))
        line = (
            f"{s.table}  {s.status:<8} {s.taken}/{s.seats} seats  {opts:<28} {s.entries:>6} entries"
            f"  idle {show.ago(now - s.last_at):>4}"
        )
        if s.turn is not None:
            line += f"  turn {s.turn}"
        if s.seeded:
            line += "  seeded"
        if s.stuck:
            line += f"  STUCK: {s.stuck}"
        click.echo(line)
    err.print(f"{len(found)} table(s) of {scan.total_tables}")
    return 0


def _short_options(o: dict[str, Any]) -> list[str]:
    out = [o.get("edition", "fourth")]
    out += [k for k in ("zombies", "bombers_traitors", "extra_equipment") if o.get(k)]
    out.append(f"wounds={o.get('wounds')}")
    return out


def _has_option(o: dict[str, Any], name: str) -> bool:
    if name in ("classic", "fourth"):
        return o.get("edition", "fourth") == name
    if name.startswith("wounds="):
        return o.get("wounds") == name.split("=", 1)[1]
    if name in ("zombies", "bombers_traitors", "extra_equipment"):
        return bool(o.get(name))
    raise click.BadParameter(f"unknown option {name!r}", param_hint="--option")


# --- inspect ------------------------------------------------------------------------------------
@cli.command()
@click.argument("table")
@click.option("--from", "start", type=int, help="from this position (#seq).")
@click.option("--to", "end", type=int, help="up to this position.")
@json_option
@run
async def inspect(ops: Ops, table: str, start: int | None, end: int | None, as_json: bool) -> int:
    """A table's timeline: every command, answer and event (secrets included)."""
    stored = await _stored(ops, table)
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
    stored = await _stored(ops, table)
    log_limit, chat_limit = _settings_views(ops)
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
            data = views.render_view(t, who, log_limit, chat_limit)
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
    who = _viewer(seat, public)
    stored = await _stored(ops, table)
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


# --- verify -------------------------------------------------------------------------------------
@cli.command()
@click.argument("table", required=False)
@click.option("--all", "every", is_flag=True, help="every table of the log.")
@json_option
@run
async def verify(ops: Ops, table: str | None, every: bool, as_json: bool) -> int:
    """Decide every recorded command again on the folded state and compare with the recorded
    answer: each divergence (table, entry, expected, got); exit 1 if any. The upgrade check: run
    it before deploying a new engine over old logs."""
    only = _one_or_all(table, every)
    log = await ops.log()
    scan = await Pass(log, jobs.Verify(), only, workers=ops.workers).start()
    if table and not scan.total_tables:
        raise travel.NotFound(f"no table {table} in the log")
    commands = diverged = checked = 0
    with show.Meter("verify", scan.total_entries) as meter:
        async for result in scan.results():
            meter.update(scan.entries)
            checked += 1
            commands += result.commands
            for d in result.divergences:
                diverged += 1
                if as_json:
                    show.emit(d)
                else:
                    click.echo(
                        printable(
                            f"{d.table} #{d.seq} {d.command}: expected {show.to_json(d.expected).decode()}"
                            f" got {show.to_json(d.got).decode()}"
                        )
                    )
    summary = {"tables": checked, "commands": commands, "divergences": diverged}
    if as_json:
        show.emit({"summary": summary})
    else:
        err.print(f"{checked} table(s), {commands} command(s) verified, {diverged} divergence(s)")
    if diverged:
        raise Found
    return 0


def _one_or_all(table: str | None, every: bool) -> set[str] | None:
    if bool(table) == every:
        raise click.UsageError("name a table or say --all")
    return None if every else {table}  # type: ignore[arg-type]


# --- diff ---------------------------------------------------------------------------------------
class Difference(msgspec.Struct, frozen=True):
    table: str
    key: str  # a field (a view: public, seat:N; answers:…), position, listing, status, table
    live: str  # what the read model holds (shortened)
    rebuilt: str  # what the log gives


def _short(x: bytes | str | None, width: int = 80) -> str:
    if x is None:
        return "(none)"
    text = x.decode("utf-8", "replace") if isinstance(x, bytes) else str(x)
    return printable(text if len(text) <= width else text[: width - 1] + "…")


def compare(item: Replacement, live: TableSnapshot | None) -> list[Difference]:
    """Key by key: what the read model holds against what the log gives."""
    t = item.table
    if live is None:
        return [Difference(t, "table", "(no views)", f"position {item.position}")]
    out = []
    if live.position != item.position:
        out.append(Difference(t, "position", str(live.position), str(item.position)))
    wanted = {**item.views, **{f"answers:{k}": v for k, v in (item.answers or {}).items()}}
    for key in sorted(set(wanted) | set(live.fields)):
        a, b = live.fields.get(key), wanted.get(key)
        if a != b:
            out.append(Difference(t, key, _short(a), _short(b)))
    if live.listing != item.listing:
        out.append(Difference(t, "listing", _short(live.listing), _short(item.listing)))
    if item.status is not None and live.status != item.status:
        out.append(Difference(t, "status", _short(live.status), _short(item.status)))
    return out


async def settled_compare(
    log: FullLog, model: ReadModel, item: Replacement, live: TableSnapshot | None, ops: Ops
) -> list[Difference]:
    """Compare at the same position: a table that moved since the pass is folded again, and a
    projection a little behind is given a moment."""
    for _ in range(10):
        if live is not None and live.position != item.position:
            t = await views.fold(log, item.table)
            if views.renders(t):
                item = views.replacement(t, *_settings_views(ops))
            if live.position < item.position:
                await asyncio.sleep(0.2)  # the projection has not written it yet
            (live,) = await model.snapshots([item.table])
            continue
        break
    return compare(item, live)


@cli.command()
@click.argument("table", required=False)
@click.option(
    "--all", "every", is_flag=True, help="every table (and views of tables not in the log)."
)
@json_option
@run
async def diff(ops: Ops, table: str | None, every: bool, as_json: bool) -> int:
    """Rebuild into memory and compare with the live read model, key by key, touching nothing:
    each difference; exit 1 on any."""
    only = _one_or_all(table, every)
    log = await ops.log()
    model = await ops.model()
    scan = await Pass(log, jobs.Render(*_settings_views(ops)), only, workers=ops.workers).start()
    if table and not scan.total_tables:
        raise travel.NotFound(f"no table {table} in the log")
    found: list[Difference] = []
    compared = 0
    batch: list[Replacement] = []

    async def flush() -> None:
        nonlocal compared
        lives = await model.snapshots([x.table for x in batch])
        for item, live in zip(batch, lives, strict=True):
            compared += 1
            if live is not None and live.position == item.position:
                found.extend(compare(item, live))
            else:
                found.extend(await settled_compare(log, model, item, live, ops))
        batch.clear()

    with show.Meter("diff", scan.total_entries) as meter:
        async for item in scan.results():
            meter.update(scan.entries)
            batch.append(item)
            if len(batch) >= 200:
                await flush()
        await flush()
    if every:
        in_log = set(scan.sizes)
        async for t in model.tables():
            if t not in in_log:
                found.append(Difference(t, "table", "views", "(not in the log)"))
    for d in found:
        if as_json:
            show.emit(d)
        else:
            click.echo(f"{d.table} {d.key}: live {d.live} | log {d.rebuilt}")
    if as_json:
        show.emit({"summary": {"tables": compared, "differences": len(found)}})
    else:
        err.print(f"{compared} table(s) compared, {len(found)} difference(s)")
    if found:
        raise Found
    return 0


# --- rebuild ------------------------------------------------------------------------------------
@cli.command()
@click.argument("table", required=False)
@click.option("--all", "every", is_flag=True, help="every table of the log.")
@click.option("--dry-run", is_flag=True, help="say what would change; write nothing.")
@click.option("--yes", is_flag=True, help="do not ask before --all.")
@json_option
@run
async def rebuild(
    ops: Ops, table: str | None, every: bool, dry_run: bool, yes: bool, as_json: bool
) -> int:
    """Write tables' views again from the log, each in one atomic step (never a moment without a
    view; never over a newer live write). Goes on past a table that fails and reports it."""
    only = _one_or_all(table, every)
    log = await ops.log()
    model = await ops.model()
    scan = await Pass(log, jobs.Render(*_settings_views(ops)), only, workers=ops.workers).start()
    if table and not scan.total_tables:
        raise travel.NotFound(f"no table {table} in the log")
    if every and not dry_run and not yes:
        if not sys.stdin.isatty():
            raise click.UsageError("rebuild --all asks first: answer on a terminal, or add --yes")
        question = (
            f"Rewrite the views of {scan.total_tables:,} tables ({scan.total_entries:,} log"
            " entries)?"
        )
        if not click.confirm(question):
            err.print("nothing written")
            return 1
    written = kept = changed = 0
    failed: list[tuple[str, str]] = []
    late: list[str] = []  # the live projection wrote newer: caught up one by one
    batch: list[Replacement] = []
    started = time.monotonic()

    async def flush() -> None:
        nonlocal written, changed
        if dry_run:
            lives = await model.snapshots([x.table for x in batch])
            changed += sum(1 for x, live in zip(batch, lives, strict=True) if compare(x, live))
        else:
            for item, ok in zip(batch, await model.replace(batch), strict=True):
                if ok:
                    written += 1
                else:
                    late.append(item.table)
        batch.clear()

    with show.Meter("rebuild", scan.total_entries) as meter:
        async for item in scan.results():
            if isinstance(item, jobs.Failed):
                failed.append((item.table, item.error))
                continue
            batch.append(item)
            if len(batch) >= 500:
                await flush()
            meter.update(
                scan.entries,
                f", {scan.tables / max(time.monotonic() - started, 1e-6):,.0f} tables/s",
            )
        await flush()
        for t in late:
            try:
                if await views.rebuild(log, model, t, *_settings_views(ops)):
                    written += 1
                else:
                    kept += 1
            except Exception as e:  # noqa: BLE001  (reported at the end; the rest goes on)
                failed.append((t, f"{type(e).__name__}: {e}"))
    elapsed = max(time.monotonic() - started, 1e-6)
    figures = {
        "tables": scan.total_tables,
        "entries": scan.entries,
        "written": written,
        "failed": len(failed),
        "seconds": round(elapsed, 3),
        "entries_per_second": round(scan.entries / elapsed),
        "tables_per_second": round(scan.tables / elapsed, 1),
    }
    if dry_run:
        figures = {**figures, "written": 0, "would_change": changed}
    for t, why in failed:
        if as_json:
            show.emit({"failed": t, "error": why})
        else:
            err.print(f"[red]failed:[/] {t}: {printable(why)}")
    if as_json:
        show.emit({"summary": figures})
    elif dry_run:
        click.echo(
            f"dry run: {changed} of {scan.total_tables} table(s) would change; nothing written"
        )
    else:
        click.echo(
            f"rebuilt {written} table(s) of {scan.total_tables} ({scan.entries:,} entries) in"
            f" {elapsed:.1f} s: {figures['entries_per_second']:,} entries/s,"
            f" {figures['tables_per_second']:,} tables/s"
            + (f"; {len(failed)} failed" if failed else "")
        )
    if failed:
        raise Found
    return 0


# --- export / import ----------------------------------------------------------------------------
@cli.command("export")
@click.argument("table")
@click.option("--scenario", is_flag=True, help="the table's deal as a POST /tables body.")
@run
async def export(ops: Ops, table: str, scenario: bool) -> int:
    """A table's raw entries as JSON lines (``> t.jsonl``), portable between deployments."""
    stored = await _stored(ops, table)
    out = sys.stdout.buffer
    if scenario:
        out.write(show.to_json(transfer.scenario(stored, table)) + b"\n")
    else:
        for line in transfer.export_lines(table, stored):
            out.write(line + b"\n")
    out.flush()
    return 0


@cli.command("import")
@click.argument("file", type=click.File("rb"))
@click.option("--as", "as_id", metavar="NEW_ID", help="import under this table id.")
@json_option
@run
async def import_(ops: Ops, file: Any, as_id: str | None, as_json: bool) -> int:
    """Append an exported table's entries to this deployment's log (a new table)."""
    header, rows = transfer.read_lines(file)
    log = await ops.log()
    table, count = await transfer.import_rows(log, header, rows, as_id)
    if as_json:
        show.emit({"table": table, "entries": count})
    else:
        click.echo(f"imported {count} entries as table {table}")
    return 0


# --- tail ---------------------------------------------------------------------------------------
@cli.command()
@click.argument("table", required=False)
@click.option("--public", is_flag=True, help="only what spectators see.")
@click.option("--count", type=int, help="stop after this many entries.")
@json_option
@run
async def tail(ops: Ops, table: str | None, public: bool, count: int | None, as_json: bool) -> int:
    """Follow new entries live (Ctrl-C stops)."""
    log = await ops.log()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    seen = 0
    folded: dict[str, tuple[FoldedTable, int, int]] = {}  # public: table -> (it, version, chat)
    queue: asyncio.Queue[Stored] = asyncio.Queue()

    async def handle(stored: Stored) -> None:
        queue.put_nowait(stored)

    async def show_public(s: Stored) -> None:
        known = folded.get(s.table)
        if known is None:
            t = FoldedTable(s.table)
            for x in await log.read(s.table):
                if x.seq >= s.seq:
                    break
                t.apply(x)
            known = (t, -1, len(t.state.chat))
        t, version, chat = known
        if s.seq <= t.seq:
            return
        from gcbc.rules import view
        from gcbc.rules.knowledge import version_of

        before, prior = t.state.version, version_of(t.state, None)
        t.apply(s)
        if not t.settled:
            folded[s.table] = (t, version, chat)
            return
        v = msgspec.json.decode(
            msgspec.json.encode(
                view(
                    t.state,
                    None,
                    log_limit=t.state.version - before,
                    chat_limit=len(t.state.chat) - chat,
                )
            )
        )
        # the public log's entries of these events: numbered past its version before them (its
        # last entries may be older ones, when these events show none)
        for e in (x for x in v["log"] if x["v"] > prior):
            if as_json:
                show.emit({"table": s.table, "seq": s.seq, "event": e})
            else:
                rest = " ".join(f"{k}={x}" for k, x in e.items() if k not in ("type", "v"))
                click.echo(printable(f"{s.table} v{e.get('v')} {e.get('type')} {rest}"))
        for c in v["chat"] if len(t.state.chat) > chat else []:
            if as_json:
                show.emit({"table": s.table, "seq": s.seq, "chat": c})
            else:
                click.echo(printable(f"{s.table} chat seat {c.get('seat')}: {c.get('text')}"))
        folded[s.table] = (t, v["version"], len(t.state.chat))

    subscription = await log.follow(handle, table=table)
    err.print(
        "[dim]following" + (f" table {table}" if table else " every table") + " (Ctrl-C stops)[/]"
    )
    try:
        while not stop.is_set() and (count is None or seen < count):
            getter = asyncio.ensure_future(queue.get())
            stopper = asyncio.ensure_future(stop.wait())
            await asyncio.wait({getter, stopper}, return_when=asyncio.FIRST_COMPLETED)
            stopper.cancel()
            if not getter.done():
                getter.cancel()
                break
            s = getter.result()
            seen += 1
            if public:
                await show_public(s)
                continue
            entry = entry_or_none(s)
            if as_json:
                show.emit(show.entry_json(s.seq, s.at, s.table, entry))
            else:
                lines, _ = show.entry_lines(s.seq, entry, 0)
                click.echo("\n".join(f"{s.table} {line}" for line in lines), nl=True)
            sys.stdout.flush()
    finally:
        await subscription.close()
    return 0


# --- upgrade, status -----------------------------------------------------------------------------
@cli.command()
@run
async def upgrade(ops: Ops) -> int:
    """Bring the log up to this release (with the operator's user, the services stopped; start
    them again after): the stream's subjects for commands and answers apart (issue 13). The
    tables written before keep their one subject to their end."""
    changed = await (await ops.log()).upgrade()
    for line in changed:
        click.echo(line)
    if not changed:
        click.echo("the log is up to this release: nothing to do")
    return 0


@cli.command()
@json_option
@run
async def status(ops: Ops, as_json: bool) -> int:
    """The log (size, last position), each consumer's lag, the read model (epoch, position,
    tables per status)."""
    log = await ops.log()
    model = await ops.model()
    ls = await log.status()
    ms = await model.status()
    now = time.time()
    groups = [
        {
            "name": g.name,
            "pending": g.pending,
            "ack_pending": g.ack_pending,
            "redelivered": g.redelivered,
            "lag_entries": g.lag,
            "lag_seconds": round(g.lag_seconds(now), 3),
            "acked": g.acked,
        }
        for g in ls.groups
    ]
    out = {
        "log": {
            "entries": ls.entries,
            "bytes": ls.bytes,
            "first": ls.first,
            "last": ls.last,
            "last_at": ls.last_at,
            "tables": ls.tables,
        },
        "consumers": groups,
        "read_model": {
            "epoch": ms.epoch,
            "position": ms.position,
            "behind_log": max(0, ls.last - ms.position) if ms.position else None,
            "tables": ms.tables,
        },
    }
    if as_json:
        show.emit(out)
        return 0
    last = f", last {show.ago(now - ls.last_at)} ago" if ls.last_at else ""
    click.echo(
        f"log        {ls.entries:,} entries, {ls.bytes / 1e6:,.1f} MB, positions {ls.first}…{ls.last}"
        f"{last}, {ls.tables:,} tables"
    )
    for g in groups:
        click.echo(
            f"consumer   {g['name']:<14} lag {g['lag_entries']:,} entries, {g['lag_seconds']:.1f} s"
            f" (pending {g['pending']:,}, unacknowledged {g['ack_pending']:,},"
            f" redelivered {g['redelivered']:,})"
        )
    epoch = show.when(ms.epoch) + " UTC" if ms.epoch else "none (empty: the projection re-projects)"
    per = ", ".join(f"{k} {v:,}" for k, v in sorted(ms.tables.items())) or "none indexed"
    click.echo(f"read model epoch {epoch}, position {ms.position}, tables: {per}")
    return 0


# --- the composition root -----------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    """``gcbc-ops``: the real adapters (NATS, Redis), chosen here."""
    from gcbc.eventlog.jetstream import PREFIX, STREAM, JetStreamEventLog
    from gcbc.readmodel.redis import RedisReadModel

    # the adapters' warnings (nats-py's retries) are not for an operator's terminal: the command
    # says in one line what could not be reached
    logging.basicConfig(level=logging.ERROR, format="%(message)s")
    settings = Settings.from_env()
    stream = os.environ.get("GCBC_STREAM", STREAM)
    prefix = os.environ.get("GCBC_SUBJECT_PREFIX", PREFIX)
    workers = int(os.environ.get("GCBC_OPS_WORKERS", str(min(2, os.cpu_count() or 1))))

    async def connect_log() -> FullLog:
        return await JetStreamEventLog.connect(
            settings.nats_url, stream=stream, prefix=prefix, patient=False, create=False
        )

    async def connect_model() -> ReadModel:
        return RedisReadModel.connect(settings.redis_url, connections=8)

    ops = Ops(settings, connect_log, connect_model, workers)
    try:
        return cli.main(args=argv, prog_name="gcbc-ops", obj=ops, standalone_mode=True) or 0
    except SystemExit as e:
        return int(e.code or 0)


def entry_point() -> None:
    sys.exit(main())


if __name__ == "__main__":
    entry_point()
