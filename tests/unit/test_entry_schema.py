"""The log survives code changes (issue 11): every entry carries its schema version, and entries
of older versions are decoded through upcasters."""

from __future__ import annotations

import msgspec
import pytest

from gcbc.contract import commands as C
from gcbc.contract import entries
from gcbc.contract.entries import (
    SCHEMA,
    CommandEntry,
    NewerSchema,
    OutcomeEntry,
    decode_entry,
    encode_entry,
)
from gcbc.contract.events import SeatTaken
from gcbc.contract.options import RULES_REVISION


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


def test_a_table_opened_before_schema_3_follows_rules_revision_1():
    """Schema 3 (options.RULES_REVISION): an opening written before records no revision and is
    read as revision 1, in the command, its answer's events and the command the answer carries;
    a current opening that leaves the field out follows the current revision."""
    command = b'{"type":"open_table","table_id":"t","seats":4}'
    opened = b'{"type":"table_opened","table_id":"t","seats":4}'
    old_command = b'{"kind":"command","schema":2,"command":%s}' % command
    assert decode_entry(old_command).command.rules == 1
    old_answer = b'{"kind":"outcome","schema":2,"answers":1,"events":[%s],"command":%s}' % (
        opened,
        old_command,
    )
    answer = decode_entry(old_answer)
    assert answer.events[0].rules == 1 and answer.command.command.rules == 1
    current = encode_entry(CommandEntry(command=C.OpenTable(table_id="t", seats=4)))
    assert b"rules" not in current
    assert decode_entry(current).command.rules == RULES_REVISION
