"""The one mapper between a table's entries (gcbc_contract.entries) and the log's stored records:
an entry is appended as its encoding, on the commands' or the answers' side as its kind says,
and a stored record is read back as the entry it holds, in the current schema."""

from __future__ import annotations

import msgspec

from gcbc.eventlog.port import EventLog, Stored
from gcbc_contract.entries import AnyEntry, OutcomeEntry, RefusalEntry, decode_entry, encode_entry


def entry_of(stored: Stored) -> AnyEntry:
    """The entry a record holds (msgspec.DecodeError: not an entry; NewerSchema: written by
    newer code)."""
    return decode_entry(stored.data)


def entry_or_none(stored: Stored) -> AnyEntry | None:
    """The entry a record holds, or None for a record that is not one (stepped over)."""
    try:
        return decode_entry(stored.data)
    except msgspec.DecodeError:
        return None


def is_answer(entry: AnyEntry) -> bool:
    """Whether the entry answers a command (stored on the answers' side)."""
    return isinstance(entry, OutcomeEntry | RefusalEntry)


class Appended(msgspec.Struct, frozen=True):
    """An appended entry: its place (``duplicate``: stored before, by the same message id) and
    the record as stored (its time not known here)."""

    seq: int
    duplicate: bool
    stored: Stored


async def append_entry(
    log: EventLog, table: str, entry: AnyEntry, expected: int, msg_id: str | None = None
) -> Appended:
    """Append the entry to the table (``expected``, ``msg_id``: as ``EventLog.append``)."""
    data = encode_entry(entry)
    got = await log.append(table, data, expected=expected, msg_id=msg_id, answer=is_answer(entry))
    return Appended(got.seq, got.duplicate, Stored(seq=got.seq, table=table, data=data))
