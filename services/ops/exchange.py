"""``gcbc-ops export`` and ``import``: a table's entries carried between deployments."""

from __future__ import annotations

import sys
from typing import Any

import click

from services.ops import show, transfer
from services.ops.command import Ops, cli, json_option, run, table_entries


@cli.command("export")
@click.argument("table")
@click.option("--scenario", is_flag=True, help="the table's deal as a POST /tables body.")
@run
async def export(ops: Ops, table: str, scenario: bool) -> int:
    """A table's raw entries as JSON lines (``> t.jsonl``), portable between deployments."""
    stored = await table_entries(ops, table)
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
    """Append an exported table's entries to this deployment's log (a new table; one an import
    stopped part-way is completed)."""
    header, rows = transfer.read_lines(file)
    log = await ops.log()
    table, count, held = await transfer.import_rows(log, header, rows, as_id)
    if as_json:
        show.emit({"table": table, "entries": count, "held_already": held})
    elif held:
        click.echo(f"table {table} held the file's first {held} entries: {count} more imported")
    else:
        click.echo(f"imported {count} entries as table {table}")
    return 0
