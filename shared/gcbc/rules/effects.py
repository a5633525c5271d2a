"""Effects several rules and cards share: viewing, revealing, drawing, getting shot (RULES §4)."""

from __future__ import annotations

from typing import Any

from gcbc.rules.equipment.registry import CARDS
from gcbc.rules.query import card_at, face_down
from gcbc.rules.state import State
from gcbc.rules.teams import holds_leader, true_team
from gcbc_contract.cards import TEAM_BOMBER
from gcbc_contract.events import (
    ArmsAimed,
    BecameZombie,
    CardRevealed,
    CardsExchanged,
    CardViewed,
    EquipmentDrawn,
    LeaderWounded,
    SeatBitten,
    SeatEliminated,
    SeatShot,
)

INVESTIGATIONS = frozenset({"investigate", "metal_detector", "wiretap", "fingerprint_kit"})


def view_card(s: State, viewer: int, seat: int, position: int, means: str) -> list[Any]:
    """``viewer`` looks at one card; investigations trigger in-play hooks (Surveillance Camera)."""
    cid = card_at(s, seat, position)
    events: list[Any] = [
        CardViewed(
            viewer=viewer,
            seat=seat,
            position=position,
            card_id=cid,
            card=s.setup.identities[cid],
            means=means,
        )
    ]
    if means in INVESTIGATIONS:
        for name in s.seats[seat].in_play:
            events += CARDS[name].on_investigated(s, seat, viewer)
    return events


def exchange(s: State, seats: tuple[int, int], positions: tuple[int, int]) -> CardsExchanged:
    """Two seats' cards swap places, each keeping its face; each receiver learns what it got
    (Blackmail, Fake ID, Transfusion Tube, Zombie Mask)."""
    (a, b), (pa, pb) = seats, positions
    ca, cb = card_at(s, a, pa), card_at(s, b, pb)
    return CardsExchanged(
        seats=(a, b),
        positions=(pa, pb),
        card_ids=(ca, cb),
        cards=(s.setup.identities[ca], s.setup.identities[cb]),
    )


def reveal(s: State, seat: int, position: int) -> CardRevealed:
    cid = card_at(s, seat, position)
    return CardRevealed(seat=seat, position=position, card_id=cid, card=s.setup.identities[cid])


def draw(s: State, seat: int) -> list[Any]:
    """Draw the deck's top card (the hand limit is enforced by the flow afterwards)."""
    if not s.deck:
        return []
    return [EquipmentDrawn(seat=seat, card=s.deck[0])]


def can_become_zombie(s: State, seat: int) -> bool:
    """RULES §8, §9: with Zombies, a non-Leader that is not a Bomber rises instead of falling."""
    return (
        s.setup.options.zombies
        and not s.seats[seat].zombie
        and holds_leader(s, seat) is None
        and true_team(s, seat) != TEAM_BOMBER
    )


def _fallen(s: State, seat: int, by: int | None) -> Any:
    """A seat that would be eliminated is, or becomes a zombie instead (RULES §8)."""
    if can_become_zombie(s, seat):
        return BecameZombie(seat=seat, by=by)
    return SeatEliminated(seat=seat, by=by)


def fall(s: State, seat: int, by: int | None) -> list[Any]:
    """A seat that would be eliminated without being shot (RULES §4, "card": its Leader card
    gone): only a shot turns cards face up, so it falls with its cards as they lie, unless it
    rises as a zombie, which turns every card face up (§8)."""
    fallen = _fallen(s, seat, by)
    if isinstance(fallen, BecameZombie):
        return [*(reveal(s, seat, p) for p in face_down(s, seat)), fallen]
    return [fallen]


def get_shot(s: State, shooter: int, target: int) -> list[Any]:
    """RULES §4: all cards face up; a non-Leader is eliminated (or becomes a zombie, §8); a Leader
    is wounded, then killed. A zombie shot turns its Arms to aim at itself (§8)."""
    return _hit(s, SeatShot(shooter=shooter, target=target), shooter, target)


def get_bitten(s: State, biter: int, target: int) -> list[Any]:
    """RULES §8: a bite resolves like a shot by the zombie."""
    return _hit(s, SeatBitten(biter=biter, target=target), biter, target)


def _hit(s: State, first: Any, by: int, target: int) -> list[Any]:
    st = s.seats[target]
    if st.zombie:
        return [first, ArmsAimed(seat=target, target=target)]
    # RULES §4: the target turns all its integrity cards face up, then is hit
    events: list[Any] = [first, *(reveal(s, target, p) for p in face_down(s, target))]
    leader = holds_leader(s, target)
    if leader is None:
        return [*events, _fallen(s, target, by)]
    if leader in s.wounds or st.wounded:
        events.append(SeatEliminated(seat=target, by=by))
    else:
        events.append(LeaderWounded(seat=target, card_id=leader))
        events += draw(s, target)
    return events
