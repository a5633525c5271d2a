"""RULES §2: teams and winning."""

from __future__ import annotations

from gcbc.rules import public_view, view
from gcbc.rules.state import State
from tests.support import KP, A, C, E, H, K, act, of_type, refused, table
from tests.unit.rules.conftest import arm, equip, play_turn

# seat 0 Agent (Honest), seat 1 Kingpin (Crooked), seat 2 Honest, seat 3 Crooked
FOUR = [[A, H, H], [KP, K, K], [H, K, H], [K, H, K]]


def team(s: State, seat: int) -> str | None:
    v = view(s, seat).you
    assert v is not None
    return v.team


def test_majority_decides_and_a_leader_decides_its_holder() -> None:
    """RULES §2: the Agent makes its holder Honest and the Kingpin Crooked, whatever else it
    holds; otherwise the majority of Honest / Crooked cards decides."""
    s = table([[A, K, K], [KP, H, H], [H, H, K], [K, K, H]])
    assert [team(s, i) for i in range(4)] == ["honest", "crooked", "honest", "crooked"]


def test_teams_are_recomputed_when_cards_move() -> None:
    """RULES §2: teams are recomputed whenever cards move (here: Blackmail)."""
    # given seat 2 Honest (H, H, K) and seat 3 Crooked (K, K, H)
    s = table(
        [[A, H, K], [KP, K, H], [H, H, K], [K, K, H]],
        equipment=[["blackmail"], [], [], []],
    )
    assert (team(s, 2), team(s, 3)) == ("honest", "crooked")
    # when seat 0 makes them exchange seat 2's Honest (position 1) with seat 3's Crooked (1)
    s, events = act(s, C.PlayEquipment(seat=0, card="blackmail", targets=(2, 3), positions=(1, 1)))
    assert of_type(events, E.CardsExchanged)
    # then seat 2 is Crooked (K, H, K) and seat 3 Honest (H, K, H)
    assert (team(s, 2), team(s, 3)) == ("crooked", "honest")


def test_winners_follow_the_teams_as_they_are_when_the_game_ends() -> None:
    """RULES §2: the winning team is the one of the seats' cards at the end, after cards moved."""
    # given seat 2 made Crooked and seat 3 Honest by a Blackmail on turn 1
    s = table(
        [[A, H, K], [KP, K, H], [H, H, K], [K, K, H]],
        equipment=[["blackmail"], [], [], []],
        deck=["coffee", "wiretap", "smoke_grenade"],
    )
    s, _ = act(s, C.PlayEquipment(seat=0, card="blackmail", targets=(2, 3), positions=(1, 1)))
    s = arm(s, 0, 1)
    s, _ = play_turn(s, C.Investigate(seat=1, target=0, position=3))
    s = arm(s, 2, 1)
    s = arm(s, 3, 1)
    s, _ = play_turn(s, C.Shoot(seat=0))  # the Kingpin is wounded
    s, _ = play_turn(s, C.Investigate(seat=1, target=2, position=2))
    # when the Kingpin is shot again
    s, events = play_turn(s, C.Shoot(seat=2))
    # then the Honest team is the Agent and seat 3
    (won,) = of_type(events, E.GameWon)
    assert won == E.GameWon(winners=(0, 3), team="honest", reason="kingpin_eliminated")


def test_both_leaders_in_one_hand_wins_alone_at_once() -> None:
    """RULES §2: anyone who holds both Agent and Kingpin, at any moment, wins alone at once."""
    # given seat 0 (Agent) investigating, and seat 3 holding Blackmail
    s = table(FOUR, equipment=[[], [], [], ["blackmail"]])
    s, _ = act(s, C.Investigate(seat=0, target=1, position=2))
    assert s.step == "window"
    # when seat 3 makes seat 0's Honest (position 2) and seat 1's Kingpin (position 1) exchange
    s, events = act(s, C.PlayEquipment(seat=3, card="blackmail", targets=(0, 1), positions=(2, 1)))
    # then seat 0 wins alone, at once: the investigation never resolves
    (won,) = of_type(events, E.GameWon)
    assert won == E.GameWon(winners=(0,), team="solo", reason="both_leaders")
    assert not of_type(events, E.CardViewed)
    assert s.step == "finished" and s.winners == (0,) and s.win_team == "solo"
    assert public_view(s).winners == [0] and public_view(s).status == "finished"
    assert refused(s, C.Pass(seat=1)) == "game_over"


