"""Small questions about a state, shared by the rules, the cards and the views."""

from __future__ import annotations

from gcbc.rules.equipment.registry import CARDS
from gcbc.rules.state import State
from gcbc_contract.events import ArmsAimed, GunAimed


def holders(s: State) -> tuple[int, ...]:
    """Every living seat holding equipment: all are asked in a window (RULES §6)."""
    return tuple(i for i, st in enumerate(s.seats) if st.hand and not st.eliminated)


def alive(s: State, seat: int) -> bool:
    return 0 <= seat < len(s.seats) and not s.seats[seat].eliminated


def living(s: State) -> list[int]:
    return [i for i, st in enumerate(s.seats) if not st.eliminated]


def others_alive(s: State, seat: int) -> list[int]:
    return [i for i, st in enumerate(s.seats) if i != seat and not st.eliminated]


def positions(s: State, seat: int) -> range:
    """The seat's card positions: 1-3 (a classic Defibrillator leaves only 1)."""
    return range(1, len(s.seats[seat].cards) + 1)


def zombies(s: State) -> list[int]:
    return [i for i, st in enumerate(s.seats) if st.zombie and not st.eliminated]


def biteable(s: State, biter: int, target: int | None) -> bool:
    """RULES §8: a zombie bites the living seat other than itself its Arms aim at. A zombie may be
    bitten: the publisher's help (seeds/000, 2023-08-01, "GETTING SHOT/BITTEN": "If you are already
    a Zombie, you aim your Arms at yourself") makes it resolve like a shot at a zombie."""
    return target is not None and target != biter and alive(s, target)


def bite_lands(s: State, biter: int, target: int | None) -> bool:
    """Whether the declared bite can land on ``target``. Decision (RULES §8 'equipment that acts on
    guns and shooting acts on Arms and biting the same way'): a forced bite (Restraining Order, Riot
    Shield...) lands on any living seat, as a forced shot does; on a zombie (the biter included) it
    resolves like a shot at a zombie: its Arms turn to aim at itself. Arms turned on the biter
    itself meanwhile (K-9 Unit, a shot) cannot bite at all, as a gun dropped cannot shoot."""
    d = s.declared
    if d is not None and d.action == "bite" and d.forced_target is not None:
        return target is not None and alive(s, target) and wields(s, biter)
    return biteable(s, biter, target)


def aim_choices(s: State, seat: int) -> list[int]:
    """Where the turn seat may aim in its Aim phase (RULES §3.2): any other living seat, but not the
    one its bite, or its shot at a zombie, just hit (§8: it must aim again; the publisher's help:
    "You must choose a new target in the Aim phase"), unless no other seat is left. A zombie whose
    Arms aim at itself may also keep them there (§8: that aim is optional)."""
    st = s.seats[seat]
    choices = living(s) if st.zombie and st.arms_aim == seat else others_alive(s, seat)
    if s.marks.reaim_from in choices and len(choices) > 1:
        choices.remove(s.marks.reaim_from)
    return choices


def face_down(s: State, seat: int) -> list[int]:
    """Positions (1-3) of the seat's face-down integrity cards."""
    return [p + 1 for p, up in enumerate(s.seats[seat].face_up) if not up]


def card_at(s: State, seat: int, position: int) -> int:
    return s.seats[seat].cards[position - 1]


def protected(s: State, seat: int) -> bool:
    """Cannot be investigated (Disguise in play in front of it)."""
    return any(CARDS[c].protects_from_investigation for c in s.seats[seat].in_play)


def wields(s: State, seat: int) -> bool:
    """Holds a weapon: a gun, or a zombie's Arms aimed at another seat. RULES §8: cards on guns act
    on Arms the same way, and Arms aimed at the zombie itself count as a dropped gun."""
    st = s.seats[seat]
    return st.gun or (st.zombie and st.arms_aim != seat)


