"""Who is matched with whom: the same options and rated choice, a seat count every player at the
table accepts (the largest that can be made), ratings close for a rated game with each player's
allowance widening with its wait, the longest waiting first, and house bots only for those who
asked, after their wait."""

from __future__ import annotations

import pytest

from gcbc.queue.matching import (
    GAP_MAX,
    GAP_PER_SECOND,
    GAP_START,
    SIGMA,
    Table,
    Waiting,
    allowed_gap,
    find_table,
    find_tables,
)

S = 1000  # ms


def w(
    pid: str,
    seats=(4,),
    kind: bytes = b"base",
    rated: bool = False,
    mu: float = 25.0,
    since: int = 0,
    bots_after: float | None = None,
) -> Waiting:
    return Waiting(pid, tuple(seats), kind, rated, mu, since, bots_after)


def test_the_gap_starts_narrow_widens_linearly_and_stops_at_three_sigmas():
    assert allowed_gap(0) == pytest.approx(SIGMA / 4) == GAP_START
    assert allowed_gap(60) == pytest.approx(GAP_START + SIGMA)
    assert allowed_gap(30) - allowed_gap(20) == pytest.approx(10 * GAP_PER_SECOND)
    assert allowed_gap(10_000) == GAP_MAX == pytest.approx(25.0)
    assert allowed_gap(-5) == GAP_START  # a clock a little behind never narrows it


def test_no_table_until_enough_players_accept_one_seat_count():
    assert find_table([w("a"), w("b"), w("c")], 0, house_bots=False) is None
    got = find_table([w("a"), w("b"), w("c"), w("d")], 0, house_bots=False)
    assert got == Table(4, ("a", "b", "c", "d"))


def test_the_seat_count_is_one_every_player_accepts_and_the_largest_that_can_be_made():
    waiting = [w("a", (4, 5), since=0), w("b", (5, 6), since=1), w("c", (4, 5)), w("d", (5,))]
    assert (
        find_table(waiting, 10, house_bots=False) is None
    )  # 4 players: none accepts 4 with "b", "d"
    got = find_table([*waiting, w("e", (4, 5, 6), since=5)], 10, house_bots=False)
    assert got is not None and got.seats == 5 and set(got.players) == {"a", "b", "c", "d", "e"}
    six = [w(str(i), (4, 6), since=i) for i in range(6)]
    assert find_table(six, 10, house_bots=False) == Table(6, tuple(str(i) for i in range(6)))


def test_only_players_asking_the_same_options_and_rated_choice_meet():
    waiting = [w("a", kind=b"x"), w("b", kind=b"y"), w("c", kind=b"x"), w("d", kind=b"y")]
    waiting += [w("e", kind=b"x")]
    assert find_table(waiting, 0, house_bots=False) is None
    got = find_table([*waiting, w("f", kind=b"x")], 0, house_bots=False)
    assert got == Table(4, ("a", "c", "e", "f"))


def test_the_longest_waiting_is_served_first():
    waiting = [w(p, since=t) for p, t in (("late", 9), ("first", 1), ("b", 2), ("c", 3), ("d", 4))]
    got = find_table(waiting, 10, house_bots=False)
    assert got is not None and got.players[0] == "first" and "late" not in got.players


def test_rated_players_meet_only_within_every_players_allowance_which_widens_with_the_wait():
    mus = {"a": 20.0, "b": 21.0, "c": 22.0, "d": 30.0}
    waiting = [w(p, rated=True, mu=mu, since=0) for p, mu in mus.items()]
    # a spread of 10 needs every one's allowance to reach it: (10 - start) / per-second seconds
    needed = (10.0 - GAP_START) / GAP_PER_SECOND
    assert find_table(waiting, 0, house_bots=False) is None
    assert find_table(waiting, int((needed - 1) * S), house_bots=False) is None
    got = find_table(waiting, int((needed + 1) * S), house_bots=False)
    assert got is not None and set(got.players) == set(mus)


