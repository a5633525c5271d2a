"""RULES §9: the win precedence, checked after every shot, bite and card movement:
1 both Leaders in one hand; 2 a Bomber shot by another seat; 3 a Leader eliminated: a by a
Bomber's gun, b a Traitor alive, c by a zombie, d otherwise the Leader's opponents."""

from __future__ import annotations

from typing import Any

import pytest

from gcbc.rules.effects import get_shot
from gcbc.rules.evolve import fold
from gcbc.rules.flow import advance
from gcbc.rules.state import State
from gcbc.rules.teams import winner
from gcbc_contract.options import TableOptions
from tests.support import KP, A, C, E, act, pass_window
from tests.unit.rules.bombers_traitors.givens import (
    BOMBER_ONLY,
    CB,
    CBK,
    CK,
    HB,
    HBK,
    HK,
    NO_ROLES,
    TWO_BOMBERS,
    ZOMBIES_BT,
    bt_deal,
    zombie,
)
from tests.unit.rules.equipment.scenario import end_turn, of, one, play, shot_earlier

# seat 2 a Traitor (HK, HBK, CBK), seat 3 crooked (HB, CB, CK), no Bomber
TRAITOR_ONLY = [[A, HB, CK], [KP, CB, HK], [HK, HBK, CBK], [HB, CB, CK]]


def won(events: list[Any]) -> tuple[tuple[int, ...], str, str]:
    w = one(events, E.GameWon)
    return w.winners, w.team, w.reason


def fire(s: State, seat: int, action: Any = C.Shoot) -> tuple[State, list[Any]]:
    """``seat`` shoots (or bites) as its action; every window is passed. All the events."""
    start = len(s.log)
    s, _ = act(s, action(seat=seat))
    s = pass_window(s)
    return s, list(s.log)[start:]


def wounded(s: State, leader_seat: int, by: int = 0) -> State:
    """Given: the Leader at ``leader_seat`` was shot once earlier (wounded)."""
    s = shot_earlier(s, leader_seat, shooter=by)
    assert not s.seat(leader_seat).eliminated
    return s


def goes_on(s: State) -> None:
    """The game is not won: what follows by itself ends nothing."""
    assert winner(s) is None
    s, events = advance(s)
    assert of(events, E.GameWon) == [] and s.step != "finished"


# --- 1. both Leaders in one hand ----------------------------------------------------------------
def test_both_leaders_in_one_hand_win_alone_with_bombers_and_traitors_alive() -> None:
    """RULES §9.1: the Bomber (seat 2) blackmails seat 0 (Agent) and seat 1 (Kingpin) into
    exchanging seat 0's HB with the Kingpin: seat 0 wins alone, at once, though a Bomber and a
    Traitor are alive."""
    s = bt_deal({2: "blackmail"}, first_seat=2)
    s, events = act(s, play(2, "blackmail", targets=(0, 1), positions=(2, 1)))
    assert won(events) == ((0,), "solo", "both_leaders")


def test_both_leaders_in_one_hand_come_before_a_shot_bomber() -> None:
    """RULES §9.1 before §9.2 and §9.3: in one state, the Bomber was shot by seat 0, the wounded
    Kingpin eliminated and seat 0 holds both Leaders: seat 0 alone wins."""
    s = bt_deal(integrity=TWO_BOMBERS)
    s = fold(get_shot(s, 0, 2), s)
    s = fold(get_shot(s, 0, 1), s)
    s = fold(get_shot(s, 0, 1), s)
    assert s.seat(2).eliminated and s.seat(1).eliminated
    s = fold([E.CardsExchanged(seats=(0, 1), positions=(2, 1), card_ids=(1, 3), cards=(HK, KP))], s)
    assert winner(s) == ((0,), "solo", "both_leaders")


# --- 2. a Bomber shot by another seat -----------------------------------------------------------
def test_a_bomber_shot_by_another_seat_makes_all_bombers_win() -> None:
    """RULES §9.2: seat 0 shoots the Bomber at seat 2: it is eliminated and every Bomber (seats 2
    and 3) wins."""
    s = bt_deal(integrity=TWO_BOMBERS, guns={0: 2})
    s, events = fire(s, 0)
    assert one(events, E.SeatEliminated) == E.SeatEliminated(seat=2, by=0)
    assert won(events) == ((2, 3), "bomber", "bomber_shot")


