"""What a client is shown of the log's positions (services.table.positions): a 202's position
and the lobby's cursor tell nothing of the log's sequence, so nothing of what other tables do."""

from __future__ import annotations

import random

import pytest

from services.table.positions import MAX_CURSOR, Positions

SECRET = b"s" * 32


def test_a_position_is_the_same_for_the_same_entry_and_fits_a_javascript_number() -> None:
    p = Positions(SECRET)
    assert p.of("a1", 17) == p.of("a1", 17) == Positions(SECRET).of("a1", 17)  # another process
    rng = random.Random(1)
    seqs = [rng.randrange(1, 2**40) for _ in range(2000)]
    shown = [p.of("a1", seq) for seq in seqs]
    assert all(0 <= x < 2**53 for x in shown)
    assert len(set(shown)) == len(set(seqs))


def test_a_position_says_nothing_of_the_sequence() -> None:
    """Consecutive entries get unrelated numbers, another table's entry at the same sequence
    another number, and another secret other numbers altogether."""
    p = Positions(SECRET)
    shown = [p.of("a1", seq) for seq in range(1, 201)]
    assert shown != sorted(shown) and not set(shown) & set(range(1, 201))
    steps = {b - a for a, b in zip(shown, shown[1:], strict=False)}
    assert len(steps) == 199  # no common step: the next one cannot be guessed from the last
    assert [p.of("b2", seq) for seq in range(1, 201)] != shown
    assert [Positions(b"t" * 32).of("a1", seq) for seq in range(1, 201)] != shown


def test_a_cursor_leads_back_to_its_sequence() -> None:
    p = Positions(SECRET)
    rng = random.Random(2)
    for seq in [1, 2, 3, MAX_CURSOR, *(rng.randrange(1, MAX_CURSOR) for _ in range(2000))]:
        cursor = p.cursor(seq)
        assert 0 < cursor <= MAX_CURSOR
        assert p.after(cursor) == seq
        assert Positions(SECRET).after(cursor) == seq  # another process of the service
    assert p.after(0) == 0  # the first page


def test_cursors_say_nothing_of_the_sequence() -> None:
    p = Positions(SECRET)
    cursors = [p.cursor(seq) for seq in range(1, 1001)]
    assert len(set(cursors)) == 1000 and cursors != sorted(cursors)
    assert sum(a < b for a, b in zip(cursors, cursors[1:], strict=False)) in range(400, 600)


def test_any_cursor_names_some_place_and_zero_is_never_made() -> None:
    p = Positions(SECRET)
    rng = random.Random(3)
    for cursor in (rng.randrange(1, MAX_CURSOR + 1) for _ in range(2000)):
        seq = p.after(cursor)
        assert 0 < seq <= MAX_CURSOR and p.cursor(seq) == cursor
    with pytest.raises(ValueError):
        p.cursor(0)
    with pytest.raises(ValueError):
        p.cursor(MAX_CURSOR + 1)
