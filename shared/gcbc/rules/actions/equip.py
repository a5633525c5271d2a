"""Equip (RULES §3.1): draw an equipment card; over the hand limit, discard down to one first
(the flow's discard prompt); then, with a face-down integrity card, turn one face up, of the
seat's choice (``position``). No window opens (RULES §6 Decision).

Decision (RULES §3.1): with an empty deck Equip draws nothing and is still allowed, so that a
seat always has an action.

Zombies (RULES §8): a zombie may Equip: it draws, and no card is revealed (all are face up).
"""

from __future__ import annotations

from gcbc.rules.actions.base import CARD_TO_REVEAL, Action
from gcbc.rules.effects import draw, reveal
from gcbc.rules.moves import Param, Rule
from gcbc_contract import commands as C
from gcbc_contract import events as E

_ZOMBIE_REVEALS_NOTHING = Rule(
    "invalid_position",
    "a zombie turns no card face up",
    lambda s, seat, p, c: p is None or not s.seats[seat].zombie,
    select=lambda s, seat, ps, c: [p for p in ps if p is None] if s.seats[seat].zombie else ps,
)


class Equip(Action):
    name = "equip"
    command = C.Equip
    params = (
        Param(
            CARD_TO_REVEAL.field,
            CARD_TO_REVEAL.among,
            CARD_TO_REVEAL.outside,
            (_ZOMBIE_REVEALS_NOTHING, *CARD_TO_REVEAL.rules),
        ),
    )

    def declare(self, s, seat, cmd):
        return [E.ActionDeclared(seat=seat, action=self.name, position=cmd.position)]

    def resolve(self, s, seat, declared):
        if not declared.drawn and s.deck:
            return draw(s, seat)  # then the hand limit, then this again
        st = s.seats[seat]
        p = declared.position
        face_down = p is not None and p <= len(st.cards) and not st.face_up[p - 1]
        events = [reveal(s, seat, p)] if face_down else []
        return [*events, E.ActionResolved(seat=seat)]


EQUIP = Equip()
