"""Whole random games at every player count, and for every combination of the table options
(RULES §1, §2, §5, §6, §7, §8, §9):

- ``invariants.violations`` is empty after every single event (each command's events are folded
  one by one with ``evolve``), and the folded state is the one ``run`` returned;
- ``decide`` returns the very events ``run`` applied;
- exactly one Agent and one Kingpin, the integrity cards of RULES §1 conserved (Honest = Crooked
  per count, the burned count, three cards per seat (or one after a classic Defibrillator), Agent
  and Kingpin dealt to different seats), with the icons of RULES §9 under Bombers & Traitors;
- the hand limit (at most 1 equipment card, unless that seat's discard prompt is pending);
- no seat aims at itself or at a seat that does not exist;
- every game ends within the driver's step cap, with winners;
- same seed and same choices give the same event log (compared msgspec-encoded);
- folding the log from ``initial_state`` gives the live state, and so does folding the events
  decoded from their JSON encoding (``gcbc_contract.codec``).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gcbc.rules import decide, evolve, fold, initial_state, is_terminal
from gcbc.rules.invariants import violations
from gcbc.rules.state import LOBBY, State
from gcbc_contract import codec
from gcbc_contract import events as E
from gcbc_contract.options import TableOptions
from tests.property.strategies import (
    MAX_STEPS,
    OPTION_SAMPLE,
    OPTION_SAMPLE_IDS,
    OPTION_SETS,
    PLAYER_COUNTS,
    Plan,
    Step,
    options_id,
    plans,
    play,
)

OPTION_EXAMPLES = 2  # per option combination and player count
SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# RULES §1: Honest = Crooked per player count, and how many cards are burned unseen.
PER_SIDE = {4: 5, 5: 7, 6: 8, 7: 10, 8: 11}
BURNED = {4: 0, 5: 1, 6: 0, 7: 1, 8: 0}
# RULES §9, per side: (bomb, knife, bomb+knife, blank) cards in the deck for n players
ICONS = {
    "honest": {4: (2, 2, 1, 0), 5: (3, 2, 1, 1), 6: (3, 2, 1, 2), 7: (3, 3, 1, 3), 8: (3, 4, 1, 3)},
    "crooked": {
        4: (2, 2, 1, 0),
        5: (2, 3, 1, 1),
        6: (2, 3, 1, 2),
        7: (3, 3, 1, 3),
        8: (4, 3, 1, 3),
    },
}


def icon_counts(names: list[str], side: str) -> tuple[int, int, int, int]:
    mine = [n.split("_")[1:] for n in names if n.split("_")[0] == side]
    return (
        sum(i == ["bomb"] for i in mine),
        sum(i == ["knife"] for i in mine),
        sum(i == ["bomb", "knife"] for i in mine),
        sum(i == [] for i in mine),
    )


def own_violations(s: State) -> list[str]:
    """The properties above, written here independently of ``invariants``."""
    if s.step == LOBBY or not s.identities:
        return []
    n = len(s.seats)
    out = []
    want = {"honest": PER_SIDE[n], "crooked": PER_SIDE[n], "agent": 1, "kingpin": 1}
    sides = Counter(name.split("_")[0] for name in s.identities)
    if sides != want:
        out.append(f"integrity cards {dict(sides)}, RULES §1 says {want}")
    if s.options.bombers_traitors:
        for side in ("honest", "crooked"):
            got = icon_counts(list(s.identities), side)
            if got != ICONS[side][n]:
                out.append(f"{side} icons {got}, RULES §9 says {ICONS[side][n]}")
    elif sides != Counter(s.identities):
        out.append("cards with icons without Bombers & Traitors")
    if len(s.burned) != BURNED[n]:
        out.append(f"{len(s.burned)} burned cards")
    placed = [c for st_ in s.seats for c in st_.cards] + list(s.burned) + list(s.discarded)
    if sorted(placed) != list(range(len(s.identities))):
        out.append(f"integrity cards not conserved: {sorted(placed)}")
    leaders = [c for c, name in enumerate(s.identities) if name in ("agent", "kingpin")]
    if any(c in s.burned for c in leaders):
        out.append("a Leader was burned")
    # RULES §4: where wounds live is the table's option, edition default filled in
    wounds = s.options.wounds
    if wounds not in ("token", "card"):
        out.append(f"wounds is {wounds!r}")
    tokens, cards = bool(s.wounds), any(st_.wounded for st_ in s.seats)
    if (wounds == "card" and tokens) or (wounds == "token" and cards):
        out.append(f"a wound on the wrong thing for wounds={wounds}")
    if any(s.identities[c] not in ("agent", "kingpin") for c in s.wounds):
        out.append("a Wounded token on a card that is not a Leader")
    discarding = {p.seat for p in s.prompts if p.kind == "discard"}
    for i, st_ in enumerate(s.seats):
        if len(st_.cards) != 3 and not (s.options.edition == "classic" and len(st_.cards) == 1):
            out.append(f"seat {i} holds {len(st_.cards)} integrity cards")
        if len(st_.hand) > (2 if i in discarding else 1):
            out.append(f"seat {i} holds {len(st_.hand)} equipment cards")
        if st_.aim is not None and (st_.aim == i or not 0 <= st_.aim < n):
            out.append(f"seat {i} aims at {st_.aim}")
    return out


def check_step(step: Step) -> None:
    """Fold the step's events one by one, checking every intermediate state."""
    s = step.before
    for k, e in enumerate(step.events):
        s = evolve(s, e)
        bad = violations(s) + own_violations(s)
        assert not bad, f"after event {k} {e} of {step.command}: {bad}"
        if isinstance(e, E.CardsDealt):
            for hand in e.hands:
                names = [e.identities[c] for c in hand]
                assert not ("agent" in names and "kingpin" in names), "Leaders dealt together"
    assert s == step.after, f"folding the events of {step.command} gives another state"
    assert decide(step.before, step.command) == step.events, f"decide != run for {step.command}"


