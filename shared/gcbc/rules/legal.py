"""legal_commands(state, seat): every command the seat may send now, ready to send (OpenSpiel's
legal actions), from the same declarations the refusals come from (``moves``). Where choices
multiply past ~200 combinations a move lists a template instead."""

from __future__ import annotations

from typing import Any

from gcbc.contract import commands as C
from gcbc.rules.actions import ACTIONS
from gcbc.rules.aim import AIM
from gcbc.rules.arrange import ARRANGE as ARRANGING
from gcbc.rules.equipment.registry import card as card_rules
from gcbc.rules.moves import TEMPLATE_LIMIT, expand, is_template, template
from gcbc.rules.state import ACTION, ARRANGE, FINISHED, LOBBY, WINDOW, State
from gcbc.rules.state import AIM as AIM_STEP
from gcbc.rules.timing import allows, moment

__all__ = [
    "TEMPLATE_LIMIT",
    "actions",
    "equipment_plays",
    "expand",
    "is_template",
    "legal_commands",
    "template",
]


def equipment_plays(s: State, seat: int) -> list[Any]:
    """The plays of the seat's equipment its moment allows (a seat over the hand limit first
    discards: RULES §6)."""
    hand = s.seats[seat].hand
    if len(hand) != 1:
        return []
    when = moment(s, seat)
    if when is None:
        return []
    card = card_rules(s, hand[0])
    return card.options(s, seat) if allows(card.timing, when) else []


def actions(s: State, seat: int) -> list[Any]:
    """The turn's actions (RULES §3.1; a zombie's, §8) open to ``seat`` now."""
    out: list[Any] = []
    for action in ACTIONS:
        out += action.options(s, seat)
    return out


def legal_commands(s: State, seat: int) -> list[Any]:
    if s.step in (LOBBY, FINISHED) or not 0 <= seat < len(s.seats):
        return []
    st = s.seats[seat]
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
        out = ARRANGING.options(s, seat)
    elif step == WINDOW:
        w = s.window
        if w is not None and seat in w.pending:
            out = [C.Pass(seat=seat), *equipment_plays(s, seat)]
    elif step == ACTION:
        if s.turn_seat == seat:
            out = actions(s, seat) + equipment_plays(s, seat)
    elif step == AIM_STEP:
        if s.turn_seat == seat:
            out = AIM.options(s, seat)
    return out + meta
