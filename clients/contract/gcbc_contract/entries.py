"""Entries: the messages of a table's subject in the event log (JetStream).

A table's log alternates: a command (appended by the table service or, for deadlines, by the rules
worker), then the rules worker's answer to it, an outcome (the events, all or nothing) or a
refusal. A command is only appended when the table is settled (its last entry is an answer), so
each answer directly follows its command. The commands and the answers are stored apart (a
subject each), and an answer carries its command: a reader of the answers alone folds both.

The log outlives the code: every entry carries the schema version it was written in
(``schema``; absent: 1, the entries written before versions were recorded), and decoding goes
through the upcasters from older versions to the current one (``UPCASTERS``: version n -> a
function from an entry's JSON object at n to the same entry at n + 1). A change to an entry,
command or event that an older log would not decode as it was meant (a field renamed, its meaning
changed) bumps ``SCHEMA`` and adds the upcaster from the version before; adding an optional field
needs none. The golden logs in the tests (``tests/fixtures/logs``) are folded and verified with
every change, so an upcaster that is missing fails a test, not a production replay.

- 1: the entries written before versions were recorded.
- 2: the version is recorded (``schema``); nothing else changed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from gcbc_contract.commands import AnyCommand
from gcbc_contract.events import AnyEvent

SCHEMA = 2  # the version of the entries this code writes


class Entry(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind", omit_defaults=True):
    at: int = 0  # milliseconds since the epoch, stamped by the writer (the engine never reads it)
    prev: int = 0  # the sequence of the table's entry this one was appended after (0: the first)
    schema: int = 1  # the version it was written in (encode_entry stamps SCHEMA; absent: 1)


class CommandEntry(Entry, tag="command"):
    command: AnyCommand
    token_hash: str | None = None  # take_seat: the hash of the seat's bearer token (operators only)
    # take_seat by a registered player: its id (gcbc_contract.players); optional, no new version
    player: str | None = None
    # appended by ``gcbc-ops import`` together with its recorded answer: no rules worker answers
    # it (unless that answer never comes); optional, so no schema version of its own
    imported: bool = False


class OutcomeEntry(Entry, tag="outcome"):
    answers: int  # the sequence of the command entry it answers
    events: list[AnyEvent]
    # the command it answers, as stored at ``answers``: a reader of the answers alone (the
    # projection, the table service's follower: the log's answers have a subject of their own)
    # folds the command, then its answer. Optional: answers written before it have none, and a
    # reader that did not see their command reads the table from the log.
    command: CommandEntry | None = None


class RefusalEntry(Entry, tag="refusal"):
    answers: int
    code: str
    message: str
    command: CommandEntry | None = None  # as OutcomeEntry's


AnyEntry = CommandEntry | OutcomeEntry | RefusalEntry

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]


def _stamped(entry: dict[str, Any]) -> dict[str, Any]:
    return entry  # 1 -> 2: the version is recorded, the entry is the same


# version n -> (the upcaster to n + 1, whether it changes nothing but the version)
UPCASTERS: dict[int, tuple[Upcaster, bool]] = {1: (_stamped, True)}

_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(AnyEntry)
_raw = msgspec.json.Decoder(dict[str, Any])


class NewerSchema(msgspec.DecodeError):
    """An entry written by newer code than this (upgrade before reading this log)."""


def encode_entry(entry: AnyEntry) -> bytes:
    """An entry as it is stored, stamped with the current schema version."""
    if entry.schema != SCHEMA:
        entry = msgspec.structs.replace(entry, schema=SCHEMA)
    return _encoder.encode(entry)


def decode_entry(data: bytes) -> AnyEntry:
    """An entry from the log, in the current schema whatever version it was written in
    (msgspec.DecodeError: not an entry; NewerSchema: written by newer code)."""
    try:
        entry = _decoder.decode(data)
    except msgspec.ValidationError:
        return upcast(_raw.decode(data))  # an older shape that no longer decodes as it is
    version = entry.schema
    if version == SCHEMA:
        return entry
    if version < SCHEMA and all(UPCASTERS[v][1] for v in range(version, SCHEMA)):
        return msgspec.structs.replace(entry, schema=SCHEMA)  # the same shape: no detour
    return upcast(_raw.decode(data))


def upcast(entry: dict[str, Any]) -> AnyEntry:
    """An entry's JSON object from its version to the current one, then decoded."""
    version = entry.get("schema", 1)
    if not isinstance(version, int) or version < 1:
        raise msgspec.ValidationError(f"not a schema version: {version!r}")
    if version > SCHEMA:
        raise NewerSchema(f"entry schema {version} is newer than this code's ({SCHEMA})")
    while version < SCHEMA:
        entry = UPCASTERS[version][0](entry)
        version += 1
        entry["schema"] = version
    return _decoder.decode(_encoder.encode(entry))