def test_a_bomber_shot_by_itself_wins_nothing() -> None:
    """RULES §9.2 ("by another seat"): the Bomber shot by itself (as Zombie Serum or Chainsaw may
    do) is eliminated, and the game goes on."""
    s = bt_deal(integrity=TWO_BOMBERS)
    s = shot_earlier(s, 2, shooter=2)
    assert s.seat(2).eliminated and s.seat(2).fallen_by == 2
    goes_on(s)
    s = end_turn(s)
    assert s.step != "finished" and s.turn_number == 2


def test_a_bomber_eliminated_by_no_one_wins_nothing() -> None:
    """RULES §9.2 with §4 (classic: a wounded seat left without a Leader card is eliminated at
    once, by no one): seat 0, wounded, gives the Agent away for HBK and so holds three bombs; it
    falls as a Bomber, by no seat, and the game goes on."""
    options = TableOptions(edition="classic", bombers_traitors=True)
    integrity = [[A, HB, CB], [KP, HK, CK], [HBK, HB, CK], [CB, CBK, HK]]
    s = bt_deal(integrity=integrity, options=options)
    s = wounded(s, 0, by=1)
    assert s.seat(0).wounded
    s = fold([E.CardsExchanged(seats=(0, 2), positions=(1, 1), card_ids=(0, 6), cards=(A, HBK))], s)
    s, events = advance(s)
    assert one(events, E.SeatEliminated) == E.SeatEliminated(seat=0, by=None)
    assert of(events, E.GameWon) == [] and s.step != "finished"


def test_a_bomber_bitten_by_a_zombie_makes_all_bombers_win() -> None:
    """RULES §9.2 with §8 (a bite resolves like a shot; a Bomber never becomes a zombie): the
    zombie at seat 3 bites the Bomber at seat 2, which is eliminated: the Bombers win."""
    s = bt_deal(integrity=BOMBER_ONLY, options=ZOMBIES_BT, first_seat=2)
    s = zombie(s, 3, aim=2)
    s, events = fire(s, 3, C.Bite)
    assert of(events, E.BecameZombie) == []
    assert one(events, E.SeatEliminated) == E.SeatEliminated(seat=2, by=3)
    assert won(events) == ((2,), "bomber", "bomber_shot")


def test_a_shot_bomber_comes_before_an_eliminated_leader() -> None:
    """RULES §9.2 before §9.3: in one state the Bomber was shot by seat 0 and the Kingpin
    eliminated by seat 0 while a Traitor is alive: the Bombers win, not the Traitors."""
    s = bt_deal()
    s = fold(get_shot(s, 0, 2), s)
    s = fold(get_shot(s, 0, 1), s)
    s = fold(get_shot(s, 0, 1), s)
    assert winner(s) == ((2,), "bomber", "bomber_shot")


# --- 3a. a Leader eliminated by a Bomber's gun --------------------------------------------------
@pytest.mark.parametrize(("leader", "reason"), [(1, "kingpin_eliminated"), (0, "agent_eliminated")])
def test_a_leader_shot_dead_by_a_bomber_makes_the_bombers_win(leader, reason) -> None:
    """RULES §9.3a: the Bomber (seat 2) shoots the wounded Leader dead; no Traitor: the Bombers
    win (not the Leader's opponents)."""
    s = bt_deal(integrity=BOMBER_ONLY, first_seat=2, guns={2: leader})
    s = wounded(s, leader, by=3)
    s, events = fire(s, 2)
    assert one(events, E.SeatEliminated) == E.SeatEliminated(seat=leader, by=2)
    assert won(events) == ((2,), "bomber", reason)


def test_a_leader_shot_dead_by_a_bomber_with_a_traitor_alive_makes_both_win() -> None:
    """RULES §9.3a (and Traitors too if any Traitor is alive)."""
    s = bt_deal(first_seat=2, guns={2: 1})
    s = wounded(s, 1)
    s, events = fire(s, 2)
    assert won(events) == ((2, 3), "bomber_traitor", "kingpin_eliminated")


def test_a_dead_traitor_does_not_share_the_bombers_win() -> None:
    """RULES §9.3a: the Traitor (seat 3) was eliminated earlier: the Bombers win alone."""
    s = bt_deal(first_seat=2, guns={2: 1})
    s = shot_earlier(s, 3, shooter=0)
    s = wounded(s, 1)
    s, events = fire(s, 2)
    assert won(events) == ((2,), "bomber", "kingpin_eliminated")


