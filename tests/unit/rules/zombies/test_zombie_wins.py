"""RULES §8 (a bite that eliminates a wounded Leader: the zombies win), §9 win precedence (3b: a
living Traitor, not a zombie, wins first; 3c: else a zombie that eliminated the Leader makes the
zombies win; 3d: else the Leader's opponents, §2). Zombies have left their old team."""

from __future__ import annotations

from gcbc.rules import public_view
from gcbc.rules.effects import get_shot
from gcbc.rules.evolve import fold
from tests.support import KP, A, C, E, act
from tests.unit.rules.equipment.scenario import deal, give_guns, of, one
from tests.unit.rules.zombies.given import BOTH, arms_at, risen, zdeal


def wounded(s, seat, by):
    """Given: the Leader at ``seat`` was shot once earlier (wounded, it drew a card)."""
    return fold(get_shot(s, by, seat), s)


def bite(s, zombie):
    """``zombie`` bites; everyone asked passes the bite window. The events."""
    return acted(s, C.Bite(seat=zombie))


def acted(s, command):
    """``command`` as the turn's action; everyone asked passes its window. The events."""
    s, events = act(s, command)
    while s.step == "window":
        s, more = act(s, C.Pass(seat=min(s.window.pending)))
        events += more
    return s, events


def test_a_bite_that_eliminates_the_wounded_kingpin_makes_the_zombies_win():
    """RULES §8 ('a wounded Leader is eliminated, and the zombies win'), §9.3c: the winners are the
    zombies (seat 2, once Honest, and seat 3, once Crooked), not the Honest team."""
    s = zdeal(zombies={2: 1, 3: 0}, first_seat=2)
    s = wounded(s, 1, by=0)
    s, events = bite(s, 2)
    assert one(events, E.SeatBitten) == E.SeatBitten(biter=2, target=1)
    assert one(events, E.SeatEliminated) == E.SeatEliminated(seat=1, by=2)
    assert one(events, E.GameWon) == E.GameWon(
        winners=(2, 3), team="zombie", reason="kingpin_eliminated"
    )
    assert s.step == "finished" and s.win_team == "zombie"
    assert public_view(s, log=False).winners == [2, 3]


def test_a_bite_that_eliminates_the_wounded_agent_makes_the_zombies_win():
    """RULES §8, §9.3c: the Agent bitten to death: the zombies win, not the Crooked team."""
    s = zdeal(zombies={3: 0}, first_seat=3)
    s = wounded(s, 0, by=1)
    s, events = bite(s, 3)
    assert one(events, E.GameWon) == E.GameWon(
        winners=(3,), team="zombie", reason="agent_eliminated"
    )


def test_a_bite_on_an_unwounded_leader_wins_nothing():
    """RULES §8: an unwounded Leader is only wounded."""
    s = zdeal(zombies={2: 1}, first_seat=2)
    s, events = bite(s, 2)
    assert one(events, E.LeaderWounded).seat == 1
    assert of(events, E.GameWon) == [] and s.winners is None


def test_a_leader_shot_dead_by_a_gun_gives_the_usual_win():
    """RULES §9.3d, §2: the wounded Kingpin eliminated by seat 0's gun: Honest wins, though a
    zombie is in play; the zombie (seat 2, once Honest) does not win with its old team."""
    s = zdeal(zombies={2: 1}, guns={0: 1})
    s = wounded(s, 1, by=3)
    s, events = acted(s, C.Shoot(seat=0))
    assert one(events, E.SeatEliminated) == E.SeatEliminated(seat=1, by=0)
    assert one(events, E.GameWon) == E.GameWon(
        winners=(0,), team="honest", reason="kingpin_eliminated"
    )


def test_a_leader_shot_dead_by_a_seat_that_was_once_a_zombie_gives_the_usual_win():
    """RULES §9.3c applies to a zombie only: seat 3, cured earlier (Defibrillator), takes a gun
    and shoots the wounded Agent: Crooked wins (its cards decide its team again)."""
    s = zdeal(zombies={3: 3}, first_seat=3)
    s = give_guns(fold([E.ZombieCured(seat=3)], s), {3: 0})
    s = wounded(s, 0, by=1)
    s, events = acted(s, C.Shoot(seat=3))
    assert one(events, E.SeatEliminated) == E.SeatEliminated(seat=0, by=3)
    assert one(events, E.GameWon) == E.GameWon(
        winners=(1, 3), team="crooked", reason="agent_eliminated"
    )


# 4 seats with both expansions: seat 2 is a Traitor (three knives), seat 3 is no Bomber or Traitor
TRAITOR_DEAL = [
    [A, "honest_bomb", "crooked_bomb"],
    [KP, "crooked_bomb", "crooked_bomb_knife"],
    ["honest_knife", "honest_knife", "honest_bomb_knife"],
    ["crooked_knife", "crooked_knife", "honest_bomb"],
]


def test_a_living_traitor_wins_before_the_zombies():
    """RULES §9.3b before §9.3c: the wounded Agent bitten to death by the zombie (seat 3) while a
    Traitor (seat 2) is alive and no zombie: the Traitors win."""
    s = deal({}, integrity=TRAITOR_DEAL, options=BOTH, first_seat=3)
    s = arms_at(risen(s, 3), 3, 0)
    s = wounded(s, 0, by=1)
    s, events = bite(s, 3)
    assert one(events, E.SeatEliminated) == E.SeatEliminated(seat=0, by=3)
    assert one(events, E.GameWon) == E.GameWon(
        winners=(2,), team="traitor", reason="agent_eliminated"
    )


def test_a_traitor_turned_zombie_no_longer_wins_as_a_traitor():
    """RULES §9.3b ('if a Traitor is alive (and not a zombie)'), §9.3c: the Traitor became a zombie
    too: the zombies (seats 2 and 3) win."""
    s = deal({}, integrity=TRAITOR_DEAL, options=BOTH, first_seat=3)
    s = arms_at(risen(risen(s, 3), 2), 3, 0)
    s = wounded(s, 0, by=1)
    s, events = bite(s, 3)
    assert one(events, E.GameWon) == E.GameWon(
        winners=(2, 3), team="zombie", reason="agent_eliminated"
    )
