"""RULES §4: getting shot — cards face up; a non-Leader is eliminated; a Leader is wounded (and
draws), then eliminated; `fourth`: the Wounded token moves with the Leader card."""

from __future__ import annotations

from gcbc.rules import current_wait, legal_commands, public_view
from gcbc.rules.state import State
from tests.support import KP, A, C, E, H, K, act, of_type, refused, table, types
from tests.unit.rules.conftest import arm, equip, finish, play_turn

FOUR = [[A, H, H], [KP, K, K], [H, K, H], [K, H, K]]


def kingpin_in_sights(equipment: list[list[str]] | None = None) -> State:
    """Seat 0 aims at the Kingpin (seat 1) on turn 1; seat 3 aims at seat 2; seat 0's turn 5."""
    s = table(FOUR, equipment=equipment, deck=["wiretap", "coffee", "k9_unit", "smoke_grenade"])
    s = arm(s, 0, 1)
    s, _ = play_turn(s, C.Investigate(seat=1, target=0, position=2))
    s, _ = play_turn(s, C.Investigate(seat=2, target=0, position=3))
    s = arm(s, 3, 2)
    assert s.turn_seat == 0 and s.step == "action"
    return s


def test_a_non_leader_shot_is_eliminated_its_equipment_to_the_deck_its_gun_to_the_centre() -> None:
    """RULES §4: all its cards face up; eliminated; its equipment to the bottom of the deck, its
    gun to the centre (and the shooter's gun too, §3.1)."""
    # given seat 2 (Honest, not a Leader) holding a gun and a Coffee, seat 0 aiming at it
    s = table(FOUR, equipment=[[], [], ["coffee"], []])
    s = arm(s, 0, 2)
    s = equip(s, 1)
    s = arm(s, 2, 1)  # turns its card 1 face up
    s = arm(s, 3, 2)
    assert s.guns_in_centre == 1
    # when seat 0 shoots
    s, events = play_turn(s, C.Shoot(seat=0))
    # then
    i = events.index(E.SeatShot(shooter=0, target=2))
    assert events[i + 1 : i + 5] == [
        E.CardRevealed(seat=2, position=2, card_id=7, card=K),
        E.CardRevealed(seat=2, position=3, card_id=8, card=H),
        E.SeatEliminated(seat=2, by=0),
        E.GunDropped(seat=0),
    ]
    st = s.seat(2)
    assert st.eliminated and st.face_up == (True, True, True)
    assert st.hand == () and not st.gun
    assert s.deck[-1] == "coffee"
    assert s.guns_in_centre == 3
    v = public_view(s).seats[2]
    assert v.eliminated and v.equipment_count == 0 and v.gun is None
    assert [c.card for c in v.cards] == [H, K, H]
    assert s.winners is None


def test_an_eliminated_seats_cards_in_play_go_to_the_deck_but_planted_evidence() -> None:
    """RULES §4 (Decision: Disguise and Surveillance Camera in play in front of an eliminated seat
    go to the bottom of the deck with its equipment; Planted Evidence stays, as the seat still wins
    with its team, which the card flips)."""
    # given seat 2 with its Surveillance Camera in play, disguised by seat 1, framed by seat 3,
    # holding a Coffee it drew
    equipment = [[], ["disguise"], ["surveillance_camera"], ["planted_evidence"]]
    s = table(FOUR, equipment=equipment, deck=["k9_unit", "coffee", "wiretap"], start_window=False)
    s, _ = act(s, C.PlayEquipment(seat=2, card="surveillance_camera"))
    s, _ = act(s, C.PlayEquipment(seat=1, card="disguise", target=2))
    s, _ = act(s, C.PlayEquipment(seat=3, card="planted_evidence", target=2))
    s, _ = finish(s)
    s = arm(s, 0, 2)
    s = equip(s, 1)
    s = equip(s, 2)
    s = equip(s, 3)
    assert s.seat(2).in_play == ("surveillance_camera", "disguise", "planted_evidence")
    assert s.seat(2).hand == ("coffee",)
    deck = s.deck
    # when seat 0 shoots it
    s, _ = play_turn(s, C.Shoot(seat=0))
    # then its hand, Camera and Disguise go to the bottom of the deck; the Evidence stays
    assert s.seat(2).eliminated
    assert s.seat(2).in_play == ("planted_evidence",)
    assert s.deck == (*deck, "coffee", "surveillance_camera", "disguise")
    assert public_view(s).seats[2].in_play == ["planted_evidence"]


def test_guns_aimed_at_an_eliminated_seat_must_be_re_aimed() -> None:
    """RULES §4: guns aimed at the eliminated seat must be re-aimed by their holders at their
    next Aim phase; they cannot shoot it."""
    # given seat 3 aiming at seat 2, which seat 0 eliminates
    s = table(FOUR)
    s = arm(s, 0, 2)
    s = equip(s, 1)
    s = equip(s, 2)
    s = arm(s, 3, 2)
    s, _ = play_turn(s, C.Shoot(seat=0))
    s = equip(s, 1)
    # then seat 3 (still aiming at the eliminated seat) cannot shoot
    assert s.turn_seat == 3 and s.seat(3).aim == 2
    assert refused(s, C.Shoot(seat=3)) == "not_aimed"
    # and at its Aim phase must aim elsewhere
    s, _ = act(s, C.Investigate(seat=3, target=0, position=2))
    s, _ = finish_window(s)
    assert current_wait(s).kind == "aim"
    assert refused(s, C.Aim(seat=3, target=2)) == "target_eliminated"
    assert {c.target for c in legal_commands(s, 3) if isinstance(c, C.Aim)} == {0, 1}
    s, events = act(s, C.Aim(seat=3, target=1))
    assert events[0] == E.GunAimed(seat=3, target=1)


