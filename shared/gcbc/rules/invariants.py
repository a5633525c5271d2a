"""Invariants that hold after every event of a started game. The simulator and the property tests
check them; a violation is reported, never hidden. Written to be cheap: they run per event."""

from __future__ import annotations

from functools import cache

from gcbc.rules.setup import arms, equipment_deck, guns
from gcbc.rules.state import ARRANGE, LOBBY, State
from gcbc_contract.cards import AGENT, KINGPIN
from gcbc_contract.options import TableOptions


@cache
def _full_deck(options: TableOptions, n: int) -> list[str]:
    return sorted(equipment_deck(options, n))


def violations(s: State) -> list[str]:
    if s.step == LOBBY or not s.setup.identities:
        return []
    out: list[str] = []
    seats = s.seats
    n = len(seats)
    # integrity cards: each in exactly one place; exactly one Agent and one Kingpin
    placed = [c for st in seats for c in st.cards]
    placed += s.setup.burned
    placed += s.discarded
    if len(placed) != len(s.setup.identities) or set(placed) != set(range(len(s.setup.identities))):
        out.append("integrity cards not conserved")
    if s.setup.identities.count(AGENT) != 1 or s.setup.identities.count(KINGPIN) != 1:
        out.append("not exactly one agent and one kingpin")
    # equipment: every card of the deck in exactly one place
    equipment = list(s.deck)
    for st in seats:
        equipment += st.hand
        equipment += st.in_play
    equipment.sort()
    if equipment != _full_deck(s.setup.options, n):
        out.append("equipment not conserved")
    held = 0
    zombies = 0
    discarding = [p.seat for p in s.prompts if p.kind == "discard"]
    for i, st in enumerate(seats):
        if st.gun:
            held += 1
            if st.aim is None and s.step != ARRANGE:
                out.append(f"seat {i} holds an unaimed gun")
        if st.aim == i:
            out.append(f"seat {i} aims at itself")
        if st.zombie:
            zombies += 1
            if st.gun or st.eliminated or st.arms_aim is None:
                out.append(f"zombie {i} holds a gun, is eliminated or has no Arms")
            # RULES §8: revealed when it rose, and no card moves a zombie's integrity cards
            if False in st.face_up or any(c in s.setup.leader_ids for c in st.cards):
                out.append(f"zombie {i} holds a face-down or a Leader card")
        elif st.arms_aim is not None:
            out.append(f"seat {i} has Arms but is no zombie")
        hand = len(st.hand)
        if hand > 1 and (hand > 2 or i not in discarding):
            out.append(f"seat {i} is over the hand limit")
        if st.eliminated and (st.gun or hand):
            out.append(f"eliminated seat {i} holds a gun or equipment")
        known = s.knowledge[i]
        cards = st.cards
        if len(cards) not in (1, 3) or len(st.face_up) != len(cards):
            out.append(f"seat {i} does not hold three cards (or one, classic Defibrillator)")
        elif any(c not in known for c in cards):
            out.append(f"seat {i} does not know its own cards")
    # RULES §4: a wound lives where the table's option says, and a token only on a Leader card
    if s.setup.options.wounds == "card":
        if s.wounds:
            out.append("a Wounded token on a table whose wounds are cards")
    elif any(st.wounded for st in seats):
        out.append("a Wounded card on a table whose wounds are tokens")
    elif any(c not in s.setup.leader_ids for c in s.wounds):
        out.append("a Wounded token on a card that is not a Leader")
    if held + s.guns_in_centre != guns(s.setup.options, n) or s.guns_in_centre < 0:
        out.append("guns not conserved")
    if zombies + s.arms_in_centre != arms(s.setup.options, n) or s.arms_in_centre < 0:
        out.append("arms not conserved")
    return out
