"""``gcbc-ops tables`` and ``status``: what the deployment holds, and how it is doing."""

from __future__ import annotations

import functools
import time
from typing import Any

import click

from services.ops import jobs, show
from services.ops.command import Found, Ops, cli, json_option, run
from services.ops.scan import Pass
from services.ops.show import err


@cli.command()
@click.option("--status", type=click.Choice(["lobby", "playing", "finished"]))
@click.option(
    "--idle",
    metavar="DURATION",
    callback=lambda ctx, param, text: _duration(text),
    help="no entry for this long (10m, 2h, 30s).",
)
@click.option("--stuck", is_flag=True, help="a command or a deadline the rules left behind.")
@click.option(
    "--option",
    "options",
    multiple=True,
    metavar="NAME",
    callback=lambda ctx, param, names: tuple(_option_name(n) for n in names),
    help="zombies, bombers_traitors, extra_equipment, classic, fourth, wounds=card|token.",
)
@json_option
@run
async def tables(
    ops: Ops,
    status: str | None,
    idle: float | None,
    stuck: bool,
    options: tuple[str, ...],
    as_json: bool,
) -> int:
    """Find tables (every table folded, in one pass over the log); a table the engine cannot
    fold is reported as failed, and exits 1."""
    now = time.time()
    found: list[jobs.Summary] = []
    failed: list[jobs.Failed] = []
    log = await ops.log()
    summarize = functools.partial(jobs.Summarize, now=now, lobby_ttl=ops.settings.lobby_ttl)
    scan = await Pass(log, summarize, workers=ops.workers).start()
    with show.Meter("tables", scan.total_entries) as meter:
        async for s in scan.results():
            meter.update(scan.entries)
            if isinstance(s, jobs.Failed):
                failed.append(s)
                continue
            if status and s.status != status:
                continue
            if idle is not None and now - s.last_at < idle:
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
    else:
        _print_tables(found, now)
    for f in failed:
        show.failed(f.table, f.error, as_json)
    if not as_json:
        err.print(f"{len(found)} table(s) of {scan.total_tables}")
    if failed:
        raise Found
    return 0


def _print_tables(found: list[jobs.Summary], now: float) -> None:
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


def _duration(text: str | None) -> float | None:
    if text is None:
        return None
    try:
        return show.duration(text)
    except ValueError:
        raise click.BadParameter(f"{text!r} is not a duration (10m, 2h, 30s)") from None


EXPANSIONS = ("zombies", "bombers_traitors", "extra_equipment")


def _option_name(name: str) -> str:
    if name in (*EXPANSIONS, "classic", "fourth", "wounds=card", "wounds=token"):
        return name
    raise click.BadParameter(f"unknown option {name!r}", param_hint="--option")


def _short_options(o: dict[str, Any]) -> list[str]:
    out = [o.get("edition", "fourth")]
    out += [k for k in EXPANSIONS if o.get(k)]
    out.append(f"wounds={o.get('wounds')}")
    return out


def _has_option(o: dict[str, Any], name: str) -> bool:
    if name in ("classic", "fourth"):
        return o.get("edition", "fourth") == name
    if name.startswith("wounds="):
        return o.get("wounds") == name.split("=", 1)[1]
    return bool(o.get(name))  # one of EXPANSIONS (checked as given)


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
