"""The mapper between entries and stored records: an entry appended lands on its kind's side and
reads back as itself; a record that is not an entry is told apart."""

from __future__ import annotations

import asyncio

import msgspec
import pytest

from gcbc.eventlog.memory import MemoryEventLog
from gcbc.eventlog.port import Stored
from gcbc.eventlog.records import append_entry, entry_of, entry_or_none
from gcbc_contract import commands as C
from gcbc_contract.entries import SCHEMA, CommandEntry, RefusalEntry

TABLE = "00000000000000ab"


def test_an_entry_appended_reads_back_as_itself_on_its_kinds_side() -> None:
    async def go() -> None:
        log = MemoryEventLog()
        command = CommandEntry(command=C.OpenTable(table_id=TABLE, seats=4), at=1)
        asked = await append_entry(log, TABLE, command, 0, msg_id="open")
        refusal = RefusalEntry(answers=asked.seq, code="c", message="m", prev=asked.seq)
        answered = await append_entry(log, TABLE, refusal, asked.seq)
        stored = await log.read(TABLE)
        assert [s.seq for s in stored] == [asked.seq, answered.seq]
        for appended, got in zip((asked, answered), stored, strict=True):
            assert (appended.stored.seq, appended.stored.table) == (got.seq, got.table)
            assert appended.stored.data == got.data and not appended.duplicate
        assert [entry_of(s) for s in stored] == [
            msgspec.structs.replace(command, schema=SCHEMA),
            msgspec.structs.replace(refusal, schema=SCHEMA),
        ]
        assert log._answers == {answered.seq}  # noqa: SLF001  (the answers' side)

    asyncio.run(go())


def test_a_record_that_is_not_an_entry_is_told_apart() -> None:
    junk = Stored(seq=1, table=TABLE, data=b"not json")
    assert entry_or_none(junk) is None
    with pytest.raises(msgspec.DecodeError):
        entry_of(junk)