def finish_window(s: State) -> tuple[State, list]:
    """Everyone passes the open window (no aiming)."""
    out: list = []
    while (w := current_wait(s)) is not None and w.kind == "reaction":
        s, events = act(s, C.Pass(seat=w.seats[0]))
        out += events
    return s, out


def test_a_leader_shot_once_is_wounded_and_draws() -> None:
    """RULES §4: a Leader not wounded is not eliminated: it takes a Wounded token and draws one
    equipment card; its cards are all face up."""
    s = kingpin_in_sights()
    top = s.deck[0]
    # when seat 0 shoots the Kingpin
    s, events = play_turn(s, C.Shoot(seat=0))
    # then
    i = events.index(E.SeatShot(shooter=0, target=1))
    assert events[i + 1 : i + 7] == [
        E.CardRevealed(seat=1, position=1, card_id=3, card=KP),
        E.CardRevealed(seat=1, position=2, card_id=4, card=K),
        E.CardRevealed(seat=1, position=3, card_id=5, card=K),
        E.LeaderWounded(seat=1, card_id=3),
        E.EquipmentDrawn(seat=1, card=top),
        E.GunDropped(seat=0),
    ]
    assert not of_type(events, E.SeatEliminated)
    assert not s.seat(1).eliminated and s.seat(1).hand == (top,)
    v = public_view(s).seats[1]
    assert v.wounded and v.cards[0].wounded and not v.cards[1].wounded
    assert s.winners is None and s.turn_seat == 1


def test_a_wounded_leader_over_the_hand_limit_discards_before_the_turn_goes_on() -> None:
    """RULES §4: the wounded Leader draws, then discards down to 1 if needed."""
    s = kingpin_in_sights(equipment=[[], ["med_kit"], [], []])
    s, events = play_turn(s, C.Shoot(seat=0))
    assert of_type(events, E.LeaderWounded) == [E.LeaderWounded(seat=1, card_id=3)]
    w = current_wait(s)
    assert (w.kind, w.seats, w.prompt) == ("prompt", (1,), "discard")
    assert s.seat(1).hand == ("med_kit", "wiretap")
    assert refused(s, C.PlayEquipment(seat=1, card="med_kit", target=1)) == "must_discard"
    assert refused(s, C.Pass(seat=0)) == "prompt_pending"  # the turn waits for it
    s, events = act(s, C.Discard(seat=1, card="med_kit"))
    assert types(events)[:3] == ["EquipmentDiscarded", "PromptAnswered", "WindowOpened"]
    assert s.seat(1).hand == ("wiretap",) and s.deck[-1] == "med_kit"


def test_a_wounded_leader_shot_again_is_eliminated_and_the_game_ends() -> None:
    """RULES §4: a Leader already wounded is eliminated — the game ends (§2)."""
    s = kingpin_in_sights()
    s, _ = play_turn(s, C.Shoot(seat=0))
    s, _ = play_turn(s, C.Investigate(seat=1, target=2, position=1))
    s = arm(s, 2, 1)
    s, _ = play_turn(s, C.Investigate(seat=3, target=0, position=2), aim=1)
    s = arm(s, 0, 1)
    s, _ = play_turn(s, C.Investigate(seat=1, target=3, position=2))
    assert s.turn_seat == 2 and s.seat(2).aim == 1
    # when seat 2 shoots the wounded Kingpin
    s, events = play_turn(s, C.Shoot(seat=2))
    # then
    i = events.index(E.SeatShot(shooter=2, target=1))
    assert events[i + 1] == E.SeatEliminated(seat=1, by=2)  # its cards were already face up
    assert of_type(events, E.GameWon) == [
        E.GameWon(winners=(0, 2), team="honest", reason="kingpin_eliminated")
    ]
    assert s.step == "finished"


def test_the_wounded_token_moves_with_the_leader_card() -> None:
    """RULES §4 (`fourth`): the Wounded token sits on the Leader card and moves with it; a seat
    that receives a wounded Leader card is a wounded Leader."""
    # given the Kingpin (seat 1) wounded, and seat 3 holding Blackmail, aiming at seat 2
    s = kingpin_in_sights(equipment=[[], [], [], ["blackmail"]])
    s, _ = play_turn(s, C.Shoot(seat=0))
    assert public_view(s).seats[1].wounded
    # when, in seat 1's investigate window, seat 3 swaps seat 1's Kingpin with seat 2's card 1
    s, _ = act(s, C.Investigate(seat=1, target=0, position=3))
    s, _ = act(s, C.PlayEquipment(seat=3, card="blackmail", targets=(1, 2), positions=(1, 1)))
    # then seat 2 is the wounded Leader, seat 1 is no longer wounded
    v = public_view(s)
    assert v.seats[2].wounded and v.seats[2].cards[0].card == KP
    assert not v.seats[1].wounded
    # and one more shot eliminates seat 2
    s, _ = finish(s)
    s, _ = play_turn(s, C.Investigate(seat=2, target=0, position=2))
    s, events = play_turn(s, C.Shoot(seat=3))
    assert of_type(events, E.SeatEliminated) == [E.SeatEliminated(seat=2, by=3)]
    assert of_type(events, E.GameWon)[0].reason == "kingpin_eliminated"
