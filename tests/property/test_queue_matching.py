"""The indexed matching (``Lineup``) makes the very table the plain one would: every anchor in the
order players came, every other player of its kind sorted by its distance in rating (this file's
``reference_table``, the rules as first written, comparing every pair); and ``find_tables`` is
``find_table`` again and again, each table's players taken out."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from gcbc.queue.matching import Table, Waiting, allowed_gap, find_table, find_tables

MUS = st.one_of(st.sampled_from([10.0, 20.0, 22.5, 25.0, 27.5, 30.0, 40.0]), st.floats(0, 50))


@st.composite
def waiting_players(draw: st.DrawFn) -> list[Waiting]:
    count = draw(st.integers(0, 16))
    out = []
    for i in range(count):
        kind = draw(st.sampled_from([b"base", b"zombies"]))
        out.append(
            Waiting(
                player_id=f"p{i}",
                seats=tuple(draw(st.sets(st.integers(4, 8), min_size=1, max_size=3))),
                kind=kind,
                rated=draw(st.booleans()) if kind == b"zombies" else True,
                mu=draw(MUS),
                since=draw(st.integers(0, 400_000)),
                bots_after=draw(st.one_of(st.none(), st.sampled_from([0.0, 30.0, 600.0]))),
            )
        )
    return out


@settings(max_examples=400, deadline=None)
@given(waiting_players(), st.integers(0, 600_000), st.booleans())
def test_the_indexed_matching_makes_the_same_table(
    waiting: list[Waiting], now: int, house_bots: bool
) -> None:
    assert find_table(waiting, now, house_bots) == reference_table(waiting, now, house_bots)


@settings(max_examples=200, deadline=None)
@given(waiting_players(), st.integers(0, 600_000), st.booleans())
def test_every_table_of_a_look_is_the_next_one_of_the_players_left(
    waiting: list[Waiting], now: int, house_bots: bool
) -> None:
    left, expected = list(waiting), []
    while (table := reference_table(left, now, house_bots)) is not None:
        expected.append(table)
        left = [w for w in left if w.player_id not in table.players]
    assert find_tables(waiting, now, house_bots) == expected


def test_ratings_a_rounding_step_apart_are_not_as_near():
    """Anchored at 20, a rating of 1e-300 and one of 0 are both 20.0 away in floating point;
    the first is nearer, so it comes first, whoever came earlier (the same across the anchor)."""
    anchor = Waiting("a", (3,), b"base", True, 20.0, 0)
    zero = Waiting("zero", (3,), b"base", True, 0.0, 1)
    tiny = Waiting("tiny", (3,), b"base", True, 1e-300, 2)
    far = 600_000  # every allowance at its widest
    expected = Table(3, ("a", "tiny", "zero"))
    assert find_table([anchor, zero, tiny], far, False) == expected
    assert reference_table([anchor, zero, tiny], far, False) == expected
    # on either side of the anchor: 1 - 1e-17 and 2 - 1 are both 1.0 in floating point
    anchor = Waiting("a", (3,), b"base", True, 1.0, 0)
    above = Waiting("above", (3,), b"base", True, 2.0, 1)
    below = Waiting("below", (3,), b"base", True, 1e-17, 2)
    expected = Table(3, ("a", "below", "above"))
    assert find_table([anchor, above, below], far, False) == expected
    assert reference_table([anchor, above, below], far, False) == expected


# --- the rules as first written: every pair compared -----------------------------------------
def _spread_ok(group: list[Waiting], now: int) -> bool:
    mus = [w.mu for w in group]
    allowed = min(allowed_gap((now - w.since) / 1000) for w in group)
    return max(mus) - min(mus) <= allowed


def _gather(anchor: Waiting, others: list[Waiting], n: int, now: int) -> list[Waiting]:
    """The anchor and up to n-1 of ``others`` (accepting n), the closest ratings first for a
    rated game (else the longest waiting), each added only while the spread stays allowed."""
    fits = [w for w in others if n in w.seats]
    if anchor.rated:
        # the exact distance: ratings a rounding step apart are not as near in floating point
        fits.sort(key=lambda w: (abs(Fraction(w.mu) - Fraction(anchor.mu)), w.since))
    group = [anchor]
    for w in fits:
        if len(group) == n:
            break
        if not anchor.rated or _spread_ok([*group, w], now):
            group.append(w)
    return group


def reference_table(waiting: list[Waiting], now: int, house_bots: bool) -> Table | None:
    """The first table that can be made of the waiting players now (None: none yet)."""
    queue = sorted(waiting, key=lambda w: w.since)
    for anchor in queue:
        others = [w for w in queue if w.kind == anchor.kind and w.player_id != anchor.player_id]
        for n in sorted(set(anchor.seats), reverse=True):
            group = _gather(anchor, others, n, now)
            if len(group) == n:
                return Table(n, tuple(w.player_id for w in group))
        if house_bots and anchor.bots_after is not None:
            if (now - anchor.since) / 1000 >= anchor.bots_after:
                n = min(anchor.seats)
                willing = [w for w in others if w.bots_after is not None]
                group = _gather(anchor, willing, n, now)[: n - 1]
                return Table(n, tuple(w.player_id for w in group), n - len(group))
    return None
