"""Shared givens for the equipment scenario tests (RULES §6, §7.1, §7.3).

Seats, card ids and identities of the standard 4-seat deal ``FOUR`` (arranged as dealt, so the card
at seat ``i``, position ``p`` has id ``3 * i + p - 1``):

    seat 0: agent,   honest,  honest    (team honest)
    seat 1: kingpin, crooked, crooked   (team crooked)
    seat 2: honest,  crooked, honest    (team honest)
    seat 3: crooked, honest,  crooked   (team crooked)
"""

from __future__ import annotations

import copy
from typing import Any

from msgspec.structs import replace

from gcbc.rules import legal_commands, run, view
from gcbc.rules.effects import get_shot
from gcbc.rules.evolve import fold
from gcbc.rules.invariants import violations
from gcbc.rules.legal import expand, is_template
from gcbc.rules.state import State
from gcbc_contract import commands as C
from gcbc_contract import events as E
from tests.support import KP, A, H, K, act, pass_window, refused, table

FOUR = [[A, H, H], [KP, K, K], [H, K, H], [K, H, K]]
# 5 seats: 7 Honest, 7 Crooked (one Crooked burned unseen)
FIVE = [[A, H, H], [KP, K, K], [H, K, H], [K, H, K], [H, K, H]]
# 8 seats: 11 Honest, 11 Crooked
EIGHT = [[A, H, H], [KP, K, K], [H, H, K], [K, K, H], [H, H, K], [K, K, H], [H, H, K], [K, K, H]]

WINDOWS = ("investigate", "shoot", "end_of_turn")


def cid(seat: int, position: int) -> int:
    """The id of the card dealt to ``seat`` at ``position``."""
    return 3 * seat + position - 1


def deal(
    hands: dict[int, str],
    integrity: list[list[str]] | None = None,
    first_seat: int = 0,
    deck: list[str] | None = None,
    guns: dict[int, int] | None = None,
    setup: list[Any] = (),
    options: Any = None,
) -> State:
    """A started table: ``hands`` maps a seat to its one equipment card. ``setup`` are commands
    played in the start-of-game window (e.g. a Disguise put in play) before it is passed; ``guns``
    gives guns already aimed (seat -> aim), as if armed in earlier turns."""
    integrity = integrity or FOUR
    n = len(integrity)
    equipment = [[hands[i]] if i in hands else [] for i in range(n)]
    kw = {"options": options} if options is not None else {}
    s = table(integrity, equipment, deck=deck, first_seat=first_seat, start_window=False, **kw)
    for cmd in setup:
        s, _ = act(s, cmd)
    s = pass_window(s)
    assert s.step == "action"
    assert s.turn_seat == first_seat  # a Coffee played before it acts in it (RULES §7.1)
    if guns:
        s = give_guns(s, guns)
    return s


def give_guns(s: State, aims: dict[int, int]) -> State:
    """Given: each seat of ``aims`` holds a gun from the centre, aimed as given."""
    seats = list(s.seats)
    for i, target in aims.items():
        seats[i] = replace(seats[i], gun=True, aim=target)
    s = replace(s, seats=tuple(seats), guns_in_centre=s.guns_in_centre - len(aims))
    assert violations(s) == []
    return s


def shot_earlier(s: State, target: int, shooter: int | None = None) -> State:
    """Given: ``target`` was shot earlier in the game (the engine's own shot events, folded)."""
    shooter = (target + 1) % len(s.seats) if shooter is None else shooter
    s = fold(get_shot(s, shooter, target), s)
    assert violations(s) == [] and s.step != "finished"
    return s


def play(seat: int, card: str, **kw: Any) -> C.PlayEquipment:
    return C.PlayEquipment(seat=seat, card=card, **kw)


def refused_unchanged(s: State, command: Any) -> str:
    """The violation code ``command`` is refused with; the state is left exactly as it was."""
    before = copy.deepcopy(s)
    hand = s.seat(command.seat).hand if 0 <= command.seat < len(s.seats) else None
    code = refused(s, command)
    assert s == before, "a refused command changed the state"
    if hand is not None:
        assert s.seat(command.seat).hand == hand
    return code


def pass_current(s: State) -> State:
    """Everyone asked in the open window passes; later windows are left alone."""
    kind = s.window.kind if s.window is not None else None
    while s.step == "window" and s.window.kind == kind and s.window.pending and not s.prompts:
        s, _ = act(s, C.Pass(seat=min(s.window.pending)))
    return s