def test_honest_win_when_the_kingpin_is_eliminated_eliminated_honest_seats_included() -> None:
    """RULES §2: Honest wins when the Kingpin is eliminated; eliminated players still win with
    their team."""
    s = table(FOUR, deck=["coffee", "wiretap"])
    s = arm(s, 0, 1)
    s = arm(s, 1, 2)
    s = arm(s, 2, 1)
    s = arm(s, 3, 1)
    s, _ = play_turn(s, C.Shoot(seat=0))  # the Kingpin is wounded
    s, events = play_turn(s, C.Shoot(seat=1))  # seat 2 (Honest) is eliminated
    assert of_type(events, E.SeatEliminated) == [E.SeatEliminated(seat=2, by=1)]
    assert s.turn_seat == 3 and s.winners is None
    # when the wounded Kingpin is shot
    s, events = play_turn(s, C.Shoot(seat=3))
    # then
    assert of_type(events, E.GameWon) == [
        E.GameWon(winners=(0, 2), team="honest", reason="kingpin_eliminated")
    ]
    assert s.step == "finished"


def kill_the_agent(s: State) -> tuple[State, list]:
    """Seat 0 (Agent) shoots seat 3 (Crooked); seats 1 and 2 then shoot the Agent twice."""
    s = arm(s, 0, 3)
    s = arm(s, 1, 0)
    s = arm(s, 2, 0)
    s = equip(s, 3)
    s, events = play_turn(s, C.Shoot(seat=0))
    assert of_type(events, E.SeatEliminated) == [E.SeatEliminated(seat=3, by=0)]
    s, _ = play_turn(s, C.Shoot(seat=1))  # the Agent is wounded
    assert s.winners is None
    return play_turn(s, C.Shoot(seat=2))


def test_crooked_win_when_the_agent_is_eliminated_eliminated_crooked_seats_included() -> None:
    """RULES §2: Crooked wins when the Agent is eliminated; eliminated players still win."""
    s = table(FOUR, deck=["coffee", "wiretap", "smoke_grenade"])
    s, events = kill_the_agent(s)
    assert of_type(events, E.GameWon) == [
        E.GameWon(winners=(1, 3), team="crooked", reason="agent_eliminated")
    ]


def test_planted_evidence_flips_a_majority_but_not_a_leaders_team() -> None:
    """RULES §2: Planted Evidence on a seat flips its majority (not a Leader's team)."""
    # given Planted Evidence on seat 2 (Honest majority)
    s = table(FOUR, equipment=[["planted_evidence"], [], [], []], deck=["coffee", "wiretap"])
    s, _ = act(s, C.PlayEquipment(seat=0, card="planted_evidence", target=2))
    assert team(s, 2) == "crooked"
    # when the Agent is eliminated
    s, events = kill_the_agent(s)
    # then seat 2 wins with the Crooked team
    assert of_type(events, E.GameWon)[0].winners == (1, 2, 3)


def test_planted_evidence_leaves_a_leader_on_its_team() -> None:
    """RULES §2: a Leader still decides its holder's team under Planted Evidence."""
    s = table(FOUR, equipment=[["planted_evidence"], [], [], []])
    s, _ = act(s, C.PlayEquipment(seat=0, card="planted_evidence", target=1))
    assert team(s, 1) == "crooked"
    assert view(s, 0).seats[1].in_play == ["planted_evidence"]
