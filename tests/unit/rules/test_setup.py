"""RULES §1: components and setup — the deal, guns, equipment, the first seat, the arrange step;
and the table's creation (scenario deals, options, seat counts)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from gcbc.rules import current_wait, fold, initial_state, run, view
from gcbc.rules.state import State
from gcbc_contract import codec
from gcbc_contract.cards import FOURTH_EDITION_DECK
from gcbc_contract.options import Deal, TableOptions
from tests.support import KP, A, C, E, H, K, of_type, refused, table

# RULES §1 table: Honest = Crooked per side, and burned unseen, per player count
PER_SIDE = {4: 5, 5: 7, 6: 8, 7: 10, 8: 11}
BURNED = {4: 0, 5: 1, 6: 0, 7: 1, 8: 0}

FOUR = [[A, H, H], [KP, K, K], [H, K, H], [K, H, K]]


def lobby(n: int, **open_kw: Any) -> State:
    """A table of ``n`` seats, every seat taken, not started."""
    s, _ = run(initial_state(), C.OpenTable(table_id="t", seats=n, **open_kw))
    for i in range(n):
        s, _ = run(s, C.TakeSeat(name=f"seat{i}"))
    return s


def start(n: int, seed: int = 7, **open_kw: Any) -> tuple[State, list[Any]]:
    """A table of ``n`` seats just started: in the arrange step."""
    return run(lobby(n, **open_kw), C.StartGame(random_seed=seed))


def dealt(events: list[Any]) -> E.CardsDealt:
    (d,) = of_type(events, E.CardsDealt)
    return d


def deal(integrity: list[list[str]], **kw: Any) -> Deal:
    return Deal(integrity=tuple(tuple(h) for h in integrity), **kw)


def open_refused(n: int, **kw: Any) -> str:
    return refused(initial_state(), C.OpenTable(table_id="t", seats=n, **kw))


# --- the deal ------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [4, 5, 6, 7, 8])
def test_deal_counts_per_player_count(n: int) -> None:
    """RULES §1: Honest = Crooked per count, one Agent, one Kingpin, three cards a seat, the
    leftover burned unseen."""
    # given a table of n seats / when the game starts
    s, events = start(n, seed=11 * n)
    d = dealt(events)
    # then
    counts = Counter(d.identities)
    assert counts == Counter({H: PER_SIDE[n], K: PER_SIDE[n], A: 1, KP: 1})
    assert len(d.hands) == n
    assert all(len(h) == 3 for h in d.hands)
    assert len(d.burned) == BURNED[n]
    placed = [c for h in d.hands for c in h] + list(d.burned)
    assert sorted(placed) == list(range(len(d.identities)))  # every card in exactly one place
    assert all(d.identities[c] not in (A, KP) for c in d.burned)  # both Leaders are dealt
    assert s.step == "arrange"


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8])
def test_agent_and_kingpin_never_start_in_one_hand(n: int) -> None:
    """RULES §1: the leader pile deals one card to each seat, so Agent and Kingpin are always
    dealt, to two different seats."""
    for seed in range(40):
        d = dealt(start(n, seed=seed)[1])
        leaders = [i for i, h in enumerate(d.hands) for c in h if d.identities[c] in (A, KP)]
        assert len(leaders) == 2 and leaders[0] != leaders[1], (seed, d.hands)


def test_card_order_in_a_hand_is_random_at_the_deal() -> None:
    """RULES §1 (Decision): the order of a seat's three cards is random at the deal."""
    positions = set()
    for seed in range(40):
        d = dealt(start(4, seed=seed)[1])
        for h in d.hands:
            positions |= {p for p, c in enumerate(h, 1) if d.identities[c] == A}
    assert positions == {1, 2, 3}


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8])
def test_one_equipment_card_each_and_one_gun_per_player_in_the_centre(n: int) -> None:
    """RULES §1: each seat is dealt one equipment card face down; `fourth`: one gun per player,
    all in the centre."""
    s, events = start(n, seed=3)
    d = dealt(events)
    assert all(len(h) == 1 for h in d.equipment)
    full = Counter(FOURTH_EDITION_DECK)
    assert Counter(d.deck) + Counter(c for h in d.equipment for c in h) == full
    assert len(d.deck) == sum(full.values()) - n
    assert s.guns_in_centre == n
    assert not any(st.gun for st in s.seats)
    assert [st.hand for st in s.seats] == [tuple(h) for h in d.equipment]


def test_the_deal_follows_the_seed() -> None:
    """RULES §1/§10: the deal is drawn from the table's seed: the same seed deals the same."""
    assert dealt(start(6, seed=5)[1]) == dealt(start(6, seed=5)[1])
    assert dealt(start(6, seed=5)[1]) != dealt(start(6, seed=6)[1])