def first_investigate(s: State, avoid: tuple[int, ...] = ()) -> C.Investigate:
    t = s.turn_seat
    for c in legal_commands(s, t):
        if isinstance(c, C.Investigate) and c.target not in avoid:
            return c
    raise AssertionError("no investigation possible")


def open_window(s: State, kind: str, avoid: tuple[int, ...] = ()) -> State:
    """From the turn seat's action phase, open a ``kind`` reaction window (RULES §6): a declared
    investigate (of a seat not in ``avoid``), a declared shoot, or the end of the turn (after an
    investigation and the Aim phase)."""
    t = s.turn_seat
    assert s.step == "action"
    if kind == "investigate":
        s, _ = act(s, first_investigate(s, avoid))
    elif kind == "shoot":
        s, _ = act(s, C.Shoot(seat=t))
    elif kind == "end_of_turn":
        s, _ = act(s, first_investigate(s, avoid))
        s = pass_current(s)
        assert not s.prompts
        if s.step == "aim":
            s, _ = act(s, C.Aim(seat=t, target=s.seat(t).aim))
    else:
        raise AssertionError(kind)
    assert s.window is not None and s.window.kind == kind, s.window
    return s


def end_turn(s: State) -> State:
    """Play the current turn to its end, from wherever it is: everyone asked passes, the turn seat
    investigates (or equips) if it must still act, and keeps its aim. Returns the next turn."""
    turn = s.turn_number
    while s.turn_number == turn and s.step != "finished":
        assert not s.prompts, s.prompts
        t = s.turn_seat
        if s.step == "window":
            s = pass_window(s)
        elif s.step == "aim":
            aim = s.seat(t).aim
            if aim is None or s.seat(aim).eliminated:
                aim = next(i for i in range(len(s.seats)) if i != t and not s.seat(i).eliminated)
            s, _ = act(s, C.Aim(seat=t, target=aim))
        else:
            assert s.step == "action"
            options = legal_commands(s, t)
            cmd = next((c for c in options if isinstance(c, C.Investigate)), None)
            s, _ = act(s, cmd or next(c for c in options if isinstance(c, C.Equip)))
    return s


def finish_turn(s: State) -> State:
    """The turn seat investigates (or equips), everyone passes, it keeps its aim: the next turn."""
    assert s.step == "action"
    return end_turn(s)


def turn_order(s: State, turns: int) -> list[int]:
    """The seats of the next ``turns`` turns after the current one (each played plainly)."""
    seats = []
    for _ in range(turns):
        s = end_turn(s)
        seats.append(s.turn_seat)
    return seats


def legal_plays(s: State, seat: int, card: str | None = None) -> list[Any]:
    """The equipment plays (commands or templates) listed for ``seat`` now."""
    out = []
    for c in legal_commands(s, seat):
        if is_template(c):
            if card is None or c["card"] == card:
                out.append(c)
        elif isinstance(c, C.PlayEquipment) and (card is None or c.card == card):
            out.append(c)
    return out


def accept_all(s: State, seat: int, card: str) -> int:
    """Every listed play of ``card`` is accepted by the engine: returns how many were tried."""
    plays = legal_plays(s, seat, card)
    assert plays, f"no legal play of {card} listed for seat {seat}"
    tried = 0
    for entry in plays:
        cmds = (
            [expand(entry, lambda v: v[0]), expand(entry, lambda v: v[-1])]
            if is_template(entry)
            else [entry]
        )
        for cmd in cmds:
            _, events = run(s, cmd)
            assert isinstance(events[0], E.EquipmentPlayed) and events[0].card == card
            tried += 1
    return tried


def accept_all_prompt(s: State) -> int:
    """Every listed answer to the open prompt is accepted."""
    p = s.prompts[0]
    answers = [c for c in legal_commands(s, p.seat) if isinstance(c, (C.Choose, C.Discard))]
    assert answers
    for cmd in answers:
        _, events = run(s, cmd)
        assert any(isinstance(e, E.PromptAnswered) and e.seat == p.seat for e in events)
    return len(answers)


def known(s: State, viewer: int | None, seat: int, position: int) -> str | None:
    """What ``viewer`` (None: the public) sees of the card at ``seat``/``position``."""
    return view(s, viewer, log=False).seats[seat].cards[position - 1].card


def team(s: State, seat: int) -> str | None:
    """The team ``seat`` sees for itself in its view (RULES §2, §11)."""
    you = view(s, seat, log=False).you
    assert you is not None
    return you.team


def of(events: list[Any], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def one(events: list[Any], kind: type) -> Any:
    found = of(events, kind)
    assert len(found) == 1, f"expected one {kind.__name__}, got {found}"
    return found[0]
