"""Snapshots of folded tables: a table decoded from its snapshot is the table folded from its log
as far as the rules decide (its event log, chat texts and command ids left out), and answers every
command alike, at every position of random complete games (every option set, pending commands
included); a snapshot of another schema or fold version, or another table's, is ignored."""

from __future__ import annotations

import asyncio

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from gcbc.eventlog.memory import MemoryEventLog
from gcbc.keyvalue.memory import MemoryKeyValue
from gcbc.rules.state import Trail
from gcbc_contract import entries
from gcbc_contract.events import ChatPosted
from services.common import snapshots
from services.common.folded import FoldedTable
from services.rules.worker import answer
from tools import tablelogs

# what a snapshot leaves out: the rules worker, its only reader, decides without them
LEFT_OUT = ("command_ids", "state")


def same(a: FoldedTable, b: FoldedTable) -> None:
    """``b`` is ``a`` as a snapshot holds it."""
    for name in FoldedTable.__slots__:
        if name not in LEFT_OUT:
            assert getattr(a, name) == getattr(b, name), name
    assert snapshots.for_deciding(a.state) == b.state
    assert list(b.state.chat) == [(seat, "") for seat, _ in a.state.chat]
    assert len(b.state.log) == 0 and b.command_ids == {}


def logged(table_id: str, seats: int, seed: int, options_at: int) -> MemoryEventLog:
    log = MemoryEventLog()
    steps = tablelogs.play(
        table_id, seats, seed, tablelogs.OPTION_MIX[options_at], chat_rate=0.1, miss_rate=0.05
    )
    asyncio.run(tablelogs.write_table(log, steps, table_id))
    return log


@settings(max_examples=8, deadline=None)
@given(
    seats=st.integers(4, 8),
    seed=st.integers(0, 1 << 20),
    options_at=st.integers(0, len(tablelogs.OPTION_MIX) - 1),
)
def test_a_table_decoded_from_its_snapshot_is_the_table_folded_from_its_log(
    seats, seed, options_at
):
    table_id = f"t{seed:x}"
    log = logged(table_id, seats, seed, options_at)
    t = FoldedTable(table_id)
    for stored in log.all():
        entry = t.apply(stored)
        again = snapshots.decode(snapshots.encode(t), table_id)
        assert again is not None
        same(t, again)
        if isinstance(entry, entries.CommandEntry):  # (a command changes no state: decided on)
            assert answer(again, entry, stored.seq, 0) == answer(t, entry, stored.seq, 0)
    assert t.state.step == "finished"


def test_a_snapshot_does_not_grow_with_a_games_events_its_talk_or_its_commands():
    """A finished table given 20,000 more events, 1,600 messages of 500 four-byte characters
    and 5,000 more command ids: its snapshot is the same bytes as with none of them but who
    posted each message (a seat's count of messages is what the rules decide with), so a long
    or talkative game's snapshot is kept, and a late message is decided from it rather than
    from the whole log."""
    t = FoldedTable("talk")
    for stored in logged("talk", 8, 7, 0).all():
        t.apply(stored)
    said = [ChatPosted(seat=i % 8, text="🙂" * 500) for i in range(1600)]
    chat = [(e.seat, e.text) for e in said]
    events = [*t.state.log, *said, *(list(t.state.log) * 200)[:20_000]]
    t.state = msgspec.structs.replace(
        t.state, chat=Trail(chat, len(chat)), log=Trail(events, len(events))
    )
    quiet = FoldedTable("talk")
    for name in FoldedTable.__slots__:
        setattr(quiet, name, getattr(t, name))
    quiet.state = msgspec.structs.replace(
        t.state, chat=Trail([(seat, "") for seat, _ in chat], len(chat)), log=Trail()
    )
    quiet.command_ids = {}
    t.command_ids = {**t.command_ids, **{(i % 8, f"c{i}"): i for i in range(5000)}}
    data = snapshots.encode(t)
    assert data == snapshots.encode(quiet) and len(data) < snapshots.TOO_BIG // 20
    again = snapshots.decode(data, "talk")
    assert again is not None and again.state.step == "finished"
    assert [seat for seat, _ in again.state.chat] == [seat for seat, _ in chat]


def test_a_snapshot_of_another_version_or_table_is_ignored(monkeypatch):
    log = logged("tbl", 4, 7, 0)
    t = FoldedTable("tbl")
    for stored in log.all()[:20]:
        t.apply(stored)
    data = snapshots.encode(t)
    assert snapshots.decode(data, "tbl") is not None
    assert snapshots.decode(data, "other") is None
    assert snapshots.decode(b"not a snapshot", "tbl") is None
    monkeypatch.setattr(snapshots, "FOLD", snapshots.FOLD + 1)
    assert snapshots.decode(data, "tbl") is None
    monkeypatch.setattr(snapshots, "FOLD", snapshots.FOLD - 1)
    monkeypatch.setattr(snapshots, "SCHEMA", entries.SCHEMA + 1)
    assert snapshots.decode(data, "tbl") is None
    assert msgspec.msgpack.decode(data)["schema"] == entries.SCHEMA


def test_snapshots_are_owed_every_n_entries_and_written_by_a_flush():
    log = logged("tbl", 5, 3, 1)

    async def go():
        store = MemoryKeyValue()
        kept = snapshots.Snapshots(store, every=10)
        t = FoldedTable("tbl")
        for stored in log.all()[:25]:
            t.apply(stored)
            kept.folded(t)
        assert await kept.flush() == 1 and store.puts == 1  # the 10th and the 20th: one write
        assert (await kept.load("tbl")).seq == t.seq  # written as the table was at the flush
        kept.owe_all([t])  # 5 entries since: owed when the worker stops
        assert await kept.flush() == 1
        assert await kept.load("nothing") is None

    asyncio.run(go())


def test_a_table_handed_over_is_owed_no_snapshot():
    async def go():
        store = MemoryKeyValue()
        kept = snapshots.Snapshots(store, every=2)
        mine, theirs = FoldedTable("00000000000000a1"), FoldedTable("00000000000000b1")
        for t in (mine, theirs):
            kept.folded(t)
        kept.owe(theirs)
        kept.let_go(lambda table_id: table_id == theirs.table_id)
        assert kept.owed == 0
        kept.folded(theirs)  # counted from nothing again
        kept.folded(mine)  # its second entry: owed
        assert kept.owed == 1 and await kept.flush() == 1
        assert await store.get(theirs.table_id) is None

    asyncio.run(go())


def test_a_finished_tables_last_snapshot_is_kept_a_day_and_one_in_play_for_good():
    playing, ended = logged("playing", 4, 7, 0).all(), logged("ended", 4, 9, 0).all()
    now = [1000.0]

    async def go():
        store = MemoryKeyValue(clock=lambda: now[0])
        kept = snapshots.Snapshots(store)
        for table_id, stored in (("playing", playing[:30]), ("ended", ended)):
            t = FoldedTable(table_id)
            for one in stored:
                t.apply(one)
            kept.owe(t)
        assert await kept.flush() == 2
        now[0] += snapshots.FINISHED_TTL - 1
        assert (await kept.load("ended")).state.step == "finished"
        now[0] += 2
        assert await kept.load("ended") is None  # the log is read from the start instead
        assert (await kept.load("playing")).seq == 30

    asyncio.run(go())
