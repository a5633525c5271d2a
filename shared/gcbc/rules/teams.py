"""Teams and winning (RULES §2): recomputed from cards whenever cards move."""

from __future__ import annotations

from collections.abc import Iterable

from gcbc.contract.cards import AGENT, CROOKED, HONEST, KINGPIN, TEAM_CROOKED, TEAM_HONEST
from gcbc.rules.equipment.registry import CARDS
from gcbc.rules.state import State


def team_from(cards: Iterable[str | None], in_play: Iterable[str]) -> str | None:
    """The team of a seat holding ``cards`` (None: unknown to the caller), given its in-play cards.

    A Leader decides its holder's team; otherwise the majority of Honest/Crooked does, flipped by
    any in-play card that flips the majority (Planted Evidence). None when it cannot be told.
    """
    cards = list(cards)
    if AGENT in cards and KINGPIN in cards:
        return "solo"
    if AGENT in cards:
        return TEAM_HONEST
    if KINGPIN in cards:
        return TEAM_CROOKED
    if None in cards:
        known = [c for c in cards if c is not None]
        honest, crooked = known.count(HONEST), known.count(CROOKED)
        if honest < 2 and crooked < 2:
            return None
    else:
        honest, crooked = cards.count(HONEST), cards.count(CROOKED)
    majority = TEAM_HONEST if honest > crooked else TEAM_CROOKED
    flips = sum(1 for c in in_play if CARDS[c].flips_majority) % 2
    if flips:
        majority = TEAM_CROOKED if majority == TEAM_HONEST else TEAM_HONEST
    return majority


def true_team(s: State, seat: int) -> str:
    st = s.seat(seat)
    team = team_from((s.identities[c] for c in st.cards), st.in_play)
    assert team is not None
    return team


def holds_leader(s: State, seat: int) -> int | None:
    """The id of the Leader card ``seat`` holds, if any."""
    for c in s.seat(seat).cards:
        if s.identities[c] in (AGENT, KINGPIN):
            return c
    return None


def is_wounded(s: State, seat: int) -> bool:
    return any(c in s.wounds for c in s.seat(seat).cards)


def winner(s: State) -> tuple[tuple[int, ...], str, str] | None:
    """(winners, team, reason) if the game is won now, else None. Checked after every event."""
    agent, kingpin = s.leader_ids
    for i, st in enumerate(s.seats):
        cards = st.cards
        if agent in cards:
            if kingpin in cards:
                return (i,), "solo", "both_leaders"
            if st.eliminated:
                return _team_wins(s, TEAM_CROOKED, f"{AGENT}_eliminated")
        elif kingpin in cards and st.eliminated:
            return _team_wins(s, TEAM_HONEST, f"{KINGPIN}_eliminated")
    return None


def _team_wins(s: State, team: str, reason: str) -> tuple[tuple[int, ...], str, str]:
    return tuple(j for j in range(len(s.seats)) if true_team(s, j) == team), team, reason
