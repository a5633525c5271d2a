"""Invariants that hold after every event of a started game. The simulator and the property tests
check them; a violation is reported, never hidden."""

from __future__ import annotations

from collections import Counter

from gcbc.contract.cards import AGENT, KINGPIN
from gcbc.rules.setup import equipment_deck
from gcbc.rules.state import ARRANGE, LOBBY, State


def violations(s: State) -> list[str]:
    if s.step == LOBBY or not s.identities:
        return []
    out: list[str] = []
    n = len(s.seats)
    # integrity cards: each in exactly one place
    places = Counter(c for st in s.seats for c in st.cards) + Counter(s.burned)
    if sorted(places) != list(range(len(s.identities))) or any(v != 1 for v in places.values()):
        out.append("integrity cards not conserved")
    ids = Counter(s.identities)
    if ids[AGENT] != 1 or ids[KINGPIN] != 1:
        out.append("not exactly one agent and one kingpin")
    # equipment: every card of the deck in exactly one place
    where = Counter(s.deck) + Counter(c for st in s.seats for c in (*st.hand, *st.in_play))
    if where != Counter(equipment_deck(s.options, n)):
        out.append("equipment not conserved")
    # guns
    held = sum(1 for st in s.seats if st.gun)
    if s.options.edition == "fourth" and held + s.guns_in_centre != n:
        out.append("guns not conserved")
    discarding = {p.seat for p in s.prompts if p.kind == "discard"}
    for i, st in enumerate(s.seats):
        if st.aim == i:
            out.append(f"seat {i} aims at itself")
        if st.gun and st.aim is None and s.step != ARRANGE:
            out.append(f"seat {i} holds an unaimed gun")
        if len(st.hand) > 1 and i not in discarding:
            out.append(f"seat {i} is over the hand limit")
        if len(st.hand) > 2:
            out.append(f"seat {i} holds {len(st.hand)} equipment cards")
        if st.eliminated and (st.gun or st.hand):
            out.append(f"eliminated seat {i} holds a gun or equipment")
        if any(c not in s.knowledge[i] for c in st.cards):
            out.append(f"seat {i} does not know its own cards")
        if len(st.cards) != 3 or len(st.face_up) != 3:
            out.append(f"seat {i} does not hold three cards")
    if s.winners is None and sum(1 for st in s.seats if not st.eliminated) < 1:
        out.append("no living seat")
    return out
