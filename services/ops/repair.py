"""``gcbc-ops verify``, ``diff`` and ``rebuild``: the recorded answers decided again, the read
model compared with the log, and its views written again from the log."""

from __future__ import annotations

import asyncio
import functools
import sys
import time

import click
import msgspec

from gcbc.eventlog.port import FullLog
from gcbc.readmodel.port import ReadModel, Replacement, TableSnapshot
from services.common import view_writer
from services.ops import jobs, show, travel
from services.ops.command import Found, Ops, cli, json_option, one_or_all, run, settings_views
from services.ops.scan import Pass
from services.ops.show import err, printable


async def _pass(ops: Ops, kind: jobs.JobKind, table: str | None, every: bool) -> Pass:
    """The pass of ``kind`` over ``table`` or ``every`` table, started: NotFound (exit 2) for a
    table the log does not have."""
    only = one_or_all(table, every)
    scan = await Pass(await ops.log(), kind, only, workers=ops.workers).start()
    if table and not scan.total_tables:
        raise travel.NotFound(f"no table {table} in the log")
    return scan


@cli.command()
@click.argument("table", required=False)
@click.option("--all", "every", is_flag=True, help="every table of the log.")
@json_option
@run
async def verify(ops: Ops, table: str | None, every: bool, as_json: bool) -> int:
    """Decide every recorded command again on the folded state and compare with the recorded
    answer: each divergence (table, entry, expected, got); exit 1 if any. The upgrade check: run
    it before deploying a new engine over old logs."""
    scan = await _pass(ops, jobs.Verify, table, every)
    commands = diverged = checked = failed = 0
    with show.Meter("verify", scan.total_entries) as meter:
        async for result in scan.results():
            meter.update(scan.entries)
            checked += 1
            if isinstance(result, jobs.Failed):  # the engine raised on this log
                failed += 1
                show.failed(result.table, result.error, as_json)
                continue
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
    summary = {"tables": checked, "commands": commands, "divergences": diverged, "failed": failed}
    if as_json:
        show.emit({"summary": summary})
    else:
        err.print(
            f"{checked} table(s), {commands} command(s) verified, {diverged} divergence(s)"
            + (f", {failed} failed" if failed else "")
        )
    if diverged or failed:
        raise Found
    return 0


def _render(ops: Ops) -> jobs.JobKind:
    log_limit, chat_limit = settings_views(ops)
    return functools.partial(jobs.Render, log_limit=log_limit, chat_limit=chat_limit)


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


def compare(
    item: Replacement, live: TableSnapshot | None, seated: bytes | None = None
) -> list[Difference]:
    """Key by key: what the read model holds against what the log gives. ``seated``: the read
    model's seated record of the table, which is all it must hold of a finished table whose views
    expired (or were left to be made from the log, after a wipe)."""
    t = item.table
    viewless = live is None or not any(viewer in live.fields for viewer in item.views)
    if viewless and item.seated is not None and seated is not None:
        out = []
        if seated != item.seated:
            out.append(Difference(t, "seated", _short(seated), _short(item.seated)))
        if live is not None and live.status != item.status:
            out.append(Difference(t, "status", _short(live.status), _short(item.status)))
        return out
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
            t = await view_writer.fold(log, item.table)
            if view_writer.renders(t):
                item = view_writer.replacement(t, *settings_views(ops))
            if live.position < item.position:
                await asyncio.sleep(0.2)  # the projection has not written it yet
            (live,) = await model.snapshots([item.table])
            continue
        break
    (seated,) = await model.seated([item.table])
    return compare(item, live, seated)


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
    scan = await _pass(ops, _render(ops), table, every)
    log, model = await ops.log(), await ops.model()
    found: list[Difference] = []
    failed: list[jobs.Failed] = []
    compared = 0
    batch: list[Replacement] = []

    async def flush() -> None:
        nonlocal compared
        lives = await model.snapshots([x.table for x in batch])
        records = await model.seated([x.table for x in batch])
        for item, live, seated in zip(batch, lives, records, strict=True):
            compared += 1
            settled = live.position == item.position if live is not None else seated is not None
            if settled:  # (a finished table with no views: its record is what is compared)
                found.extend(compare(item, live, seated))
            else:
                found.extend(await settled_compare(log, model, item, live, ops))
        batch.clear()

    with show.Meter("diff", scan.total_entries) as meter:
        async for item in scan.results():
            meter.update(scan.entries)
            if isinstance(item, jobs.Failed):  # nothing to compare: the log does not fold
                failed.append(item)
                continue
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
    for f in failed:
        show.failed(f.table, f.error, as_json)
    summary = {"tables": compared, "differences": len(found), "failed": len(failed)}
    if as_json:
        show.emit({"summary": summary})
    else:
        err.print(
            f"{compared} table(s) compared, {len(found)} difference(s)"
            + (f", {len(failed)} failed" if failed else "")
        )
    if found or failed:
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
    scan = await _pass(ops, _render(ops), table, every)
    log, model = await ops.log(), await ops.model()
    if every and not dry_run and not yes and not _confirmed(scan):
        err.print("nothing written")
        return 1
    # where finished views expire, every table's rebuild writes a finished one's seated record
    # alone (its views are made from the log when asked for), as the projection after a wipe
    writer = Rewriter(model, dry_run, every and ops.settings.finished_ttl() is not None)
    started = time.monotonic()
    with show.Meter("rebuild", scan.total_entries) as meter:
        async for item in scan.results():
            if isinstance(item, jobs.Failed):
                writer.failed.append((item.table, item.error))
                continue
            await writer.add(item)
            meter.update(
                scan.entries,
                f", {scan.tables / max(time.monotonic() - started, 1e-6):,.0f} tables/s",
            )
        await writer.flush()
        await writer.catch_up(log, settings_views(ops))
    _report_rebuild(writer, scan, max(time.monotonic() - started, 1e-6), dry_run, as_json)
    if writer.failed:
        raise Found
    return 0


