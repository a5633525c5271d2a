"""A table's raw entries, portable between deployments (``export`` / ``import``), and its deal as
a scenario body for ``POST /tables`` (``export --scenario``): a bug report becomes a table anyone
can play again on a scenario server.

The file is JSON lines: a header ``{"format": "gcbc-table", "version": 1, "table", "entries"}``,
then one line per entry ``{"seq", "at", "entry"}`` (the entry as stored, in whatever schema
version it was written; ``"raw"``, base64, for a message that is not JSON). Importing appends the
entries to a new table in order, each expecting the one before (so a retry appends nothing twice;
an import stopped part-way is completed by importing the file again),
with their positions (``prev``, ``answers``) renumbered, and the table id replaced everywhere with
``--as``. The rules worker does not answer an imported command (each is marked ``imported``):
each comes with its answer (a command whose answer never comes is answered after a while)."""

from __future__ import annotations

import base64
import time
from collections.abc import Iterable, Iterator
from typing import Any

import msgspec

from gcbc.eventlog.port import (
    EventLog,
    LogUnavailable,
    OutcomeUnknown,
    Stored,
    WrongExpectedSequence,
)
from gcbc_contract import events as E
from gcbc_contract.entries import OutcomeEntry, decode_entry
from gcbc_contract.ids import checked, is_table_id
from services.common.folded import FoldedTable

FORMAT = "gcbc-table"
_decode = msgspec.json.Decoder()
_encode = msgspec.json.Encoder().encode


class ImportError_(Exception):
    """The file cannot be imported (its form, or a table already there)."""


def export_lines(table_id: str, stored: list[Stored]) -> Iterator[bytes]:
    yield _encode(
        {
            "format": FORMAT,
            "version": 1,
            "table": table_id,
            "entries": len(stored),
            "exported_at": time.time(),
        }
    )
    for s in stored:
        try:
            _decode.decode(s.data)
        except msgspec.DecodeError:
            yield _encode({"seq": s.seq, "at": s.at, "raw": base64.b64encode(s.data).decode()})
            continue
        yield b'{"seq":%d,"at":%s,"entry":%s}' % (s.seq, repr(s.at).encode(), s.data)