def test_a_newcomer_is_not_given_a_wider_spread_than_its_own_wait_allows():
    old = [w(p, rated=True, mu=mu, since=0) for p, mu in (("a", 20.0), ("b", 20.5), ("c", 21.0))]
    now = 120 * S  # the old ones accept a spread of about 19 by now
    assert find_table([*old, w("far", rated=True, mu=35.0, since=now)], now, False) is None
    near = w("near", rated=True, mu=21.5, since=now)  # within the newcomer's own first gap
    assert find_table([*old, near], now, False) == Table(4, ("a", "b", "c", "near"))


def test_the_closest_ratings_are_chosen_among_many():
    waiting = [w("a", rated=True, mu=25.0, since=0)]
    waiting += [w(f"p{i}", rated=True, mu=25.0 + i, since=1) for i in range(1, 8)]
    got = find_table(waiting, 30 * S, house_bots=False)
    assert got == Table(4, ("a", "p1", "p2", "p3"))


def test_house_bots_fill_a_table_after_the_wait_asked_for_only_where_the_server_offers_them():
    alone = [w("a", (4, 6), since=0, bots_after=10)]
    assert find_table(alone, 9 * S, house_bots=True) is None
    assert find_table(alone, 11 * S, house_bots=False) is None
    assert find_table(alone, 11 * S, house_bots=True) == Table(4, ("a",), 3)


def test_house_bots_join_only_players_who_asked_for_them():
    waiting = [w("a", since=0, bots_after=0), w("no_bots", since=1), w("b", since=2, bots_after=60)]
    assert find_table(waiting, 5 * S, house_bots=True) == Table(4, ("a", "b"), 2)


def test_house_bots_fill_tables_only_in_the_seats_the_house_has_free():
    """The house plays so many seats at once over the whole server (``GCBC_HOUSE_SEATS``): a
    table whose bots would pass what is free is not made, its players wait on; one needing
    fewer, further on, may be; players alone are matched as ever."""
    waiting = [
        w("a", (4,), since=0, bots_after=0),  # three bots
        w("b", (6,), since=1, bots_after=0),  # five bots
        w("c", (5,), since=2),
        *(w(f"q{i}", (5,), since=3 + i) for i in range(4)),
    ]
    players_only = Table(5, ("c", "q0", "q1", "q2", "q3"))
    assert find_tables(waiting, 5 * S, house_bots=True, house_seats=2) == [players_only]
    assert find_tables(waiting, 5 * S, house_bots=True, house_seats=5) == [
        Table(4, ("a",), 3),
        players_only,
    ]  # the three taken, two left: not the five the next one needs
    assert find_tables(waiting, 5 * S, house_bots=True, house_seats=8) == [
        Table(4, ("a",), 3),
        Table(6, ("b",), 5),
        players_only,
    ]


def test_a_rated_table_is_gathered_outwards_from_the_anchor_ties_to_the_first_come():
    anchor = w("a", rated=True, mu=25.0, since=0)
    # equally far below and above: the one that came first is taken first, either side
    around = [
        w("below_late", rated=True, mu=24.0, since=3),
        w("above_early", rated=True, mu=26.0, since=1),
        w("same_late", rated=True, mu=25.0, since=5),
        w("below_early", rated=True, mu=24.0, since=2),
        w("far", rated=True, mu=40.0, since=0),
    ]
    got = find_table([anchor, *around], 60 * S, house_bots=False)
    assert got == Table(4, ("a", "same_late", "above_early", "below_early"))


def test_one_look_makes_every_table_it_can_each_from_the_players_the_ones_before_left():
    waiting = [w(f"p{i}", (4, 5), since=i) for i in range(10)]
    waiting += [w("six", (6,), since=0)]
    assert find_tables(waiting, 100, house_bots=False) == [
        Table(5, ("p0", "p1", "p2", "p3", "p4")),
        Table(5, ("p5", "p6", "p7", "p8", "p9")),
    ]
    assert find_tables(waiting, 100, house_bots=False, limit=1) == [
        Table(5, ("p0", "p1", "p2", "p3", "p4"))
    ]
    assert find_tables(waiting[:3], 100, house_bots=False) == []