def _confirmed(scan: Pass) -> bool:
    """The operator's yes to rewriting every table's views (asked on a terminal only)."""
    if not sys.stdin.isatty():
        raise click.UsageError("rebuild --all asks first: answer on a terminal, or add --yes")
    question = (
        f"Rewrite the views of {scan.total_tables:,} tables ({scan.total_entries:,} log entries)?"
    )
    return click.confirm(question)


class Rewriter:
    """The rebuilt tables written in batches (or, for a dry run, compared): a table the live
    projection wrote newer since is caught up one by one at the end."""

    BATCH = 500

    def __init__(self, model: ReadModel, dry_run: bool, viewless_finished: bool = False) -> None:
        """``viewless_finished``: a finished table's views and answers are not written."""
        self.model, self.dry_run, self.viewless_finished = model, dry_run, viewless_finished
        self.written = self.kept = self.changed = 0
        self.failed: list[tuple[str, str]] = []
        self.late: list[str] = []  # the live projection wrote newer: caught up one by one
        self.batch: list[Replacement] = []

    async def add(self, item: Replacement) -> None:
        if self.viewless_finished and item.seated is not None:
            item = item._replace(views={}, answers={})
        self.batch.append(item)
        if len(self.batch) >= self.BATCH:
            await self.flush()

    async def flush(self) -> None:
        batch = self.batch
        if self.dry_run:
            tables = [x.table for x in batch]
            lives, records = await self.model.snapshots(tables), await self.model.seated(tables)
            self.changed += sum(
                1
                for x, live, seated in zip(batch, lives, records, strict=True)
                if compare(x, live, seated)
            )
        else:
            for item, ok in zip(batch, await self.model.replace(batch), strict=True):
                if ok:
                    self.written += 1
                else:
                    self.late.append(item.table)
        batch.clear()

    async def catch_up(self, log: FullLog, limits: tuple[int | None, int | None]) -> None:
        for t in self.late:
            try:
                if await view_writer.rebuild(log, self.model, t, *limits):
                    self.written += 1
                else:
                    self.kept += 1
            except Exception as e:  # noqa: BLE001  (reported at the end; the rest goes on)
                self.failed.append((t, f"{type(e).__name__}: {e}"))


def _report_rebuild(
    writer: Rewriter, scan: Pass, elapsed: float, dry_run: bool, as_json: bool
) -> None:
    figures = {
        "tables": scan.total_tables,
        "entries": scan.entries,
        "written": writer.written,
        "failed": len(writer.failed),
        "seconds": round(elapsed, 3),
        "entries_per_second": round(scan.entries / elapsed),
        "tables_per_second": round(scan.tables / elapsed, 1),
    }
    if dry_run:
        figures = {**figures, "written": 0, "would_change": writer.changed}
    for t, why in writer.failed:
        show.failed(t, why, as_json)
    if as_json:
        show.emit({"summary": figures})
    elif dry_run:
        click.echo(
            f"dry run: {writer.changed} of {scan.total_tables} table(s) would change;"
            " nothing written"
        )
    else:
        click.echo(
            f"rebuilt {writer.written} table(s) of {scan.total_tables} ({scan.entries:,} entries)"
            f" in {elapsed:.1f} s: {figures['entries_per_second']:,} entries/s,"
            f" {figures['tables_per_second']:,} tables/s"
            + (f"; {len(writer.failed)} failed" if writer.failed else "")
        )
