"""Effects several rules and cards share: viewing, revealing, drawing, getting shot (RULES §4)."""

from __future__ import annotations

from typing import Any

from gcbc.contract.events import (
    CardRevealed,
    CardViewed,
    EquipmentDrawn,
    LeaderWounded,
    SeatEliminated,
    SeatShot,
)
from gcbc.rules.equipment.registry import CARDS
from gcbc.rules.query import card_at, face_down
from gcbc.rules.state import State
from gcbc.rules.teams import holds_leader

INVESTIGATIONS = frozenset({"investigate", "metal_detector", "wiretap"})


def view_card(s: State, viewer: int, seat: int, position: int, means: str) -> list[Any]:
    """``viewer`` looks at one card; investigations trigger in-play hooks (Surveillance Camera)."""
    cid = card_at(s, seat, position)
    events: list[Any] = [
        CardViewed(
            viewer=viewer,
            seat=seat,
            position=position,
            card_id=cid,
            card=s.identities[cid],
            means=means,
        )
    ]
    if means in INVESTIGATIONS:
        for name in s.seat(seat).in_play:
            events += CARDS[name].on_investigated(s, seat, viewer)
    return events


def reveal(s: State, seat: int, position: int) -> CardRevealed:
    cid = card_at(s, seat, position)
    return CardRevealed(seat=seat, position=position, card_id=cid, card=s.identities[cid])


def draw(s: State, seat: int) -> list[Any]:
    """Draw the deck's top card (the hand limit is enforced by the flow afterwards)."""
    if not s.deck:
        return []
    return [EquipmentDrawn(seat=seat, card=s.deck[0])]


def get_shot(s: State, shooter: int, target: int) -> list[Any]:
    """RULES §4: all cards face up; a non-Leader is eliminated; a Leader is wounded, then killed."""
    events: list[Any] = [SeatShot(shooter=shooter, target=target)]
    events += [reveal(s, target, p) for p in face_down(s, target)]
    leader = holds_leader(s, target)
    if leader is None or leader in s.wounds:
        events.append(SeatEliminated(seat=target))
    else:
        events.append(LeaderWounded(seat=target, card_id=leader))
        events += draw(s, target)
    return events
