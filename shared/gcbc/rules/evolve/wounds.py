"""Shots, wounds and eliminations, and the zombies' bites, turnings and cures."""

from __future__ import annotations

from msgspec.structs import replace

from gcbc.rules.equipment.registry import CARDS
from gcbc.rules.evolve.base import Handler, put
from gcbc.rules.state import State, Trail, TurnMarks
from gcbc_contract import events as E


def _by_the_action(s: State, seat: int, action: str) -> bool:
    """Whether a shot (bite) by ``seat`` is the turn's declared action resolving: not a card the
    turn's seat plays in the action's own window (a Crossbow at a zombie is no Shoot of its gun)."""
    d = s.declared
    return seat == s.turn_seat and d is not None and d.action == action and s.window is None


def _seat_shot(s: State, e: E.SeatShot, v: int, log: Trail) -> State:
    # RULES §8: the turn's shooter that shot a zombie keeps its gun and must re-aim
    if s.seats[e.target].zombie and _by_the_action(s, e.shooter, "shoot"):
        return replace(s, version=v, log=log, marks=replace(s.marks, reaim_from=e.target))
    return replace(s, version=v, log=log)


def _shot_redirected(s: State, e: E.ShotRedirected, v: int, log: Trail) -> State:
    d = s.declared
    assert d is not None
    return replace(s, version=v, log=log, declared=replace(d, forced_target=e.target))


def _leader_wounded(s: State, e: E.LeaderWounded, v: int, log: Trail) -> State:
    if s.setup.options.wounds == "card":  # the seat takes the Wounded card (RULES §4)
        seats = put(s.seats, e.seat, replace(s.seats[e.seat], wounded=True))
        return replace(s, version=v, log=log, seats=seats)
    return replace(s, version=v, log=log, wounds=s.wounds | {e.card_id})  # a token on the card


def _wound_healed(s: State, e: E.WoundHealed, v: int, log: Trail) -> State:
    if s.setup.options.wounds == "card":  # the Wounded card leaves the seat (Med Kit, RULES §4)
        seats = put(s.seats, e.seat, replace(s.seats[e.seat], wounded=False))
        return replace(s, version=v, log=log, seats=seats)
    return replace(s, version=v, log=log, wounds=s.wounds - {e.card_id})


def _fell(s: State, seat: int) -> TurnMarks:
    """The turn's marks once ``seat`` is eliminated: the turn's seat fell? (One that rises as a
    zombie plays on: its turn is a zombie's, RULES §8.)"""
    m = s.marks
    return m if m.turn_fell or seat != s.turn_seat else replace(m, turn_fell=True)


def _seat_eliminated(s: State, e: E.SeatEliminated, v: int, log: Trail) -> State:
    # RULES §4: its equipment goes to the bottom of the deck, and so do its cards in play but
    # Planted Evidence, which still flips the team it wins with
    st = s.seats[e.seat]
    stays = tuple(c for c in st.in_play if CARDS[c].flips_majority)
    leaves = tuple(c for c in st.in_play if not CARDS[c].flips_majority)
    fallen = replace(
        st, eliminated=True, gun=False, aim=None, hand=(), in_play=stays, fallen_by=e.by
    )
    marks = _fell(s, e.seat)
    if marks.coffee_seat == e.seat:
        # RULES §7.1: a Coffee whose player is eliminated before the turn ends does nothing,
        # even if it is brought back before then
        marks = replace(marks, coffee_seat=None)
    return replace(
        s,
        version=v,
        log=log,
        seats=put(s.seats, e.seat, fallen),
        deck=s.deck + st.hand + leaves,
        guns_in_centre=s.guns_in_centre + (1 if st.gun else 0),
        prompts=tuple(p for p in s.prompts if p.seat != e.seat or p.kind != "discard"),
        marks=marks,
    )


def _seat_revived(s: State, e: E.SeatRevived, v: int, log: Trail) -> State:
    # RULES §4: a revived seat gives its Wounded card back (wounds "card": it fell for lacking a
    # Leader card, and would fall again at once)
    revived = replace(s.seats[e.seat], eliminated=False, fallen_by=None, wounded=False)
    return replace(s, version=v, log=log, seats=put(s.seats, e.seat, revived))


def _seat_bitten(s: State, e: E.SeatBitten, v: int, log: Trail) -> State:
    # RULES §8: the biter keeps its Arms and must re-aim
    if _by_the_action(s, e.biter, "bite"):
        return replace(s, version=v, log=log, marks=replace(s.marks, reaim_from=e.target))
    return replace(s, version=v, log=log)


def _became_zombie(s: State, e: E.BecameZombie, v: int, log: Trail) -> State:
    st = s.seats[e.seat]
    zombie = replace(st, zombie=True, gun=False, aim=None, arms_aim=e.seat, wounded=False)
    return replace(
        s,
        version=v,
        log=log,
        guns_in_centre=s.guns_in_centre + (1 if st.gun else 0),
        arms_in_centre=s.arms_in_centre - 1,
        guns_locked=s.guns_locked - {e.seat},
        seats=put(s.seats, e.seat, zombie),
    )


def _zombie_cured(s: State, e: E.ZombieCured, v: int, log: Trail) -> State:
    cured = replace(s.seats[e.seat], zombie=False, arms_aim=None)
    return replace(
        s,
        version=v,
        log=log,
        arms_in_centre=s.arms_in_centre + 1,
        seats=put(s.seats, e.seat, cured),
    )


# the shots', the wounds', the eliminations' and the zombies' events -> their handlers
HANDLERS: dict[type, Handler] = {
    E.SeatShot: _seat_shot,
    E.ShotRedirected: _shot_redirected,
    E.LeaderWounded: _leader_wounded,
    E.WoundHealed: _wound_healed,
    E.SeatEliminated: _seat_eliminated,
    E.SeatRevived: _seat_revived,
    E.SeatBitten: _seat_bitten,
    E.BecameZombie: _became_zombie,
    E.ZombieCured: _zombie_cured,
}