def test_each_seat_knows_only_its_own_cards_after_the_deal() -> None:
    """RULES §1/§11: cards are dealt face down; a seat sees its own three cards only."""
    s, events = start(4, seed=1)
    d = dealt(events)
    for i in range(4):
        v = view(s, i)
        for j, sv in enumerate(v.seats):
            shown = [c.card for c in sv.cards]
            if j == i:
                assert shown == [d.identities[c] for c in d.hands[i]]
            else:
                assert shown == [None, None, None]
            assert not any(c.face_up for c in sv.cards)


# --- the first seat ------------------------------------------------------------------------------
def test_first_seat_is_drawn_from_the_seed() -> None:
    """RULES §1: the Lead Investigator is chosen at random from the seed."""
    firsts = []
    for seed in range(30):
        (g,) = of_type(start(5, seed=seed)[1], E.GameStarted)
        (again,) = of_type(start(5, seed=seed)[1], E.GameStarted)
        assert g.first_seat == again.first_seat
        assert 0 <= g.first_seat < 5
        firsts.append(g.first_seat)
    assert set(firsts) == {0, 1, 2, 3, 4}


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_first_seat_named_by_the_table_creator(seed: int) -> None:
    """RULES §1: the table creator may name the first seat; its turn is the first."""
    s, events = start(5, seed=seed, first_seat=3)
    assert of_type(events, E.GameStarted)[0].first_seat == 3
    # when every seat keeps its order and passes the start-of-game window
    for i in range(5):
        s, events = run(s, C.Arrange(seat=i, positions=(1, 2, 3)))
    while s.step == "window":
        s, events = run(s, C.Pass(seat=current_wait(s).seats[0]))
    # then the first turn is seat 3's
    assert of_type(events, E.TurnBegan) == [E.TurnBegan(seat=3, turn=1, direction=1)]
    assert s.turn_seat == 3


def test_first_seat_named_by_a_scenario_deal() -> None:
    """RULES §1: a scenario deal may name the first seat."""
    s = table(FOUR, first_seat=2)
    assert s.turn_seat == 2 and s.step == "action" and s.turn_number == 1


def test_first_seat_outside_the_table_is_refused() -> None:
    """RULES §1: the named first seat must be a seat of the table."""
    assert open_refused(4, first_seat=4) == "invalid_target"
    assert open_refused(4, deal=deal(FOUR, first_seat=4)) == "invalid_deal"
    assert open_refused(4, deal=deal(FOUR, first_seat=-1)) == "invalid_deal"


# --- the arrange step ----------------------------------------------------------------------------
def test_arrange_reorders_the_seats_own_cards() -> None:
    """RULES §1 (Decision): a seat may rearrange its own three cards once, before the first turn;
    positions[i] is the old position now at i+1."""
    # given a started scenario table (dealt [kingpin, crooked, crooked] to seat 1)
    s, _ = start(4, deal=deal(FOUR))
    assert s.step == "arrange"
    # when seat 1 puts its old third card first
    s, events = run(s, C.Arrange(seat=1, positions=(3, 1, 2)))
    # then
    assert events == [E.CardsArranged(seat=1, positions=(3, 1, 2))]
    assert [c.card for c in view(s, 1).seats[1].cards] == [K, KP, K]
    assert s.seat(1).cards == (5, 3, 4)  # dealt as card ids 3, 4, 5
    assert s.step == "arrange"  # the others have not arranged yet


def test_arrange_refusals() -> None:
    """RULES §1: an arrangement is an order of positions 1-3, made once."""
    s, _ = start(4, deal=deal(FOUR))
    for bad in [(1, 1, 2), (1, 2), (1, 2, 3, 1), (0, 1, 2), (2, 3, 4), ()]:
        assert refused(s, C.Arrange(seat=0, positions=bad)) == "invalid_arrangement", bad
    s, _ = run(s, C.Arrange(seat=0, positions=(2, 1, 3)))
    assert refused(s, C.Arrange(seat=0, positions=(1, 2, 3))) == "already_arranged"
    assert refused(s, C.Arrange(seat=9, positions=(1, 2, 3))) == "not_seated"


def test_arrange_only_before_the_first_turn() -> None:
    """RULES §1: the order is fixed for the game once the setup step is over."""
    assert refused(lobby(4), C.Arrange(seat=0, positions=(1, 2, 3))) == "game_not_started"
    s = table(FOUR)
    assert s.step == "action"
    assert refused(s, C.Arrange(seat=1, positions=(3, 2, 1))) == "wrong_phase"


