"""Invariants that hold after every event of a started game. The simulator and the property tests
check them after every event; a violation is reported, never hidden."""

from __future__ import annotations

from functools import cache

from gcbc.rules.setup import arms, equipment_deck, guns
from gcbc.rules.state import ARRANGE, LOBBY, Seat, State
from gcbc_contract.cards import AGENT, KINGPIN
from gcbc_contract.options import TableOptions


@cache
def _full_deck(options: TableOptions, n: int) -> list[str]:
    return sorted(equipment_deck(options, n))


def violations(s: State) -> list[str]:
    if s.step == LOBBY or not s.setup.identities:
        return []
    return [
        *_integrity_cards(s),
        *_equipment(s),
        *(v for i, st in enumerate(s.seats) for v in _seat(s, i, st)),
        *_wounds(s),
        *_weapons(s),
    ]


def _integrity_cards(s: State) -> list[str]:
    """Each integrity card in exactly one place; exactly one Agent and one Kingpin."""
    out = []
    identities = s.setup.identities
    placed = [c for st in s.seats for c in st.cards]
    placed += s.setup.burned
    placed += s.discarded
    if len(placed) != len(identities) or set(placed) != set(range(len(identities))):
        out.append("integrity cards not conserved")
    if identities.count(AGENT) != 1 or identities.count(KINGPIN) != 1:
        out.append("not exactly one agent and one kingpin")
    return out


def _equipment(s: State) -> list[str]:
    """Every card of the deck in exactly one place."""
    equipment = list(s.deck)
    for st in s.seats:
        equipment += st.hand
        equipment += st.in_play
    equipment.sort()
    if equipment != _full_deck(s.setup.options, len(s.seats)):
        return ["equipment not conserved"]
    return []


def _seat(s: State, i: int, st: Seat) -> list[str]:
    """What holds of one seat: its gun, its Arms, its hand, its cards."""
    out = []
    if st.gun and st.aim is None and s.step != ARRANGE:
        out.append(f"seat {i} holds an unaimed gun")
    if st.aim == i:
        out.append(f"seat {i} aims at itself")
    if st.zombie:
        if st.gun or st.eliminated or st.arms_aim is None:
            out.append(f"zombie {i} holds a gun, is eliminated or has no Arms")
        # RULES §8: revealed when it rose, and no card moves a zombie's integrity cards
        if False in st.face_up or any(c in s.setup.leader_ids for c in st.cards):
            out.append(f"zombie {i} holds a face-down or a Leader card")
    elif st.arms_aim is not None:
        out.append(f"seat {i} has Arms but is no zombie")
    hand = len(st.hand)
    discarding = any(p.seat == i and p.kind == "discard" for p in s.prompts)
    if hand > 1 and (hand > 2 or not discarding):
        out.append(f"seat {i} is over the hand limit")
    if st.eliminated and (st.gun or hand):
        out.append(f"eliminated seat {i} holds a gun or equipment")
    if len(st.cards) not in (1, 3) or len(st.face_up) != len(st.cards):
        out.append(f"seat {i} does not hold three cards (or one, classic Defibrillator)")
    elif any(c not in s.knowledge[i] for c in st.cards):
        out.append(f"seat {i} does not know its own cards")
    return out


def _wounds(s: State) -> list[str]:
    """RULES §4: a wound lives where the table's option says, and a token only on a Leader card."""
    if s.setup.options.wounds == "card":
        return ["a Wounded token on a table whose wounds are cards"] if s.wounds else []
    if any(st.wounded for st in s.seats):
        return ["a Wounded card on a table whose wounds are tokens"]
    if any(c not in s.setup.leader_ids for c in s.wounds):
        return ["a Wounded token on a card that is not a Leader"]
    return []


def _weapons(s: State) -> list[str]:
    """The guns and the zombies' Arms: each in a hand or in the centre."""
    out = []
    n = len(s.seats)
    guns_held = sum(1 for st in s.seats if st.gun)
    arms_held = sum(1 for st in s.seats if st.zombie)
    if guns_held + s.guns_in_centre != guns(s.setup.options, n) or s.guns_in_centre < 0:
        out.append("guns not conserved")
    if arms_held + s.arms_in_centre != arms(s.setup.options, n) or s.arms_in_centre < 0:
        out.append("arms not conserved")
    return out
