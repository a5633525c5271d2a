"""Teams and winning (RULES §2, §8, §9): recomputed from cards whenever cards move."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from gcbc.rules.equipment.registry import CARDS
from gcbc.rules.state import State
from gcbc_contract.cards import (
    AGENT,
    BOMB,
    CROOKED,
    HONEST,
    KINGPIN,
    KNIFE,
    TEAM_BOMBER,
    TEAM_CROOKED,
    TEAM_HONEST,
    TEAM_SOLO,
    TEAM_TRAITOR,
    TEAM_ZOMBIE,
    icons_of,
    side_of,
)

Won = tuple[tuple[int, ...], str, str]  # (winning seats, team, reason)


def team_from(
    cards: Iterable[str | None], in_play: Iterable[str], zombie: bool = False
) -> str | None:
    """The team of a seat holding ``cards`` (None: unknown to the caller), given its in-play cards.

    A zombie is on team Zombie (§8). A Leader decides its holder's team; three bomb icons make a
    Bomber, three knife icons a Traitor (§9); otherwise the majority of Honest/Crooked does,
    flipped by any in-play card that flips the majority (Planted Evidence). None when it cannot be
    told.
    """
    if zombie:
        return TEAM_ZOMBIE
    cards = list(cards)
    if AGENT in cards and KINGPIN in cards:
        return TEAM_SOLO
    if AGENT in cards:
        return TEAM_HONEST
    if KINGPIN in cards:
        return TEAM_CROOKED
    known = [c for c in cards if c is not None]
    if len(cards) == 3:
        for icon, role in ((BOMB, TEAM_BOMBER), (KNIFE, TEAM_TRAITOR)):
            with_icon = sum(1 for c in known if icon in icons_of(c))
            if with_icon == 3:
                return role
            if with_icon == len(known) < 3:
                return None  # the unknown cards could make the role
    sides = [side_of(c) for c in known]
    honest, crooked = sides.count(HONEST), sides.count(CROOKED)
    if len(known) < len(cards) and 2 * max(honest, crooked) <= len(cards):
        return None
    majority = TEAM_HONEST if honest > crooked else TEAM_CROOKED
    flips = sum(1 for c in in_play if CARDS[c].flips_majority) % 2
    if flips:
        majority = TEAM_CROOKED if majority == TEAM_HONEST else TEAM_HONEST
    return majority


@lru_cache(maxsize=4096)
def team_of(cards: tuple[str | None, ...], in_play: tuple[str, ...], zombie: bool) -> str | None:
    """``team_from`` of one hand: a pure function of few different hands, found once each (the
    win is checked after every card movement, each seat's team asked again)."""
    return team_from(cards, in_play, zombie)


def true_team(s: State, seat: int) -> str:
    st = s.seats[seat]
    team = team_of(tuple(map(s.setup.identities.__getitem__, st.cards)), st.in_play, st.zombie)
    assert team is not None
    return team


def holds_leader(s: State, seat: int) -> int | None:
    """The id of the Leader card ``seat`` holds, if any."""
    agent, kingpin = s.setup.leader_ids
    for c in s.seats[seat].cards:
        if c == agent or c == kingpin:
            return c
    return None


def is_wounded(s: State, seat: int) -> bool:
    """``wounds: "token"``: a Wounded token on a card the seat holds; ``"card"``: the seat's
    own Wounded card (RULES §4)."""
    st = s.seats[seat]
    return st.wounded or any(c in s.wounds for c in st.cards)


def winner(s: State) -> Won | None:
    """(winners, team, reason) if the game is won now, else None. Checked after every shot, bite
    and card movement, in the precedence of RULES §9 (which reduces to §2 without expansions)."""
    agent, kingpin = s.setup.leader_ids
    agent_seat = kingpin_seat = None  # who holds each Leader
    for i, st in enumerate(s.seats):
        cards = st.cards
        if agent in cards:
            if kingpin in cards:
                return (i,), TEAM_SOLO, "both_leaders"  # §9.1
            agent_seat = i
        elif kingpin in cards:
            kingpin_seat = i
    if s.setup.options.bombers_traitors:
        for i, st in enumerate(s.seats):
            if st.eliminated and st.fallen_by is not None and st.fallen_by != i:
                if true_team(s, i) == TEAM_BOMBER:
                    return _team_wins(s, (TEAM_BOMBER,), "bomber_shot")  # §9.2
    for i, name, opponents in (
        (agent_seat, AGENT, TEAM_CROOKED),
        (kingpin_seat, KINGPIN, TEAM_HONEST),
    ):
        if i is None or not s.seats[i].eliminated:
            continue
        reason = f"{name}_eliminated"
        by = s.seats[i].fallen_by
        if by is not None and by != i and true_team(s, by) == TEAM_BOMBER:  # §9.3a
            if _any_alive(s, TEAM_TRAITOR):
                return _team_wins(s, (TEAM_BOMBER, TEAM_TRAITOR), reason)
            return _team_wins(s, (TEAM_BOMBER,), reason)
        if _any_alive(s, TEAM_TRAITOR):  # §9.3b
            return _team_wins(s, (TEAM_TRAITOR,), reason)
        if by is not None and s.seats[by].zombie:  # §9.3c, §8
            return _team_wins(s, (TEAM_ZOMBIE,), reason)
        return _team_wins(s, (opponents,), reason)  # §9.3d, §2
    return None


def _any_alive(s: State, team: str) -> bool:
    return any(not st.eliminated and true_team(s, i) == team for i, st in enumerate(s.seats))


def _team_wins(s: State, teams: tuple[str, ...], reason: str) -> Won:
    seats = tuple(j for j in range(len(s.seats)) if true_team(s, j) in teams)
    return seats, "_".join(teams), reason
