"""Blackmail on a classic table (RULES §7.2: two other living seats exchange one integrity card
each, chosen by you; you view neither): the fourth edition's module (§7.1 says the same), checked
with the classic edition's own situations (a seat down to one card, the Wounded card on a seat)."""

from __future__ import annotations

from gcbc_contract import events as E
from tests.support import act
from tests.unit.rules.equipment.classic import CLASSIC, revived_earlier
from tests.unit.rules.equipment.scenario import (
    FIVE,
    accept_all,
    cid,
    deal,
    known,
    legal_plays,
    one,
    play,
    refused_unchanged,
    shot_earlier,
    team,
)


def test_two_other_seats_exchange_the_chosen_cards():
    """RULES §7.2 Blackmail: seats 1 and 2 exchange their positions 2 and 1; each receiver learns
    its card, the player views neither."""
    s = deal({0: "blackmail"}, options=CLASSIC)
    s, events = act(s, play(0, "blackmail", targets=(1, 2), positions=(2, 1)))
    assert one(events, E.CardsExchanged).card_ids == (cid(1, 2), cid(2, 1))
    assert s.seat(1).cards[1] == cid(2, 1) and s.seat(2).cards[0] == cid(1, 2)
    assert known(s, 1, 1, 2) == "honest" and known(s, 2, 2, 1) == "crooked"
    assert known(s, 0, 1, 2) is None and known(s, 0, 2, 1) is None
    assert s.step == "action" and s.turn_seat == 0


def test_a_seat_down_to_one_card_exchanges_it():
    """RULES §7.2 Blackmail and Defibrillator (single remaining card): seat 2 has one card, at
    position 1 only; exchanging it changes its team (recomputed as cards move, §2)."""
    s = deal({0: "blackmail"}, integrity=FIVE, options=CLASSIC)
    s = revived_earlier(shot_earlier(s, 2), 2, 2)  # keeps its Crooked
    assert team(s, 2) == "crooked"
    assert {c.positions[1] for c in legal_plays(s, 0, "blackmail") if c.targets == (1, 2)} == {1}
    assert refused_unchanged(s, play(0, "blackmail", targets=(1, 2), positions=(1, 2))) == (
        "invalid_position"
    )
    s, _ = act(s, play(0, "blackmail", targets=(2, 3), positions=(1, 2)))
    assert s.seat(2).cards == (cid(3, 2),) and team(s, 2) == "honest"


def test_a_wounded_seat_that_gives_its_leader_card_away_is_eliminated():
    """RULES §4 (classic: a wounded seat that no longer holds a Leader card is eliminated at once,
    and that alone wins nothing), §7.2 Blackmail."""
    s = shot_earlier(deal({0: "blackmail"}, options=CLASSIC), 1)
    assert s.seat(1).wounded
    s, events = act(s, play(0, "blackmail", targets=(1, 3), positions=(1, 1)))
    assert one(events, E.SeatEliminated) == E.SeatEliminated(seat=1)
    assert s.seat(1).eliminated and s.winners is None
    assert not s.seat(3).wounded and not s.seat(3).eliminated and team(s, 3) == "crooked"


def test_refusals():
    """RULES §7.2 Blackmail (two other living seats), §7.3."""
    s = deal({0: "blackmail"}, options=CLASSIC)
    assert refused_unchanged(s, play(0, "blackmail", targets=(0, 1), positions=(1, 1))) == (
        "target_is_self"
    )
    assert refused_unchanged(s, play(0, "blackmail", targets=(1, 1), positions=(1, 2))) == (
        "invalid_target"
    )
    assert refused_unchanged(s, play(0, "blackmail", targets=(1, 2), positions=(1, 4))) == (
        "invalid_position"
    )
    assert refused_unchanged(s, play(0, "blackmail", targets=(1, 2))) == "bad_parameters"
    t = shot_earlier(shot_earlier(s, 2), 3)
    assert legal_plays(t, 0, "blackmail") == []
    assert refused_unchanged(t, play(0, "blackmail", targets=(1, 2), positions=(1, 1))) == (
        "not_enough_seats"
    )


def test_every_listed_play_is_accepted():
    """RULES §7.3: three pairs of other seats, 3 x 3 positions each."""
    s = deal({0: "blackmail"}, options=CLASSIC)
    assert accept_all(s, 0, "blackmail") == 27