def check_ended(plan: Plan, steps: list[Step]) -> None:
    final = steps[-1].after
    assert is_terminal(final) and len(steps) <= MAX_STEPS
    assert final.winners, f"{plan}: the game ended without winners"
    assert isinstance(steps[-1].events[-1], E.AllRevealed)
    assert sum(isinstance(e, E.GameWon) for st_ in steps for e in st_.events) == 1


def check_game(plan: Plan) -> None:
    game = play(plan, check_step)
    assert game.final.seat_count == plan.n
    check_ended(plan, game.steps)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
@settings(SETTINGS, max_examples=12)
@given(data=st.data())
def test_invariants_hold_after_every_event(n: int, data: st.DataObject) -> None:
    check_game(data.draw(plans(n, TableOptions()), label="plan"))


@pytest.mark.slow
@pytest.mark.parametrize("n", PLAYER_COUNTS)
@SETTINGS
@given(data=st.data())
def test_invariants_hold_after_every_event_in_more_games(n: int, data: st.DataObject) -> None:
    check_game(data.draw(plans(n, TableOptions()), label="plan"))


def check_options_game(plan: Plan, options: TableOptions) -> None:
    """Invariants after every event, termination, determinism, and fold == live."""
    game = play(plan, check_step)
    check_ended(plan, game.steps)
    assert game.final.options == options
    again = play(plan)
    assert encoded(again.events) == encoded(game.events) and again.final == game.final
    assert fold(codec.decode_events(encoded(game.events))) == game.final


@pytest.mark.parametrize(("options", "n"), OPTION_SAMPLE, ids=OPTION_SAMPLE_IDS)
@settings(SETTINGS, max_examples=OPTION_EXAMPLES)
@given(data=st.data())
def test_invariants_each_option_combination(options, n: int, data: st.DataObject) -> None:
    """RULES §7-§9: the same properties for every combination of options, and at every count."""
    check_options_game(data.draw(plans(n, options), label="plan"), options)


@pytest.mark.slow
@pytest.mark.parametrize("n", PLAYER_COUNTS)
@pytest.mark.parametrize("options", OPTION_SETS, ids=options_id)
@settings(SETTINGS, max_examples=OPTION_EXAMPLES)
@given(data=st.data())
def test_invariants_every_option_combination(options, n: int, data: st.DataObject) -> None:
    """RULES §7-§9: the same properties for every combination of options at every count."""
    check_options_game(data.draw(plans(n, options), label="plan"), options)


@settings(SETTINGS, max_examples=50)
@given(plan=plans())
def test_invariants_any_player_count(plan: Plan) -> None:
    game = play(plan, check_step)
    check_ended(plan, game.steps)


def encoded(events: list[Any]) -> bytes:
    return codec.encode(events)


@settings(SETTINGS, max_examples=40)
@given(plan=plans())
def test_same_seed_and_choices_give_the_same_log(plan: Plan) -> None:
    first, second = play(plan), play(plan)
    assert [codec.encode(c) for c in first.commands] == [codec.encode(c) for c in second.commands]
    assert encoded(first.events) == encoded(second.events)
    assert first.final == second.final


@settings(SETTINGS, max_examples=40)
@given(plan=plans())
def test_folding_the_log_rebuilds_the_live_state(plan: Plan) -> None:
    game = play(plan)
    events = game.events
    assert fold(events, initial_state()) == game.final
    assert fold(events) == game.final
    decoded = codec.decode_events(encoded(events))
    assert decoded == events
    assert fold(decoded) == game.final
    # one event at a time too, as a log store would hand them back
    assert fold(codec.decode_event(codec.encode(e)) for e in events) == game.final
