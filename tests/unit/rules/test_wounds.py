"""RULES §4: where a wound lives is the table option `wounds`: "token" (on the Leader card, moving
with it; default with `fourth`) or "card" (the seat takes the Wounded card; a wounded seat that no
longer holds a Leader card is eliminated at once, which alone wins nothing; default with
`classic`). Any edition combines with either; Med Kit needs a wound to remove and works on both."""

from __future__ import annotations

import pytest

from gcbc.rules import public_view, view
from gcbc_contract.options import TableOptions
from tests.support import C, E, act, of_type, pass_window
from tests.unit.rules.equipment.scenario import (
    cid,
    deal,
    legal_plays,
    one,
    play,
    refused_unchanged,
    shot_earlier,
    team,
)

# every edition with either placement; the ids say which is not the edition's default
COMBINATIONS = [
    TableOptions(edition="fourth", wounds="token"),
    TableOptions(edition="fourth", wounds="card"),  # the printed fourth edition
    TableOptions(edition="classic", wounds="card"),
    TableOptions(edition="classic", wounds="token"),  # the publisher's online help
]
IDS = ["fourth-token", "fourth-card", "classic-card", "classic-token"]
TOKEN = [o for o in COMBINATIONS if o.wounds == "token"]
CARD = [o for o in COMBINATIONS if o.wounds == "card"]


@pytest.mark.parametrize("options", COMBINATIONS, ids=IDS)
def test_a_shot_leader_is_wounded_where_the_option_says(options: TableOptions) -> None:
    """RULES §4: seat 0 shoots the Kingpin (seat 1): not eliminated, its cards face up; the wound
    is a token on the Kingpin card ("token") or the Wounded card on the seat ("card"). Every view
    shows seat 1 wounded; only a token marks the card."""
    s = deal({}, guns={0: 1}, options=options)
    s, events = act(s, C.Shoot(seat=0))
    s = pass_window(s)
    assert one(events, E.LeaderWounded) == E.LeaderWounded(seat=1, card_id=cid(1, 1))
    st = s.seat(1)
    assert not st.eliminated and st.face_up == (True, True, True)
    if options.wounds == "token":
        assert s.wounds == {cid(1, 1)} and not st.wounded
    else:
        assert s.wounds == frozenset() and st.wounded
    seat1 = public_view(s, log=False).seats[1]
    assert seat1.wounded
    assert [c.wounded for c in seat1.cards] == [options.wounds == "token", False, False]
    assert public_view(s, log=False).options == options


@pytest.mark.parametrize("options", COMBINATIONS, ids=IDS)
def test_a_wounded_leader_shot_again_is_eliminated(options: TableOptions) -> None:
    """RULES §4 (Leader, already wounded: eliminated — the game ends), with either placement."""
    s = shot_earlier(deal({}, guns={0: 1}, options=options), 1, shooter=0)
    s, _ = act(s, C.Shoot(seat=0))
    s = pass_window(s)
    assert s.seat(1).eliminated and s.step == "finished" and s.win_team == "honest"


@pytest.mark.parametrize("options", CARD, ids=["fourth", "classic"])
def test_with_the_wounded_card_a_seat_that_gives_its_leader_away_is_eliminated(options) -> None:
    """RULES §4 ("card": a wounded seat that no longer holds a Leader card is eliminated at once;
    that alone wins nothing): seat 0's Blackmail moves the wounded seat 1's Kingpin to seat 3:
    seat 1 is out, the game goes on, seat 3 holds the Kingpin unwounded."""
    s = shot_earlier(deal({0: "blackmail"}, options=options), 1)
    s, events = act(s, play(0, "blackmail", targets=(1, 3), positions=(1, 1)))
    assert one(events, E.SeatEliminated) == E.SeatEliminated(seat=1)
    assert s.seat(1).eliminated and s.winners is None and s.step != "finished"
    assert s.seat(3).cards[0] == cid(1, 1) and team(s, 3) == "crooked"
    assert not s.seat(3).wounded and not public_view(s, log=False).seats[3].wounded


