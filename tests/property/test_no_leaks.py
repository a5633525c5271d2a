"""RULES §11 "What each seat knows", checked against an independent oracle (knowledge_oracle.py).

After every command of random games, for every seat and the public view:
- a card's identity is shown exactly when the oracle says the viewer learned it or it is face up,
  at the seat and position the oracle says, and it is the card's true identity; every face-up card
  and the viewer's own cards are always shown; each `seen_by` seat did learn that card;
- `you.hand` is the viewer's true equipment hand, no seat view carries another seat's hand (only
  its count), and the listed commands name no equipment card the viewer does not hold;
- log entries show a card (`card`, `received`) only to a viewer that learned it, private events
  only to their seat, and never a secret field (identities, deal, seed, card ids) before the end;
- before the end no view's JSON contains `random_seed` or `identities`; after it, every card is
  shown to everyone (RULES §10).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gcbc.rules import is_terminal, view
from gcbc.rules.views import version_of
from gcbc_contract import events as E
from gcbc_contract.cards import EQUIPMENT_CARDS
from gcbc_contract.http import shown_event
from gcbc_contract.options import TableOptions
from tests.property.knowledge_oracle import Oracle
from tests.property.strategies import (
    OPTION_SAMPLE,
    OPTION_SAMPLE_IDS,
    OPTION_SETS,
    PLAYER_COUNTS,
    Step,
    options_id,
    plans,
    play,
)

SETTINGS = settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

# fields of events that are secret until the end, whoever views the log
SECRET_KEYS = frozenset(
    {
        "identities",
        "hands",
        "burned",
        "equipment",
        "deck",
        "random_seed",
        "deal",
        "card_id",
        "card_ids",
        "cards",
    }
)
# events only their own seat sees in the log
PRIVATE_EVENTS = {
    E.CardsArranged: "seat",
    E.ReactionPassed: "seat",
    E.AutoPassSet: "seat",
    E.MissStreakEnded: "seat",  # RULES §6, §10: answering a window in time tells nobody
}
SEAT_VIEW_FIELDS = {
    "arms",
    "seat",
    "name",
    "eliminated",
    "wounded",
    "zombie",
    "gun",
    "equipment_count",
    "in_play",
    "cards",
    "absent",
    "bot",  # said by its player when taking it (public), or the house's seat
    "team",  # once the game is over only (below)
    "eliminated_by",
    "player",  # the registered player holding it: public, like the player's profile
}


def viewers(n: int) -> list[int | None]:
    return [*range(n), None]


def check_cards(o: Oracle, viewer: int | None, v: Any) -> None:
    assert len(v.seats) == o.n
    for j, sv in enumerate(v.seats):
        assert sv.seat == j
        assert len(sv.cards) == len(o.at[j]), f"seat {j} shows {len(sv.cards)} cards"
        for cv in sv.cards:
            cid = o.card_at(j, cv.position)
            where = f"viewer {viewer}: seat {j} position {cv.position} (card {cid})"
            assert cv.face_up == (cid in o.face_up), f"{where}: face_up is {cv.face_up}"
            if o.knows(viewer, cid):
                assert cv.card == o.identity[cid], f"{where}: shows {cv.card}, is {o.identity[cid]}"
            else:
                assert cv.card is None, f"{where}: LEAK, shows {cv.card} it never learned"
            if j == viewer:
                assert cv.card is not None, f"{where}: its own card is hidden"
            if cv.wounded:  # the Wounded token marks a Leader: only on a card all may know
                assert o.knows(None, cid), f"{where}: a card nobody may know shows a wound"
            for w in cv.seen_by:
                assert o.over or w in o.learned.get(cid, set()), f"{where}: seat {w} never saw it"


def check_equipment(o: Oracle, viewer: int | None, v: Any) -> None:
    assert v.deck_count == len(o.deck)
    for j, sv in enumerate(v.seats):
        assert sv.equipment_count == len(o.hands[j]), f"seat {j}: equipment count"
        assert Counter(sv.in_play) == Counter(o.in_play[j]), f"seat {j}: in play"
    data = msgspec.to_builtins(v)
    for sd in data["seats"]:
        assert set(sd) <= SEAT_VIEW_FIELDS, f"seat view fields {set(sd) - SEAT_VIEW_FIELDS}"
        if not o.over:  # a seat's team is hidden until the end reveals every card (RULES §10)
            assert sd["team"] is None and sd["eliminated_by"] is None, f"seat {sd['seat']}: LEAK"
    if viewer is None:
        assert v.you is None and v.legal_commands == []
        return
    assert v.you is not None and v.you.seat == viewer
    assert Counter(v.you.hand) == Counter(o.hands[viewer]), (
        f"seat {viewer}: hand {v.you.hand}, truly {o.hands[viewer]}"
    )
    assert v.you.team == o.team(viewer), f"seat {viewer}: team {v.you.team}"
    for c in data["legal_commands"]:
        card = c.get("card")
        if card is not None and card in EQUIPMENT_CARDS:
            assert card in o.hands[viewer], f"seat {viewer} is offered {c}, not in its hand"


def check_waiting(viewer: int | None, v: Any) -> None:
    """RULES §6: while a window is open, nobody learns who else has already passed."""
    if v.window is None or any(w.reason != "reaction" for w in v.waiting_for):
        return  # no window, or a prompt comes first
    shown = {w.seat for w in v.waiting_for} - {viewer}
    assert shown == set(v.window.asked) - {viewer}, (
        f"viewer {viewer}: waiting_for {sorted(shown)} but asked {v.window.asked}"
    )


def check_entry(o: Oracle, viewer: int | None, e: Any, entry: dict[str, Any] | None) -> None:
    """One log entry of ``e`` as ``viewer`` sees it, against the oracle just after ``e``."""
    if entry is None:
        return
    what = f"viewer {viewer}, {type(e).__name__} entry {entry}"
    private = PRIVATE_EVENTS.get(type(e))
    if private is not None:
        assert viewer == getattr(e, private), f"{what}: private to seat {getattr(e, private)}"
    leaked = SECRET_KEYS & set(entry)
    if isinstance(e, E.CardsDiscarded):  # classic Defibrillator: only face-up cards are discarded
        assert all(c in o.face_up for c in e.card_ids), f"{what}: a face-down card is named"
        leaked -= {"cards"}
    assert not leaked, f"{what}: secret fields {leaked}"
    if "card" in entry:
        if isinstance(e, E.CardViewed):
            assert viewer == e.viewer and o.knows(viewer, e.card_id), f"{what}: LEAK"
            assert entry["card"] == o.identity[e.card_id]
        elif isinstance(e, E.CardRevealed):
            assert o.knows(viewer, e.card_id) and entry["card"] == o.identity[e.card_id], what
        elif isinstance(e, E.EquipmentDrawn | E.EquipmentDiscarded):
            assert viewer == e.seat, f"{what}: LEAK of another seat's equipment"
        elif isinstance(e, E.EquipmentMoved):
            assert e.in_play or viewer in (e.from_seat, e.to_seat), f"{what}: LEAK"
        elif not isinstance(e, E.EquipmentPlayed | E.EquipmentReturned):  # played openly
            raise AssertionError(f"{what}: unexpected 'card' field")
    if "received" in entry:
        assert isinstance(e, E.CardsExchanged) and viewer in e.seats, f"{what}: LEAK"
        got = e.card_ids[1] if viewer == e.seats[0] else e.card_ids[0]
        assert o.knows(viewer, got) and entry["received"] == o.identity[got], what
    elif isinstance(e, E.CardsExchanged) and viewer in e.seats:
        raise AssertionError(f"{what}: a receiver is not told what it received")


def renders(e: Any, entry: dict[str, Any]) -> bool:
    """Whether ``entry`` is a rendering of ``e`` (its fields, some left out, plus v/received; the
    seed as the API shows it, a string)."""
    d = msgspec.to_builtins(shown_event(e))
    return all(k in ("v", "received") or (k in d and d[k] == x) for k, x in entry.items())


def align(viewer: int | None, events: list[Any], entries: list[dict[str, Any]]) -> list[Any]:
    """Pair every event with its log entry (or None): entries come in event order."""
    out: list[Any] = [None] * len(events)
    i = 0
    for k, e in enumerate(events):
        if i < len(entries) and renders(e, entries[i]):
            out[k] = entries[i]
            i += 1
    assert i == len(entries), f"viewer {viewer}: log entries of no event: {entries[i:]}"
    numbers = [x["v"] for x in entries]
    assert numbers == sorted(set(numbers)), f"viewer {viewer}: log numbering {numbers}"
    return out


def private_to(step: Step) -> int | None:
    """The seat a step is private to: all its events are private events of that seat."""
    seats = {getattr(e, PRIVATE_EVENTS.get(type(e), ""), None) for e in step.events}
    if len(seats) == 1 and None not in seats and step.events:
        return seats.pop()
    return None


class LeakChecker:
    """Follows a game step by step: the oracle eats the events, then every view is checked."""

    def __init__(self) -> None:
        self.oracle = Oracle()
        self.checked = 0
        self.versions: dict[int | None, int] = {}  # each viewer's version after the last step

    def __call__(self, step: Step) -> None:
        o, s = self.oracle, step.after
        over = is_terminal(s)
        n = len(s.seats)
        views = {}
        if s.identities:
            # each viewer's entries of this step's events: those numbered past its version before
            for v in viewers(n):
                seen = view(s, v, log_limit=len(step.events))
                # (once over, every event is numbered: its place in the log)
                before = len(step.before.log) if over else self.versions.get(v)
                if before is None:
                    before = view(step.before, v, log=False).version
                self.versions[v] = seen.version
                views[v] = msgspec.structs.replace(seen, log=[x for x in seen.log if x.v > before])
        pairs = {who: align(who, step.events, v.log) for who, v in views.items()}
        for k, e in enumerate(step.events):
            o.apply(e)
            if over:
                continue  # the end reveals everything, including the log of this last command
            for who in views:
                check_entry(o, who, e, pairs[who][k])
        if not o.dealt:
            return
        for who, v in views.items():
            raw = msgspec.json.encode(v)
            if not over:
                assert b"random_seed" not in raw, f"viewer {who}: the seed leaks"
                assert b"identities" not in raw, f"viewer {who}: the identities leak"
            else:
                assert all(cv.card is not None for sv in v.seats for cv in sv.cards), (
                    f"viewer {who}: a card is still hidden after the end (RULES §10)"
                )
            check_cards(o, who, v)
            check_equipment(o, who, v)
            check_waiting(who, v)
        unmoved = set()
        for who in viewers(n):
            # a view changes only with its version, whole log included (the projection makes
            # again only the views whose version moved: gcbc.rules.views.version_of)
            if version_of(step.before, who) == version_of(s, who):
                unmoved.add(who)
                now = view(s, who, log_limit=3)
                assert now.version == version_of(s, who)
                assert view(step.before, who, log_limit=3) == now, (
                    f"viewer {who}: {step.command} changed its view, not its version"
                )
        owner = private_to(step)
        if owner is not None and step.before.identities:
            # RULES §6, §11: a private step (a pass, an arrangement, an auto-pass setting) changes
            # nothing that anyone else sees, not even a version number, nor which entries its
            # log holds (a log's last entries are the viewer's own: none pushed out)
            for who in viewers(n):
                if who != owner:
                    assert who in unmoved, f"viewer {who} sees that seat {owner} did {step.command}"
                    assert views[who].log == [], f"viewer {who} sees {views[who].log}"
        self.checked += 1


def check_game(plan: Any) -> None:
    checker = LeakChecker()
    game = play(plan, checker)
    assert is_terminal(game.final) and checker.oracle.over
    assert checker.checked > 0


@pytest.mark.parametrize("n", PLAYER_COUNTS)
@settings(SETTINGS, max_examples=6)
@given(data=st.data())
def test_views_reveal_only_what_each_seat_learned(n: int, data: st.DataObject) -> None:
    check_game(data.draw(plans(n, TableOptions()), label="plan"))


@pytest.mark.slow
@pytest.mark.parametrize("n", PLAYER_COUNTS)
@SETTINGS
@given(data=st.data())
def test_views_reveal_only_what_each_seat_learned_in_more_games(
    n: int, data: st.DataObject
) -> None:
    check_game(data.draw(plans(n, TableOptions()), label="plan"))


@pytest.mark.parametrize(("options", "n"), OPTION_SAMPLE, ids=OPTION_SAMPLE_IDS)
@settings(SETTINGS, max_examples=1)  # 32 games: each combination once, the counts in turn
@given(data=st.data())
def test_no_leaks_each_option_combination(options: Any, n: int, data: st.DataObject) -> None:
    """RULES §11 for every combination of options (§7.2, §8, §9), and at every player count."""
    check_game(data.draw(plans(n, options), label="plan"))


@pytest.mark.slow
@pytest.mark.parametrize("n", PLAYER_COUNTS)
@pytest.mark.parametrize("options", OPTION_SETS, ids=options_id)
@settings(SETTINGS, max_examples=2)  # 320 games: 32 combinations (both wounds), 5 counts
@given(data=st.data())
def test_no_leaks_every_option_combination(options: Any, n: int, data: st.DataObject) -> None:
    """RULES §11 for every combination of options (§7.2, §8, §9) at every player count."""
    check_game(data.draw(plans(n, options), label="plan"))


@settings(SETTINGS, max_examples=20)
@given(plan=plans())
def test_no_leaks_any_player_count(plan: Any) -> None:
    check_game(plan)