def wielders(s: State) -> list[int]:
    """Every living seat holding a weapon (``wields``), in seat order."""
    return [i for i, st in enumerate(s.seats) if not st.eliminated and wields(s, i)]


# what some moves need (``Move.needs``)
def any_face_down(s: State, seat: int) -> bool:
    """Whether any seat, ``seat`` included, has a face-down card."""
    return any(False in st.face_up for st in s.seats)


def any_weapon(s: State, seat: int) -> bool:
    """Whether some seat holds a gun or is a zombie (with Arms): what a card on weapons needs."""
    return any(st.gun or st.zombie for st in s.seats)


def fallen_elsewhere(s: State, seat: int) -> bool:
    """Whether a seat other than ``seat`` is eliminated or a zombie."""
    return any(i != seat and (st.eliminated or st.zombie) for i, st in enumerate(s.seats))


def neighbours(s: State, seat: int) -> tuple[int, int]:
    """The nearest living seat on the left and on the right (RULES §7.1 Riot Shield)."""
    n = len(s.seats)
    left = right = seat
    for step in range(1, n):
        cand = (seat - step) % n
        if not s.seats[cand].eliminated:
            left = cand
            break
    for step in range(1, n):
        cand = (seat + step) % n
        if not s.seats[cand].eliminated:
            right = cand
            break
    return left, right


def turn_order(s: State, seat: int) -> list[int]:
    """Every seat in the order turns go round the table now (a Smoke Grenade's reversal once
    it took effect), starting at ``seat``."""
    n = len(s.seats)
    return [(seat + s.marks.direction * k) % n for k in range(n)]


def next_living(s: State, seat: int, direction: int) -> int:
    n = len(s.seats)
    for step in range(1, n + 1):
        cand = (seat + direction * step) % n
        if not s.seats[cand].eliminated:
            return cand
    return seat


def can_investigate(s: State, viewer: int, target: int) -> bool:
    """A seat another seat may investigate: alive, not the viewer, not protected."""
    if target == viewer or not 0 <= target < len(s.seats):
        return False
    st = s.seats[target]
    return not st.eliminated and not (st.in_play and protected(s, target))


def investigable_face_down(s: State, viewer: int, enough: int = 1) -> bool:
    """Whether ``enough`` seats the viewer may investigate (``can_investigate``) have a face-down
    card (Investigate needs one, Wiretap two)."""
    found = 0
    for t, st in enumerate(s.seats):
        if False in st.face_up and can_investigate(s, viewer, t):
            found += 1
            if found == enough:
                return True
    return False


def pending_shot(s: State) -> tuple[int, int] | None:
    """(shooter, target) of the shot waiting in the open shoot window, if it can still happen;
    a bite in the bite window counts as a shot by the zombie (RULES §8)."""
    w, d = s.window, s.declared
    if w is None or d is None or w.kind != d.action or d.action not in ("shoot", "bite"):
        return None
    shooter = s.turn_seat
    st = s.seats[shooter]
    if st.eliminated:
        return None
    if d.action == "bite":
        target = d.forced_target if d.forced_target is not None else st.arms_aim
        return (shooter, target) if st.zombie and bite_lands(s, shooter, target) else None
    if not st.gun or shooter in s.guns_locked:  # a gun taken this turn cannot shoot (§8.1)
        return None
    target = d.forced_target if d.forced_target is not None else st.aim
    if target is None or not alive(s, target):
        return None
    return shooter, target


def aim_of(s: State, seat: int) -> int | None:
    """Where the seat's gun, or a zombie's Arms, aims."""
    st = s.seats[seat]
    return st.arms_aim if st.zombie else st.aim


def aim_event(s: State, seat: int, target: int) -> ArmsAimed | GunAimed:
    """Aiming the seat's weapon: its gun, or a zombie's Arms (RULES §8)."""
    if s.seats[seat].zombie:
        return ArmsAimed(seat=seat, target=target)
    return GunAimed(seat=seat, target=target)