def test_actions_wait_for_the_arrange_step() -> None:
    """RULES §1: the arrange step comes before the first turn: no action is possible in it."""
    s, _ = start(4, deal=deal(FOUR, first_seat=0))
    assert refused(s, C.Investigate(seat=0, target=1, position=1)) == "wrong_phase"
    assert refused(s, C.Equip(seat=0, position=1)) == "wrong_phase"


def test_arrangement_closes_when_every_seat_has_arranged() -> None:
    """RULES §1/§6: once every seat has arranged, the start-of-game window opens."""
    s, _ = start(4, deal=deal(FOUR, equipment=(("coffee",), (), ("k9_unit",), ())))
    for i in range(3):
        s, events = run(s, C.Arrange(seat=i, positions=(1, 2, 3)))
        assert s.step == "arrange" and not of_type(events, E.ArrangementClosed)
    s, events = run(s, C.Arrange(seat=3, positions=(1, 2, 3)))
    assert events[1:] == [
        E.ArrangementClosed(),
        E.WindowOpened(kind="start_of_game", asked=(0, 2)),
    ]


def test_arrange_deadline_keeps_the_dealt_order() -> None:
    """RULES §1 (default: keep) / §10: at the arrange deadline, seats that did not arrange keep
    the dealt order; those that did keep theirs."""
    # given seat 0 arranged, the others not
    s, _ = start(4, deal=deal(FOUR, first_seat=0))
    s, _ = run(s, C.Arrange(seat=0, positions=(3, 2, 1)))
    w = current_wait(s)
    assert w.kind == "arrange" and w.seats == (1, 2, 3)
    # when the deadline passes
    s, events = run(s, C.DeadlinePassed(wait=w.id))
    # then
    assert of_type(events, E.CardsArranged) == [
        E.CardsArranged(seat=i, positions=(1, 2, 3), missed=True) for i in (1, 2, 3)
    ]
    # and each of them missed a deadline (RULES §10: the arrangement counts too)
    assert [s.seat(i).missed for i in range(4)] == [0, 1, 1, 1]
    assert of_type(events, E.TurnBegan) == [E.TurnBegan(seat=0, turn=1, direction=1)]
    for i, hand in enumerate(FOUR):
        shown = [c.card for c in view(s, i).seats[i].cards]
        assert shown == (list(reversed(hand)) if i == 0 else hand)


# --- scenario deals ------------------------------------------------------------------------------
def test_scenario_deal_is_dealt_as_given() -> None:
    """RULES §1: a scenario deal fixes the hands, the equipment and the deck's top; what it
    leaves open (the burned card, the rest of the deck) is drawn from the seed."""
    integrity = [[A, H, H], [KP, K, K], [H, K, H], [K, H, K], [H, K, H]]
    s, events = start(
        5,
        deal=deal(
            integrity,
            equipment=(("coffee",), (), (), ("taser",), ()),
            equipment_deck=("k9_unit", "wiretap"),
        ),
    )
    d = dealt(events)
    assert [[d.identities[c] for c in h] for h in d.hands] == integrity
    assert [d.identities[c] for c in d.burned] == [K]  # 7 + 7 + 2 cards, 15 dealt
    assert d.equipment == (("coffee",), (), (), ("taser",), ())
    assert d.deck[:2] == ("k9_unit", "wiretap")
    assert "coffee" not in d.deck and "taser" not in d.deck
    assert s.guns_in_centre == 5


BAD_DEALS: list[tuple[str, dict[str, Any]]] = [
    ("three hands for four seats", {"integrity": FOUR[:3]}),
    ("a hand of two cards", {"integrity": [[A, H], [KP, K, K], [H, K, H], [K, H, K, H]]}),
    ("an unknown card", {"integrity": [[A, H, "joker"], [KP, K, K], [H, K, H], [K, H, K]]}),
    ("two Agents, no Kingpin", {"integrity": [[A, H, H], [A, K, K], [H, K, H], [K, H, K]]}),
    ("no Agent", {"integrity": [[H, H, H], [KP, K, K], [H, K, H], [K, H, K]]}),
    ("Agent and Kingpin together", {"integrity": [[A, KP, H], [H, K, K], [H, K, H], [K, H, K]]}),
    ("six Honest at four players", {"integrity": [[A, H, H], [KP, H, H], [H, H, K], [K, K, K]]}),
    ("three equipment lists", {"integrity": FOUR, "equipment": ((), (), ())}),
    (
        "two equipment cards in a hand",
        {"integrity": FOUR, "equipment": (("coffee", "taser"), (), (), ())},
    ),
    ("an unknown equipment card", {"integrity": FOUR, "equipment": (("grenade",), (), (), ())}),
    (
        "a card both in a hand and in the deck",
        {"integrity": FOUR, "equipment": (("coffee",), (), (), ()), "equipment_deck": ("coffee",)},
    ),
    (
        "three Defibrillators",
        {"integrity": FOUR, "equipment_deck": ("defibrillator", "defibrillator", "defibrillator")},
    ),
    ("a first seat that is no seat", {"integrity": FOUR, "first_seat": 7}),
]


