"""RULES §8 (Zombies): N-2 Arms in the centre; a non-Leader seat that would be eliminated (shot,
bitten, or by a card) becomes a zombie instead: all its cards are revealed, it drops any gun,
keeps its equipment, and takes Arms aimed at itself. It leaves its old team and joins team Zombie.
A Leader is wounded, then eliminated, as usual (§4); a Bomber never becomes a zombie (§9)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from gcbc.rules import public_view
from gcbc.rules.effects import get_shot
from gcbc.rules.evolve import fold
from gcbc.rules.invariants import violations
from gcbc_contract.options import TableOptions
from tests.support import ZOMBIES, C, E, H, K, act, table
from tests.unit.rules.equipment.scenario import EIGHT, FIVE, FOUR, deal, of, one, team
from tests.unit.rules.zombies.given import BOMBER_DEAL, BOTH, risen, zdeal


@pytest.mark.parametrize(("integrity", "arms"), [(FOUR, 2), (FIVE, 3), (EIGHT, 6)])
def test_n_minus_two_arms_in_the_centre(integrity, arms):
    """RULES §8: the expansion adds N-2 Arms in the centre; the guns are as in the base game."""
    s = table(integrity, options=ZOMBIES)
    n = len(integrity)
    assert s.arms_in_centre == arms and s.guns_in_centre == n
    assert public_view(s, log=False).arms_in_centre == arms
    assert not any(st.zombie or st.arms_aim is not None for st in s.seats)


def test_no_arms_without_the_expansion():
    """RULES §8: Arms come only with the Zombies expansion."""
    assert table(FOUR).arms_in_centre == 0
    assert table(FOUR, options=TableOptions(extra_equipment=True)).arms_in_centre == 0


def test_a_shot_non_leader_becomes_a_zombie_instead_of_being_eliminated():
    """RULES §8: seat 0 shoots seat 2 (no Leader): its face-down cards are revealed, it becomes a
    zombie (not eliminated), keeps its equipment, takes Arms aimed at itself; the shooter's gun
    goes to the centre as after any shot (§3.1)."""
    s = deal({2: "coffee"}, guns={0: 2}, options=ZOMBIES)
    s, events = act(s, C.Shoot(seat=0))
    s, more = act(s, C.Pass(seat=2))
    events = [*events, *more]
    i = events.index(E.SeatShot(shooter=0, target=2))
    assert events[i + 1 : i + 6] == [
        E.CardRevealed(seat=2, position=1, card_id=6, card=H),
        E.CardRevealed(seat=2, position=2, card_id=7, card=K),
        E.CardRevealed(seat=2, position=3, card_id=8, card=H),
        E.BecameZombie(seat=2, by=0),
        E.GunDropped(seat=0),
    ]
    assert of(events, E.SeatEliminated) == []
    st = s.seat(2)
    assert st.zombie and not st.eliminated and st.face_up == (True, True, True)
    assert st.arms_aim == 2 and st.hand == ("coffee",) and not st.gun
    assert s.arms_in_centre == 1 and s.guns_in_centre == 4
    assert s.winners is None and violations(s) == []


def test_a_zombie_drops_its_gun_to_the_centre_and_is_no_longer_locked():
    """RULES §8: it drops any gun (to the centre); guns aimed at it stay aimed (it is alive)."""
    s = zdeal(guns={0: 2, 2: 1, 3: 2})
    centre = s.guns_in_centre
    s = risen(s, 2, shooter=3)
    assert not s.seat(2).gun and s.seat(2).aim is None
    assert s.guns_in_centre == centre + 1
    assert s.seat(0).aim == 2 and s.seat(3).aim == 2


def test_the_zombie_leaves_its_old_team_for_team_zombie():
    """RULES §8: it leaves its old team and joins team Zombie (its own view says so)."""
    s = zdeal()
    assert team(s, 2) == "honest"
    s = risen(s, 2)
    assert team(s, 2) == "zombie"
    assert team(s, 3) == "crooked"


def test_a_zombie_keeps_its_equipment_and_is_asked_in_windows():
    """RULES §8 (keeps its equipment), §6 (every living holder is asked): a zombie is alive."""
    s = zdeal({2: "coffee"}, zombies={2: 2}, guns={0: 1})
    s, events = act(s, C.Shoot(seat=0))
    assert one(events, E.WindowOpened) == E.WindowOpened(kind="shoot", asked=(2,))


def test_a_shot_leader_is_wounded_not_made_a_zombie():
    """RULES §8 (non-Leader only), §4: the Kingpin shot once is wounded and draws."""
    s = deal({}, guns={0: 1}, options=ZOMBIES, deck=["wiretap"])
    s, events = act(s, C.Shoot(seat=0))
    assert one(events, E.LeaderWounded).seat == 1
    assert one(events, E.EquipmentDrawn) == E.EquipmentDrawn(seat=1, card="wiretap")
    assert of(events, E.BecameZombie) == [] and not s.seat(1).zombie
    assert s.arms_in_centre == 2


def test_a_wounded_leader_shot_is_eliminated_not_made_a_zombie():
    """RULES §8, §4, §2: the wounded Kingpin shot again is eliminated; Honest wins; the zombie
    (seat 2, once Honest) is not among the winners."""
    s = zdeal(zombies={2: 0}, guns={0: 1})
    s = fold(get_shot(s, 3, 1), s)  # the Kingpin was wounded earlier
    assert 3 in s.wounds
    s, events = act(s, C.Shoot(seat=0))
    s, more = act(s, C.Pass(seat=1))  # the Kingpin drew a card when wounded
    events += more
    assert one(events, E.SeatEliminated) == E.SeatEliminated(seat=1, by=0)
    assert of(events, E.BecameZombie) == []
    assert one(events, E.GameWon) == E.GameWon(
        winners=(0,), team="honest", reason="kingpin_eliminated"
    )


def test_a_bomber_never_becomes_a_zombie():
    """RULES §9 ('A Bomber never becomes a zombie'), §8: with both expansions, seat 0 shoots the
    Bomber (seat 3): it is eliminated, and the Bombers win (§9.2)."""
    s = deal({}, integrity=BOMBER_DEAL, guns={0: 3}, options=BOTH)
    s, events = act(s, C.Shoot(seat=0))
    assert one(events, E.SeatEliminated) == E.SeatEliminated(seat=3, by=0)
    assert of(events, E.BecameZombie) == []
    assert one(events, E.GameWon) == E.GameWon(winners=(3,), team="bomber", reason="bomber_shot")


def test_a_traitor_becomes_a_zombie():
    """RULES §8, §9: a Traitor (no Leader, not a Bomber) rises as a zombie and leaves its team."""
    s = deal({}, integrity=BOMBER_DEAL, guns={0: 2}, options=BOTH)
    assert team(s, 2) == "traitor"
    s, events = act(s, C.Shoot(seat=0))
    assert one(events, E.BecameZombie) == E.BecameZombie(seat=2, by=0)
    assert team(s, 2) == "zombie" and s.winners is None


def test_a_zombie_with_a_face_down_or_leader_card_is_an_invariant_violation():
    """RULES §8 (a zombie's cards are all revealed; Decision: no card moves a zombie's integrity
    cards, so it never holds a Leader): the invariants the simulator checks after every event say
    so, should an engine change ever break it."""
    s = risen(zdeal(), 2)
    assert violations(s) == []
    down = replace(s.seat(2), face_up=(True, False, True))
    assert violations(replace(s, seats=(*s.seats[:2], down, s.seats[3]))) == [
        "zombie 2 holds a face-down or a Leader card"
    ]
    leader = replace(s.seat(2), cards=(0, *s.seat(2).cards[1:]))
    agent = replace(s.seat(0), cards=s.seat(2).cards[:1] + s.seat(0).cards[1:])
    swapped = violations(replace(s, seats=(agent, s.seats[1], leader, s.seats[3])))
    assert "zombie 2 holds a face-down or a Leader card" in swapped
