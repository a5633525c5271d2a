"""Investigate (RULES §3.1): choose one face-down integrity card of another living seat not
protected by Disguise; you alone see what it is, everyone sees which card of whose you looked at
(§11). It stays face down. Declaring it opens the investigate window (§6); then it resolves, if the
card can still be investigated; if not (turned face up in the window, say), the investigator
chooses again (§6).

Decision (RULES §3.1): a card already seen may be investigated again (no "not seen yet" limit in
the printed rules or the publisher's help), so a seat that knows every face-down card left still
has an action that reveals nothing.

Zombies (RULES §8): a zombie cannot investigate.
"""

from __future__ import annotations

from gcbc.rules.actions.base import Action, not_a_zombie
from gcbc.rules.effects import view_card
from gcbc.rules.query import investigable_face_down
from gcbc.rules.state import State
from gcbc.rules.targets import face_down_card_of, investigable_seat
from gcbc_contract import commands as C
from gcbc_contract import events as E


def _may_investigate(s: State, seat: int) -> bool:
    """Whether the seat may Investigate now: not a zombie, and another living seat that Disguise
    does not protect has a face-down card."""
    return not s.seats[seat].zombie and investigable_face_down(s, seat)


class Investigate(Action):
    name = "investigate"
    command = C.Investigate
    window = True
    requires = (not_a_zombie("investigate"),)
    needs = _may_investigate  # asked at every turn: late in a game, every card may be face up
    params = (investigable_seat("target"), face_down_card_of("target"))

    def declare(self, s, seat, cmd):
        return [
            E.ActionDeclared(seat=seat, action=self.name, target=cmd.target, position=cmd.position)
        ]

    def resolve(self, s, seat, declared):
        target, position = declared.target, declared.position
        if not self.accepts(s, seat, {"target": target, "position": position}):
            return [E.ActionCancelled(seat=seat, reason="impossible")]
        return [*view_card(s, seat, target, position, self.name), E.ActionResolved(seat=seat)]


INVESTIGATE = Investigate()
