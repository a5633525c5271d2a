"""The log survives code changes: every entry carries its schema version, and entries
of older versions are decoded through upcasters."""

from __future__ import annotations

import msgspec
import pytest

from gcbc_contract import commands as C
from gcbc_contract import entries
from gcbc_contract.entries import (
    SCHEMA,
    CommandEntry,
    NewerSchema,
    OutcomeEntry,
    decode_entry,
    encode_entry,
)
from gcbc_contract.events import SeatTaken


def test_an_entry_is_written_with_the_current_version_and_read_back():
    data = encode_entry(CommandEntry(command=C.TakeSeat(seat=1, name="ann"), at=5, prev=3))
    assert msgspec.json.decode(data)["schema"] == SCHEMA
    entry = decode_entry(data)
    assert entry.schema == SCHEMA and entry.command.name == "ann" and entry.prev == 3


def test_an_entry_written_before_versions_were_recorded_is_version_1_and_decodes():
    old = b'{"kind":"outcome","at":7,"prev":1,"answers":1,"events":[{"type":"seat_taken","seat":0,"name":"ann"}]}'
    entry = decode_entry(old)
    assert isinstance(entry, OutcomeEntry) and entry.events == [SeatTaken(seat=0, name="ann")]
    assert entry.schema == SCHEMA


def test_an_older_shape_goes_through_the_upcasters(monkeypatch):
    """What a real change looks like: version 1 called a seat's name "nom"; its upcaster renames
    the field, so the old entry decodes as the current code means it."""

    def renamed(entry):
        command = entry.get("command", {})
        if command.get("type") == "take_seat" and "nom" in command:
            command["name"] = command.pop("nom")
        return entry

    monkeypatch.setitem(entries.UPCASTERS, 1, (renamed, False))
    old = b'{"kind":"command","command":{"type":"take_seat","seat":-1,"nom":"bob"}}'
    assert decode_entry(old).command.name == "bob"
    current = encode_entry(CommandEntry(command=C.TakeSeat(name="cat")))
    assert decode_entry(current).command.name == "cat"  # the current version: no upcaster


def test_an_entry_from_newer_code_is_refused_not_misread():
    newer = b'{"kind":"command","schema":%d,"command":{"type":"pass","seat":1}}' % (SCHEMA + 1)
    with pytest.raises(NewerSchema):
        decode_entry(newer)
    with pytest.raises(msgspec.DecodeError):
        decode_entry(b"not an entry")
