"""Views made of finished tables whose views expired: kept for their next readers till the table
moves (a chat after the end), within a count and a number of bytes."""

from __future__ import annotations

from types import SimpleNamespace

from services.common import view_writer
from services.table.ended import EndedViews


def _table(table_id: str, seq: int) -> SimpleNamespace:
    return SimpleNamespace(table_id=table_id, seq=seq, recent={})


def test_a_made_view_is_kept_till_the_table_moves(monkeypatch):
    made = []
    monkeypatch.setattr(
        view_writer, "render_view", lambda t, seat, *_: made.append(t.seq) or b"v%d" % t.seq
    )
    ended = EndedViews((50, 50))
    first = ended.made(_table("a", 3), None)  # type: ignore[arg-type]
    assert ended.kept("a", None, 3) is first and ended.kept("a", 0, 3) is None
    assert ended.made(_table("a", 3), None) is first and made == [3]  # made once
    assert ended.kept("a", None, 5) is None  # a chat after the end: made again
    assert ended.made(_table("a", 5), None).data == b"v5" and made == [3, 5]


def test_made_views_are_kept_within_their_count_and_bytes(monkeypatch):
    monkeypatch.setattr(view_writer, "render_view", lambda *_: b"x" * 10)
    ended = EndedViews((50, 50))
    ended.KEEP_BYTES = 25
    for table in "abc":
        ended.made(_table(table, 1), None)  # type: ignore[arg-type]
    assert [ended.kept(t, None, 1) is not None for t in "abc"] == [False, True, True]
    ended.KEEP = 1
    ended.made(_table("d", 1), None)  # type: ignore[arg-type]
    assert [ended.kept(t, None, 1) is not None for t in "bcd"] == [False, False, True]
