"""Ratings from a rated table's end (OpenSkill Plackett-Luce): the winners go up, the others
down, a seat that left loses whatever its team did, the house's seats move as one rater, and the
same table rated in the same order gives the same numbers."""

from __future__ import annotations

from gcbc.playermodel.port import Rating
from gcbc_contract.options import TableOptions
from services.common.ratings import HOUSE, RatedSeat, pool_of, rate


def _seats(*rows: tuple[str, str, bool, bool]) -> list[RatedSeat]:
    return [RatedSeat(rater, team, won, left) for rater, team, won, left in rows]


def test_the_winners_go_up_and_the_others_down():
    seats = _seats(
        ("ann", "honest", True, False),
        ("bob", "honest", True, False),
        ("cy", "crooked", False, False),
        ("dee", "crooked", False, False),
    )
    new = rate({}, seats)
    assert new["ann"].mu > 25 > new["cy"].mu
    assert new["ann"] == new["bob"] and new["cy"] == new["dee"]
    assert all(r.games == 1 and r.sigma < 25 / 3 for r in new.values())
    again = rate(new, seats)
    assert again["ann"].mu > new["ann"].mu and again["ann"].games == 2
    assert rate({}, seats) == new  # the same table, the same numbers


def test_a_seat_that_left_loses_even_when_its_team_won():
    seats = _seats(
        ("ann", "honest", True, False),
        ("bob", "honest", True, True),
        ("cy", "crooked", False, False),
        ("dee", "crooked", False, False),
    )
    new = rate({}, seats)
    assert new["bob"].mu < 25 < new["ann"].mu  # ranked last, alone: a loss


def test_the_house_moves_as_one_rater_by_its_seats_mean():
    house = HOUSE + "heuristic"
    seats = _seats(
        ("ann", "honest", True, False),
        (house, "honest", True, False),
        (house, "crooked", False, False),
        (house, "crooked", False, False),
    )
    new = rate({house: Rating(mu=30.0, sigma=5.0, games=4)}, seats)
    assert set(new) == {"ann", house} and new[house].games == 5


def test_one_team_alone_is_not_rated():
    assert rate({}, _seats(("ann", "honest", True, False), ("bob", "honest", True, False))) == {}


def test_the_pools_are_the_expansions_played():
    assert pool_of(TableOptions()) == "base"
    assert pool_of(TableOptions(edition="classic", extra_equipment=True)) == "base"
    assert pool_of(TableOptions(zombies=True)) == "zombies"
    assert pool_of(TableOptions(bombers_traitors=True)) == "bombers_traitors"
    both = TableOptions(zombies=True, bombers_traitors=True)
    assert pool_of(both) == "zombies_bombers_traitors"
