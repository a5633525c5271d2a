"""``python -m services.ops <command>``: operator tools over the event log (they show secrets).

- ``inspect <table>``: the table's timeline, human-readable: every command, answer and event.
- ``rebuild [<table> | --all]``: wipe the read models and write them again from the stream, with
  a progress bar; the result is byte-identical to the live views.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from datetime import UTC, datetime
from typing import Any

import msgspec

from gcbc.contract.entries import CommandEntry, OutcomeEntry, RefusalEntry, decode_entry
from gcbc.eventlog.port import EventLog
from gcbc.readmodel.port import ReadModel
from services.common import views
from services.common.settings import Settings


def printable(text: str) -> str:
    """``text`` with control characters escaped: what a client sent (a name, a chat message, a
    command id) must not move an operator's cursor, clear the screen or forge a line."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _fields(x: Any) -> str:
    d = msgspec.to_builtins(x)
    kind = d.pop("type", "")
    return printable(f"{kind} " + " ".join(f"{k}={v}" for k, v in d.items()))


def _when(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%H:%M:%S.%f")[:-3]


async def inspect(events: EventLog, table_id: str, out=sys.stdout) -> int:
    stored = await events.read(table_id)
    if not stored:
        print(f"no table {printable(table_id)}", file=out)
        return 1
    version = 0
    for s in stored:
        entry = decode_entry(s.data)
        if isinstance(entry, CommandEntry):
            print(f"#{s.seq:<7} {_when(entry.at)} COMMAND  {_fields(entry.command)}", file=out)
        elif isinstance(entry, RefusalEntry):
            print(
                f"#{s.seq:<7} {_when(entry.at)} REFUSED  #{entry.answers} {entry.code}: "
                f"{printable(entry.message)}",
                file=out,
            )
        elif isinstance(entry, OutcomeEntry):
            print(
                f"#{s.seq:<7} {_when(entry.at)} OUTCOME  of #{entry.answers}: "
                f"{len(entry.events)} events",
                file=out,
            )
            for e in entry.events:
                version += 1
                print(f"          v{version:<5} {_fields(e)}", file=out)
    return 0


def _bar(done: int, total: int, started: float, out=sys.stderr) -> None:
    width = 30
    filled = int(width * done / total) if total else width
    rate = done / max(time.monotonic() - started, 1e-6)
    print(
        f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} tables {rate:.0f}/s",
        end="",
        file=out,
        flush=True,
    )


async def rebuild(
    events: EventLog,
    model: ReadModel,
    tables: list[str] | None,
    settings: Settings,
    progress: bool = True,
) -> int:
    if tables is None:
        tables = [t async for t in events.tables()]
    started = time.monotonic()
    for i, table_id in enumerate(tables, 1):
        await views.rebuild(events, model, table_id, settings.log_limit, settings.chat_limit)
        if progress:
            _bar(i, len(tables), started)
    if progress:
        print(file=sys.stderr)
    return len(tables)


def main(argv: list[str] | None = None) -> int:
    """The composition root: the real adapters."""
    from gcbc.eventlog.jetstream import JetStreamEventLog
    from gcbc.readmodel.redis import RedisReadModel

    p = argparse.ArgumentParser(
        prog="python -m services.ops",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = p.add_subparsers(dest="command", required=True)
    i = sub.add_parser("inspect", help="print a table's event timeline (shows secrets)")
    i.add_argument("table")
    r = sub.add_parser("rebuild", help="wipe and rebuild read models from the stream")
    r.add_argument("table", nargs="?")
    r.add_argument("--all", action="store_true")
    args = p.parse_args(argv)
    settings = Settings.from_env()

    async def go() -> int:
        events = await JetStreamEventLog.connect(settings.nats_url)
        try:
            if args.command == "inspect":
                return await inspect(events, args.table)
            if not args.all and not args.table:
                p.error("rebuild needs a table or --all")
            model = RedisReadModel.connect(settings.redis_url)
            try:
                n = await rebuild(events, model, None if args.all else [args.table], settings)
                print(f"rebuilt {n} table(s)")
                return 0
            finally:
                await model.close()
        finally:
            await events.close()

    return asyncio.run(go())


if __name__ == "__main__":
    sys.exit(main())
