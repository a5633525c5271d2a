"""legal_commands(state, seat): every command the seat may send now, ready to send (OpenSpiel's
legal actions). Where choices multiply past ~200 combinations a card lists a template instead."""

from __future__ import annotations

from itertools import permutations
from typing import Any

from gcbc.contract import commands as C
from gcbc.rules.decide import moment, timing_allows
from gcbc.rules.equipment.registry import card as card_rules
from gcbc.rules.query import (
    aim_choices,
    alive,
    biteable,
    can_investigate,
    face_down,
    others_alive,
)
from gcbc.rules.state import ACTION, AIM, ARRANGE, FINISHED, LOBBY, WINDOW, State

TEMPLATE_LIMIT = 200
_ORDERS = [tuple(p) for p in permutations((1, 2, 3))]


def equipment_plays(s: State, seat: int) -> list[Any]:
    when = moment(s, seat)
    st = s.seat(seat)
    if when is None or len(st.hand) != 1:
        return []
    out: list[Any] = []
    for name in dict.fromkeys(st.hand):
        card = card_rules(s, name)
        if timing_allows(card.timing, when):
            out += card.options(s, seat)
    return out


def actions(s: State, seat: int, fallback: bool = True) -> list[Any]:
    """The turn's actions (RULES §3.1; a zombie's, §8) open to ``seat`` now. ``fallback``: with
    no other action, Equip from an empty deck (see ``decide._no_other_action``)."""
    st = s.seat(seat)
    out: list[Any] = []
    if st.zombie:
        if biteable(s, seat, st.arms_aim):
            out.append(C.Bite(seat=seat))
        if s.deck or (fallback and not out):
            out.append(C.Equip(seat=seat))
        return out
    for t in others_alive(s, seat):
        if can_investigate(s, seat, t):
            # a card already seen may be investigated again (RULES §3.1)
            out += [C.Investigate(seat=seat, target=t, position=p) for p in face_down(s, t)]
    reveal: list[int | None] = list(face_down(s, seat)) or [None]
    if not st.gun and s.guns_in_centre > 0 and s.arm_barred != seat:
        out += [
            C.Arm(seat=seat, target=t, position=p) for t in others_alive(s, seat) for p in reveal
        ]
    if st.gun and st.aim is not None and alive(s, st.aim) and seat not in s.guns_locked:
        out.append(C.Shoot(seat=seat))
    if s.deck or (fallback and not out):
        out += [C.Equip(seat=seat, position=p) for p in reveal]
    return out


def legal_commands(s: State, seat: int) -> list[Any]:
    if s.step in (LOBBY, FINISHED) or not 0 <= seat < len(s.seats):
        return []
    st = s.seat(seat)
    meta: list[Any] = [C.SetAutoPass(seat=seat, enabled=not st.auto_pass)]
    if st.absent:
        return [*meta, C.Resume(seat=seat)]
    if s.prompts:
        p = s.prompts[0]
        if p.seat != seat:
            return meta
        if p.kind == "discard":
            return [C.Discard(seat=seat, card=c) for c in dict.fromkeys(st.hand)] + meta
        return card_rules(s, p.kind).prompt_options(s, p) + meta
    step = s.step
    out: list[Any] = []
    if step == ARRANGE:
        if not st.arranged:
            out = [C.Arrange(seat=seat, positions=o) for o in _ORDERS]
    elif step == WINDOW:
        w = s.window
        if w is not None and seat in w.pending:
            out = [C.Pass(seat=seat), *equipment_plays(s, seat)]
    elif step == ACTION:
        if s.turn_seat == seat:
            out = actions(s, seat) + equipment_plays(s, seat)
    elif step == AIM:
        if s.turn_seat == seat:
            out = [C.Aim(seat=seat, target=t) for t in aim_choices(s, seat)]
    return out + meta


def is_template(entry: Any) -> bool:
    return isinstance(entry, dict)


def template(card: str, seat: int, fixed: dict[str, Any], choose: dict[str, Any]) -> dict[str, Any]:
    """A command with choices left open: ``choose`` maps a parameter to its allowed values; for a
    list parameter, a list of per-element allowed values."""
    return {"type": "play_equipment", "seat": seat, "card": card, **fixed, "choose": choose}


def expand(entry: dict[str, Any], pick: Any) -> C.PlayEquipment:
    """A concrete command from a template; ``pick(values)`` chooses one value."""
    fields = {k: v for k, v in entry.items() if k not in ("type", "choose")}
    for name, allowed in entry["choose"].items():
        if allowed and isinstance(allowed[0], list):
            fields[name] = tuple(pick(a) for a in allowed)
        else:
            fields[name] = pick(allowed)
    for k in ("targets", "positions"):
        if k in fields:
            fields[k] = tuple(fields[k])
    return C.PlayEquipment(**fields)