def read_lines(lines: Iterable[bytes | str]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    header: dict[str, Any] | None = None
    rows: list[dict[str, Any]] = []
    for n, line in enumerate(lines, 1):
        if isinstance(line, str):
            line = line.encode()
        if not line.strip():
            continue
        try:
            got = _decode.decode(line)
        except msgspec.DecodeError as e:
            raise ImportError_(f"line {n}: not JSON ({e})") from None
        if header is None:
            if not isinstance(got, dict) or got.get("format") != FORMAT:
                raise ImportError_(f"line {n}: not a {FORMAT} export (no header)")
            header = got
            continue
        if not isinstance(got, dict) or ("entry" not in got and "raw" not in got):
            raise ImportError_(f"line {n}: not an entry line")
        rows.append(got)
    if header is None:
        raise ImportError_("an empty file")
    if header.get("entries") not in (None, len(rows)):
        raise ImportError_(
            f"the header counts {header['entries']} entries, the file has {len(rows)}"
        )
    return header, rows


def _renamed(value: Any, old: str, new: str) -> Any:
    """``value`` (JSON) with the table id ``old`` replaced by ``new`` where a table id is kept:
    ``open_table.table_id`` and ``table_opened.table_id``."""
    if isinstance(value, dict):
        out = {k: _renamed(v, old, new) for k, v in value.items()}
        if out.get("type") in ("open_table", "table_opened") and out.get("table_id") == old:
            out["table_id"] = new
        return out
    if isinstance(value, list):
        return [_renamed(v, old, new) for v in value]
    return value


class _Renumbered:
    """The export's entries as this log gets them, one after the other: positions (``prev``,
    ``answers``) renumbered to this log's, the table id replaced where it is kept, each command
    marked imported (its recorded answer follows: no worker answers it)."""

    def __init__(self, old: str, table: str, rename: bool) -> None:
        self.old, self.table, self.rename = old, table, rename
        self.moved: dict[int, int] = {}  # the export's positions -> this log's
        self.last = 0
        self.command: dict[str, Any] | None = None  # the last command, as appended

    def next(self, row: dict[str, Any]) -> tuple[bytes, bool]:
        """The row's record, and whether it answers a command (ValueError: a bad row)."""
        if "raw" in row:
            data = base64.b64decode(row["raw"], validate=True)
            if not data:  # (an empty message is the server's own: flow control, heartbeats)
                raise ValueError("its raw record is empty: the log keeps no empty entry")
            return data, False
        entry = row["entry"]
        if not isinstance(entry, dict):
            raise ValueError("its entry is not a JSON object")
        entry = _renamed(entry, self.old, self.table) if self.rename else dict(entry)
        answer = False
        if "prev" in entry or self.last:
            entry["prev"] = self.last
        if "answers" in entry:
            entry["answers"] = self.moved.get(entry["answers"], entry["answers"])
            answer = True
            if self.command is not None and self.command.get("prev", 0) < entry["prev"]:
                # it carries its command as appended here (an export from before answers
                # carried theirs gets them): readers of the answers alone
                entry["command"] = self.command
        if entry.get("kind") == "command":
            entry["imported"] = True
            self.command = entry
        return _encode(entry), answer

    def appended(self, row: dict[str, Any], seq: int) -> None:
        self.moved[_position(row)] = seq
        self.last = seq


def _position(row: dict[str, Any]) -> int:
    seq = row.get("seq", 0)
    if type(seq) is not int or seq < 0:
        raise ValueError(f"seq {seq!r} is not a position")
    return seq


def _checked(rows: list[dict[str, Any]], old: str, table: str, rename: bool) -> None:
    """Every row made and folded as it would be appended, in memory, before the first append:
    a file the log would not take whole (a bad row, something not an entry, a log the engine
    cannot fold) is refused with nothing written (ImportError_)."""
    renumbered = _Renumbered(old, table, rename)
    folded = FoldedTable(table)
    for i, row in enumerate(rows, 1):
        try:
            data, _ = renumbered.next(row)
            renumbered.appended(row, i)  # as if the log numbered the table's entries 1, 2, ...
        except (ValueError, TypeError, KeyError) as e:  # binascii.Error is a ValueError
            raise ImportError_(f"entry {i}: {e}") from None
        entry = None  # a raw record: stepped over by the fold, as by every reader
        try:
            entry = decode_entry(data)
        except msgspec.DecodeError as e:
            if "raw" not in row:
                raise ImportError_(f"entry {i}: not an entry of this log ({e})") from None
        else:
            if "raw" in row:  # every reader would take it for an entry: checked as one
                raise ImportError_(f"entry {i}: its raw record is an entry: give it as one")
        try:
            folded.apply(Stored(seq=i, table=table, data=data), entry)
        except Exception as e:  # noqa: BLE001  (said, not raised: nothing is written)
            why = f"{type(e).__name__}: {e}"
            raise ImportError_(f"entry {i}: the engine cannot fold it ({why})") from None


async def import_rows(
    log: EventLog, header: dict[str, Any], rows: list[dict[str, Any]], as_id: str | None = None
) -> tuple[str, int, int]:
    """Append the exported entries as a new table: (its id, entries appended, entries it held
    already). The whole file is checked first; each append expects the one before (so a retry
    appends nothing twice). A table holding the file's first entries already (an import stopped
    part-way) is completed: only the rest is appended (``ImportError_`` if it holds anything
    else)."""
    old = header.get("table")
    if not isinstance(old, str) or not is_table_id(old):
        raise ImportError_(f"the header's table {old!r} is not a table id")
    table = checked(as_id) if as_id else old
    _checked(rows, old, table, bool(as_id))
    renumbered = _Renumbered(old, table, bool(as_id))
    done = await _imported_before(log, table, rows, renumbered)
    for i, row in enumerate(rows[done:], done):
        data, answer = renumbered.next(row)
        try:
            result = await log.append(
                table, data, renumbered.last, msg_id=f"import:{table}:{i}", answer=answer
            )
        except WrongExpectedSequence:
            raise ImportError_(
                f"table {table} moved while it was imported (entry {i + 1}): someone else writes it"
            ) from None
        except (OutcomeUnknown, LogUnavailable) as e:
            raise ImportError_(
                f"the log did not answer at entry {i + 1} ({e}): table {table} holds the entries"
                " before it (maybe this one too); import the same file again to complete it"
            ) from None
        renumbered.appended(row, result.seq)
    return table, len(rows) - done, done


async def _imported_before(
    log: EventLog, table: str, rows: list[dict[str, Any]], renumbered: _Renumbered
) -> int:
    """How many of the file's entries the table holds already, each as the import appends it
    (``renumbered`` brought past them); ImportError_ if it holds anything else."""
    existing = await log.read(table, most=len(rows) + 1)
    if len(existing) > len(rows):
        raise ImportError_(f"table {table} exists already here, longer than the file")
    for i, (row, stored) in enumerate(zip(rows, existing, strict=False)):
        if renumbered.next(row)[0] != stored.data:
            raise ImportError_(
                f"table {table} exists already here and differs from the file at entry {i + 1}"
            )
        renumbered.appended(row, stored.seq)
    return len(existing)


def scenario(stored: list[Stored], table_id: str) -> dict[str, Any]:
    """The body of ``POST /tables`` that deals the table again: its seats, options, deadlines,
    the deal (who held which cards, the equipment deck, the first seat) and the seed of every
    random outcome (scenario servers only: GCBC_ALLOW_SCENARIOS=1)."""
    t = FoldedTable(table_id)
    dealt: E.CardsDealt | None = None
    started: E.GameStarted | None = None
    for s in stored:
        entry = t.apply(s)
        if isinstance(entry, OutcomeEntry):
            for e in entry.events:
                if isinstance(e, E.CardsDealt):
                    dealt = e
                elif isinstance(e, E.GameStarted):
                    started = e
    st = t.state
    if not st.table_id:
        raise ImportError_(f"table {table_id} was never opened")
    body: dict[str, Any] = {
        "seats": len(st.seats),
        "options": msgspec.to_builtins(st.options),
        "deadlines": msgspec.to_builtins(st.deadlines),
    }
    if started is None or dealt is None:
        if st.requested_seed is not None:
            body["seed"] = str(st.requested_seed)  # the API's seeds are digits (docs/api.md)
        if st.deal is not None:
            body["deal"] = msgspec.to_builtins(st.deal)
        if st.first_seat_choice is not None:
            body["first_seat"] = st.first_seat_choice
        return body  # not dealt yet: what the table was opened with
    body["seed"] = str(started.random_seed)
    body["deal"] = {
        "integrity": [[dealt.identities[c] for c in hand] for hand in dealt.hands],
        "equipment": [list(h) for h in dealt.equipment],
        "equipment_deck": list(dealt.deck),
        "first_seat": started.first_seat,
    }
    return body