@pytest.mark.parametrize(("why", "fields"), BAD_DEALS, ids=[b[0] for b in BAD_DEALS])
def test_scenario_deal_breaking_the_rules_is_refused(why: str, fields: dict[str, Any]) -> None:
    """RULES §1: a scenario deal must be one the real deal could produce (else invalid_deal)."""
    fields = dict(fields)
    d = deal(fields.pop("integrity"), **fields)
    assert open_refused(4, deal=d) == "invalid_deal"


def test_scenario_deal_may_leave_one_card_burned_at_five() -> None:
    """RULES §1: at 5 players 15 of the 16 cards are dealt; a deal of 15 is valid."""
    integrity = [[A, H, H], [KP, K, K], [H, K, H], [K, H, K], [H, K, H]]
    s, _ = run(initial_state(), C.OpenTable(table_id="t", seats=5, deal=deal(integrity)))
    assert s.table_id == "t"
    # but a 4-player deal seated at five is refused
    assert open_refused(5, deal=deal(FOUR)) == "invalid_deal"


# --- options and seat counts ---------------------------------------------------------------------
ALL_OPTIONS = [
    TableOptions(edition=edition, zombies=z, bombers_traitors=bt, extra_equipment=x, wounds=w)
    for edition in ("fourth", "classic")
    for z in (False, True)
    for bt in (False, True)
    for x in (False, True)
    for w in ("token", "card")
]


@pytest.mark.parametrize("options", ALL_OPTIONS, ids=repr)
@pytest.mark.parametrize("n", [4, 8])
def test_every_option_combination_is_offered(options: TableOptions, n: int) -> None:
    """RULES (editions and expansions are table options, combinable) / docs/api.md `options`."""
    s = lobby(n, options=options)
    assert s.options == options


def test_the_default_options_are_offered() -> None:
    """RULES §1: `fourth` is the default edition; §4: its wounds are tokens."""
    s = lobby(4, options=TableOptions())
    assert s.options == TableOptions(edition="fourth", wounds="token")


@pytest.mark.parametrize(
    ("edition", "wounds"), [("fourth", "token"), ("classic", "card")], ids=["fourth", "classic"]
)
def test_the_wounds_default_with_the_edition_and_the_log_records_it(edition, wounds) -> None:
    """RULES §4 (`wounds`: default "token" with `fourth`, "card" with `classic`): a table opened
    without `wounds` records the edition's default in its log (TableOpened) and shows it."""
    s, events = run(
        initial_state(), C.OpenTable(table_id="t", seats=4, options=TableOptions(edition=edition))
    )
    assert events[0].options == TableOptions(edition=edition, wounds=wounds)
    assert s.options.wounds == wounds


@pytest.mark.parametrize(("edition", "wounds"), [("fourth", "token"), ("classic", "card")])
def test_a_log_written_before_the_wounds_option_folds_as_before(edition, wounds) -> None:
    """RULES §4 (older logs have no `wounds`: classic tables = card, fourth = token): the
    TableOpened of such a log, decoded from its JSON, folds to the edition's placement."""
    raw = b'{"type":"table_opened","table_id":"t","seats":4,"options":{"edition":"%s"}}' % (
        edition.encode()
    )
    opened = codec.decode_event(raw)
    assert opened.options.wounds is None
    assert fold([opened]).options == TableOptions(edition=edition, wounds=wounds)


def test_an_unknown_wound_placement_is_refused() -> None:
    """docs/api.md (an option the server does not offer is refused, never ignored), RULES §4."""
    assert open_refused(4, options=TableOptions(wounds="sticker")) == "option_not_offered"


@pytest.mark.parametrize("n", [0, 1, 3, 9, 12])
def test_bad_seat_counts_are_refused(n: int) -> None:
    """RULES §1: 4 to 8 players."""
    assert open_refused(n) == "bad_seat_count"


@pytest.mark.parametrize("n", [4, 8])
def test_seat_counts_at_the_limits_are_accepted(n: int) -> None:
    """RULES §1: 4 to 8 players."""
    s = lobby(n)
    assert len(s.seats) == n
    assert refused(s, C.TakeSeat(name="late")) == "table_full"


def test_the_game_starts_only_with_every_seat_taken() -> None:
    """RULES §1: every seat is dealt; a table with an empty seat does not start."""
    s, _ = run(initial_state(), C.OpenTable(table_id="t", seats=4))
    for i in range(3):
        s, _ = run(s, C.TakeSeat(name=f"seat{i}"))
    assert refused(s, C.StartGame(random_seed=1)) == "seats_not_filled"
