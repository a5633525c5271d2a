"""The autopilot (RULES §10): a legal choice for a seat that missed its deadline or is away,
drawn from the table's seeded randomness so that a replay reproduces it.

Decision (RULES §6: "the declared shot goes ahead when it still can"): a shooter asked again after
equipment was played in its shoot window, that lets its turn's deadline pass (or is away), does not
get a random action: the declared shot resolves at once and without a new window, if it is still
possible (the seat still holds a gun that may shoot, aimed at a seat still in the game). It goes
where the gun aims then: a shot is at the seat one aims at (§3.1), so a gun turned meanwhile
(Walkie Talkie) sends it there, as it would have without the reconsidering. Only an impossible
shot makes the autopilot choose anew. A zombie's declared bite stands the same way (§8: equipment
that affects shooting affects biting the same way).

In an Aim phase the autopilot keeps a valid aim. A zombie's Arms aimed at itself are no aim to
keep (they cannot bite, as a dropped gun cannot shoot): though the zombie may keep them there
(§8), the autopilot turns them to another seat drawn at random, so that a zombie on autopilot
still bites."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from gcbc.rules.actions import BY_NAME
from gcbc.rules.commands import seat_events
from gcbc.rules.errors import refuse
from gcbc.rules.evolve import peek
from gcbc.rules.legal import actions, legal_commands
from gcbc.rules.query import aim_choices, aim_of
from gcbc.rules.rng import Rng
from gcbc.rules.state import ACTION, AIM, State
from gcbc.rules.templates import expand, is_template
from gcbc.rules.waits import current_wait
from gcbc_contract import commands as C
from gcbc_contract import events as E

AUTOPILOT_STREAM = 1 << 32
ABSENT_AFTER = 3  # missed deadlines in a row


def choose(s: State, seat: int, rng: Rng) -> Any:
    if not s.prompts and s.step == AIM:
        aim = aim_of(s, seat)
        if aim is not None and aim != seat and aim in aim_choices(s, seat):
            return C.Aim(seat=seat, target=aim)  # keep a valid aim
    # an absent seat's legal commands are only Resume and SetAutoPass: ask as if it were present
    present = replace(
        s, seats=tuple(replace(x, absent=False) if i == seat else x for i, x in enumerate(s.seats))
    )
    if s.prompts:
        options = [c for c in legal_commands(present, seat) if isinstance(c, (C.Choose, C.Discard))]
    elif s.step == AIM:
        aims = [c for c in legal_commands(present, seat) if isinstance(c, C.Aim)]
        options = [c for c in aims if c.target != seat] or aims
    else:
        options = actions(s, seat)
        kinds = sorted({type(c).__name__ for c in options})
        kind = rng.choice(kinds)
        options = [c for c in options if type(c).__name__ == kind]
    pick = rng.choice(options)
    return expand(pick, rng.choice) if is_template(pick) else pick


def standing_shot(s: State, seat: int) -> E.ActionDeclared | None:
    """The reconsidered shot (or bite) of ``seat``, declared again to stand, if still possible:
    the seat may still shoot (or bite). It goes where the gun (or the Arms) aims now: a shot is
    at "the player at whom you are aiming" (RULES §3.1), and a card that turned the gun
    (Walkie Talkie) sent it there, as it would have without the reconsidering."""
    d = s.marks.standing
    if d is None or s.prompts or s.step != ACTION or s.turn_seat != seat:
        return None
    target = aim_of(s, seat)
    if target is None or not BY_NAME[d.action].allowed(s, seat):
        return None
    return E.ActionDeclared(seat=seat, action=d.action, target=target, stands=True)


def autopilot_events(s: State, seat: int, missed: bool) -> list[Any]:
    """The autopilot acts for ``seat``: it missed its deadline, or it is away."""
    rng = Rng(s.setup.random_seed, AUTOPILOT_STREAM + s.rng_draws)
    stands = standing_shot(s, seat)
    command = choose(s, seat, rng) if stands is None else None
    events: list[Any] = [E.AutopilotActed(seat=seat, missed=missed)]
    after = peek(s, events)
    if missed and not after.seat(seat).absent and after.seat(seat).missed >= ABSENT_AFTER:
        events.append(E.SeatAbsent(seat=seat))
        after = peek(after, events[-1:])
    if stands is not None:
        return [*events, stands]
    return events + seat_events(after, command, autopilot=True)


# --- a deadline passed (RULES §10) --------------------------------------------------------------
def check_deadline(s: State, c: C.DeadlinePassed) -> None:
    w = current_wait(s)
    if w is None or w.id != c.wait:
        raise refuse("stale_deadline", "that wait is over")


def deadline_passed(s: State, c: C.DeadlinePassed) -> list[Any]:
    """A missed turn, aim or prompt: the autopilot acts; a missed window or arrangement: every
    seat still asked passes (keeps its order)."""
    w = current_wait(s)
    assert w is not None
    if w.kind not in ("reaction", "arrange"):
        return autopilot_events(s, w.seats[0], missed=True)
    # Decision (RULES §10: every missed deadline counts towards the three in a row, a reaction
    # window's and the arrangement's too): each seat still asked misses it
    events: list[Any] = []
    for i in w.seats:
        if w.kind == "reaction":
            events.append(E.ReactionPassed(seat=i, auto=True, missed=True))
        else:
            events.append(E.CardsArranged(seat=i, positions=(1, 2, 3), missed=True))
        st = s.seat(i)
        if not st.absent and st.missed + 1 >= ABSENT_AFTER:
            events.append(E.SeatAbsent(seat=i))
    return events
