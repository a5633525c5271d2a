"""How the operator's CLI shows things: entries as readable lines (control characters escaped),
JSON lines for ``--json``, and progress with a rate and an estimate (a bar on a terminal, a
line every few seconds otherwise)."""

from __future__ import annotations

import sys
import time
from datetime import UTC, datetime
from typing import Any

import msgspec
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskProgressColumn,
    TextColumn,
    TimeRemainingColumn,
)

from gcbc.rules.state import State
from gcbc_contract.entries import CommandEntry, OutcomeEntry, RefusalEntry

err = Console(stderr=True, highlight=False, soft_wrap=True)  # one message, one line


def printable(text: str) -> str:
    """``text`` with control characters escaped: what a client sent (a name, a chat message, a
    command id) must not move an operator's cursor, clear the screen or forge a line."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _hook(x: Any) -> Any:
    if isinstance(x, bytes):
        return x.decode("utf-8", "replace")
    if hasattr(x, "__iter__"):  # the engine's append-only trails (log, chat)
        return list(x)
    raise NotImplementedError(type(x))


# (no key order: the state has int keys)
to_json = msgspec.json.Encoder(enc_hook=_hook).encode


# the engine state's parts that are structs of their own for the engine's speed (set once, or
# seldom changed): an operator reads their fields where they always were, on the state itself
_NESTED = ("setup", "marks", "outcome")


def engine_state(s: State) -> dict[str, Any]:
    """The engine state as one flat object: every field by its name (``State``'s properties)."""
    d = msgspec.to_builtins(s, enc_hook=_hook)
    flat: dict[str, Any] = {}
    for name, value in d.items():
        if name in _NESTED and isinstance(value, dict):
            flat.update(value)
        else:
            flat[name] = value
    return flat


def emit(x: Any) -> None:
    """One JSON value on one line (``--json``)."""
    sys.stdout.write(to_json(x).decode() + "\n")
    sys.stdout.flush()


def failed(table: str, why: str, as_json: bool) -> None:
    """A table the pass could not fold (the engine raised on its log), as every pass says it."""
    if as_json:
        emit({"failed": table, "error": why})
    else:
        err.print(f"[red]failed:[/] {table}: {printable(why)}")


def pretty(x: Any) -> None:
    """A JSON value indented for reading."""
    text = msgspec.json.format(to_json(x), indent=2).decode()
    sys.stdout.write("\n".join(printable(line) for line in text.split("\n")) + "\n")


def fields(x: Any) -> str:
    d = msgspec.to_builtins(x, enc_hook=_hook)
    kind = d.pop("type", "")
    return printable(f"{kind} " + " ".join(f"{k}={v}" for k, v in d.items())).rstrip()


def when(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).strftime("%H:%M:%S.%f")[:-3]


def when_ms(ms: int) -> str:
    return when(ms / 1000)


def ago(seconds: float) -> str:
    s = max(0, int(seconds))
    if s < 120:
        return f"{s}s"
    if s < 7200:
        return f"{s // 60}m"
    if s < 172800:
        return f"{s // 3600}h"
    return f"{s // 86400}d"


def duration(text: str) -> float:
    """``10m``, ``30s``, ``2h``, ``1d`` or plain seconds."""
    units = {"s": 1, "m": 60, "h": 3600, "d": 86400}
    text = text.strip().lower()
    if text and text[-1] in units:
        return float(text[:-1]) * units[text[-1]]
    return float(text)


def entry_lines(seq: int, entry: Any, version: int) -> tuple[list[str], int]:
    """An entry as timeline lines (operators: every secret shown) and the version after it."""
    if isinstance(entry, CommandEntry):
        return [f"#{seq:<7} {when_ms(entry.at)} COMMAND  {fields(entry.command)}"], version
    if isinstance(entry, RefusalEntry):
        line = f"#{seq:<7} {when_ms(entry.at)} REFUSED  #{entry.answers} {entry.code}: "
        return [line + printable(entry.message)], version
    if isinstance(entry, OutcomeEntry):
        lines = [
            f"#{seq:<7} {when_ms(entry.at)} OUTCOME  of #{entry.answers}: {len(entry.events)} events"
        ]
        for e in entry.events:
            version += 1
            lines.append(f"          v{version:<5} {fields(e)}")
        return lines, version
    return [f"#{seq:<7} (not an entry)"], version


def entry_json(seq: int, at: float, table: str, entry: Any) -> dict[str, Any]:
    kind = {CommandEntry: "command", OutcomeEntry: "outcome"}.get(type(entry), "refusal")
    return {"table": table, "seq": seq, "at": at, "kind": kind, "entry": entry}


class Meter:
    """How far a long job is, with a rate and an estimate: a bar on a terminal, else a line
    on stderr every ``every`` seconds (logs, CI)."""

    def __init__(self, what: str, total: int, unit: str = "entries", every: float = 2.0):
        self.what, self.total, self.unit, self.every = what, total, unit, every
        self.done = 0
        self.extra = ""
        self.started = time.monotonic()
        self._last = self.started
        self._bar: Progress | None = None
        self._task: Any = None
        if err.is_terminal:
            self._bar = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TaskProgressColumn(),
                TextColumn("{task.fields[rate]}"),
                TimeRemainingColumn(),
                console=err,
                transient=False,
            )
            self._task = self._bar.add_task(what, total=total or None, rate="")

    def __enter__(self) -> Meter:
        if self._bar is not None:
            self._bar.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.update(self._task, completed=self.done, rate=self.rate_text())
            self._bar.stop()

    def rate(self) -> float:
        return self.done / max(time.monotonic() - self.started, 1e-6)

    def rate_text(self) -> str:
        return f"{self.rate():,.0f} {self.unit}/s{self.extra}"

    def estimate(self) -> str:
        rate = self.rate()
        if not rate or not self.total:
            return "?"
        return f"{max(0.0, (self.total - self.done) / rate):.0f} s"

    def update(self, done: int, extra: str = "") -> None:
        self.done, self.extra = done, extra
        now = time.monotonic()
        if self._bar is not None:
            self._bar.update(self._task, completed=done, rate=self.rate_text())
        elif now - self._last >= self.every:
            self._last = now
            share = f" ({100 * done / self.total:.0f} %)" if self.total else ""
            print(
                f"{self.what}: {done:,}/{self.total:,} {self.unit}{share}, {self.rate_text()},"
                f" about {self.estimate()} left",
                file=sys.stderr,
                flush=True,
            )