# --- 3b. a Traitor alive ------------------------------------------------------------------------
def test_a_leader_eliminated_with_a_traitor_alive_makes_the_traitors_win() -> None:
    """RULES §9.3b: the Agent (seat 0) shoots the wounded Kingpin dead, but a Traitor (seat 3) is
    alive: the Traitors win, not the Honest team (nor the Bomber: it did not shoot)."""
    s = bt_deal(guns={0: 1})
    s = wounded(s, 1, by=2)
    s, events = fire(s, 0)
    assert won(events) == ((3,), "traitor", "kingpin_eliminated")


def test_a_traitor_alive_comes_before_a_zombie_kill() -> None:
    """RULES §9.3b before §9.3c: the zombie at seat 3 bites the wounded Kingpin dead while the
    Traitor at seat 2 is alive: the Traitors win."""
    s = bt_deal(integrity=TRAITOR_ONLY, options=ZOMBIES_BT, first_seat=2)
    s = wounded(s, 1)
    s = zombie(s, 3, aim=1)
    s, events = fire(s, 3, C.Bite)
    assert one(events, E.SeatEliminated) == E.SeatEliminated(seat=1, by=3)
    assert won(events) == ((2,), "traitor", "kingpin_eliminated")


@pytest.mark.parametrize("fate", ["eliminated", "zombie"])
def test_a_traitor_no_longer_alive_as_a_traitor_wins_nothing(fate) -> None:
    """RULES §9.3b (a Traitor alive, not a zombie): the Traitor was eliminated earlier, or rose as
    a zombie; the Agent shoots the wounded Kingpin dead: §9.3d, the Honest team wins."""
    options = ZOMBIES_BT if fate == "zombie" else TableOptions(bombers_traitors=True)
    s = bt_deal(integrity=TRAITOR_ONLY, options=options, guns={0: 1})
    s = shot_earlier(s, 2, shooter=3)
    assert s.seat(2).zombie == (fate == "zombie")
    s = wounded(s, 1)
    s, events = fire(s, 0)
    assert won(events) == ((0,), "honest", "kingpin_eliminated")


# --- 3c. by a zombie ----------------------------------------------------------------------------
@pytest.mark.parametrize(("leader", "reason"), [(1, "kingpin_eliminated"), (0, "agent_eliminated")])
def test_a_leader_bitten_dead_by_a_zombie_makes_the_zombies_win(leader, reason) -> None:
    """RULES §9.3c (no Traitor alive, not a Bomber's gun): the zombie at seat 3 bites the wounded
    Leader dead: the Zombies win (the Bomber alive wins nothing)."""
    s = bt_deal(integrity=BOMBER_ONLY, options=ZOMBIES_BT, first_seat=2)
    s = wounded(s, leader, by=2)
    s = zombie(s, 3, aim=leader, shooter=1 - leader)
    s, events = fire(s, 3, C.Bite)
    assert won(events) == ((3,), "zombie", reason)


# --- 3d. otherwise ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("integrity", "shooter", "leader", "expected"),
    [
        (NO_ROLES, 0, 1, ((0, 2), "honest", "kingpin_eliminated")),
        (NO_ROLES, 1, 0, ((1, 3), "crooked", "agent_eliminated")),
        # a Bomber alive (seat 2) that did not fire: the Honest team (seats 0 and 3) wins
        (BOMBER_ONLY, 0, 1, ((0, 3), "honest", "kingpin_eliminated")),
        (BOMBER_ONLY, 3, 1, ((0, 3), "honest", "kingpin_eliminated")),
    ],
)
def test_otherwise_the_leaders_opponents_win(integrity, shooter, leader, expected) -> None:
    """RULES §9.3d (with §2): no Bomber fired, no Traitor alive, no zombie: the opposing team of
    the eliminated Leader wins, eliminated members included."""
    s = bt_deal(integrity=integrity, first_seat=shooter, guns={shooter: leader})
    s = wounded(s, leader, by=2)
    s, events = fire(s, shooter)
    assert won(events) == expected


def test_a_wound_alone_wins_nothing() -> None:
    """RULES §9.3 (a Leader *eliminated*): the Bomber wounds the Kingpin: the game goes on."""
    s = bt_deal(first_seat=2, guns={2: 1})
    s, events = fire(s, 2)
    assert one(events, E.LeaderWounded).seat == 1
    assert of(events, E.GameWon) == [] and s.step != "finished"
    goes_on(s)