@pytest.mark.parametrize("options", CARD, ids=["fourth", "classic"])
def test_a_seat_that_falls_for_want_of_its_leader_turns_no_card_face_up(options) -> None:
    """RULES §4, §11: only a shot turns a seat's integrity cards face up (the printed rules turn an
    eliminated seat's cards sideways, nothing more). The card seat 1 receives from seat 3 in the
    Blackmail that takes its Kingpin stays face down as seat 1 falls: the table does not learn it,
    seat 1 does (it received it)."""
    s = shot_earlier(deal({0: "blackmail"}, options=options), 1)
    s, events = act(s, play(0, "blackmail", targets=(1, 3), positions=(1, 1)))
    assert of_type(events, E.CardRevealed) == []
    assert s.seat(1).eliminated and s.seat(1).face_up == (False, True, True)
    assert public_view(s, log=False).seats[1].cards[0].card is None
    assert view(s, 1, log=False).seats[1].cards[0].card is not None


def test_with_zombies_a_seat_that_falls_for_want_of_its_leader_rises_every_card_face_up() -> None:
    """RULES §4 ("card"), §8 (a seat with no Leader that would be eliminated, by a card too,
    becomes a zombie instead: all its cards turn face up): the same Blackmail at a Zombies table
    makes seat 1 a zombie, and the card it received is turned face up."""
    options = TableOptions(zombies=True, wounds="card")
    s = shot_earlier(deal({0: "blackmail"}, options=options), 1)
    s, events = act(s, play(0, "blackmail", targets=(1, 3), positions=(1, 1)))
    assert one(events, E.BecameZombie) == E.BecameZombie(seat=1, by=None)
    assert [e.seat for e in of_type(events, E.CardRevealed)] == [1]
    assert s.seat(1).zombie and s.seat(1).face_up == (True, True, True)


@pytest.mark.parametrize("options", TOKEN, ids=["fourth", "classic"])
def test_with_the_token_the_wound_moves_with_the_leader_card(options) -> None:
    """RULES §4 ("token": the Wounded token sits on the Leader card and moves with it; a seat
    that receives a wounded Leader card is a wounded Leader): the same Blackmail leaves seat 1 in
    the game, unwounded; seat 3 is now the wounded Kingpin."""
    s = shot_earlier(deal({0: "blackmail"}, options=options), 1)
    s, events = act(s, play(0, "blackmail", targets=(1, 3), positions=(1, 1)))
    assert of_type(events, E.SeatEliminated) == []
    v = public_view(s, log=False)
    assert v.seats[3].wounded and v.seats[3].cards[0].wounded and not v.seats[1].wounded
    assert not s.seat(1).eliminated and team(s, 3) == "crooked"


@pytest.mark.parametrize("options", COMBINATIONS[:2], ids=IDS[:2])
def test_med_kit_removes_the_wound_with_either_placement(options) -> None:
    """RULES §4 (Med Kit needs a wound to remove and works on both), §7.1 Med Kit (fourth-edition
    card): it is listed for the wounded seat 1 only; played, seat 1 is no longer wounded, and a
    second shot only wounds it again."""
    s = shot_earlier(deal({2: "med_kit"}, first_seat=2, options=options), 1)
    assert [c.target for c in legal_plays(s, 2, "med_kit")] == [1]
    assert refused_unchanged(s, play(2, "med_kit", target=3)) == "no_effect"
    s, events = act(s, play(2, "med_kit", target=1))
    assert one(events, E.WoundHealed) == E.WoundHealed(seat=1, card_id=cid(1, 1))
    assert not public_view(s, log=False).seats[1].wounded
    assert not s.seat(1).wounded and s.wounds == frozenset()
    s = shot_earlier(s, 1)
    assert not s.seat(1).eliminated and public_view(s, log=False).seats[1].wounded


@pytest.mark.parametrize(
    ("options", "chooses"),
    [
        (TableOptions(), False),
        (TableOptions(edition="classic"), False),
        (TableOptions(wounds="token"), False),
        (TableOptions(edition="classic", wounds="card"), False),
        (TableOptions(wounds="card"), True),
        (TableOptions(edition="classic", wounds="token"), True),
    ],
)
def test_which_tables_choose_their_wounds(options: TableOptions, chooses: bool) -> None:
    """RULES §4 (default "token" with `fourth`, "card" with `classic`), docs/api.md: a server whose
    GCBC_OPTIONS_OFFERED does not name `wounds` offers only the edition's own placement."""
    assert options.chooses_wounds() is chooses
