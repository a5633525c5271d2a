"""Shoot (RULES §3.1): only holding a gun aimed at a living seat (and not a gun taken this turn by
a Taser or a Weapon Crate). Declaring it opens the shoot window (§6); then the target is shot (§4)
and the shooter's gun returns to the centre. A card that forces the shot (Restraining Order, Riot
Shield, Classified Orders, Holster) names its target instead of the gun's aim.

RULES §6: if equipment was played in the window and nothing forces the shot, the shooter may
choose a new action: the declared shot is cancelled ("reconsider"), and stands if the shooter lets
its deadline pass (``autopilot.standing_shot``). Zombies (RULES §8): a shot at a zombie does not
eliminate it (its Arms turn to aim at itself); the shooter keeps its gun and must re-aim.
"""

from __future__ import annotations

from gcbc.rules.actions.base import Action
from gcbc.rules.effects import get_shot
from gcbc.rules.evolve import peek
from gcbc.rules.moves import Rule
from gcbc.rules.query import alive
from gcbc.rules.state import State
from gcbc_contract import commands as C
from gcbc_contract import events as E


def shot_at(s: State, seat: int) -> int | None:
    """Where the seat's shot goes: the target a card forced on the declared shot, else its aim."""
    d = s.declared
    if d is not None and d.forced_target is not None:
        return d.forced_target
    return s.seats[seat].aim


def _aimed(s: State, seat: int) -> bool:
    target = shot_at(s, seat)
    return target is not None and alive(s, target)


class Shoot(Action):
    name = "shoot"
    command = C.Shoot
    window = True
    requires = (
        Rule("no_gun", "you hold no gun", lambda s, seat: s.seats[seat].gun),
        Rule("not_aimed", "your gun is not aimed at a living seat", _aimed),
        Rule(
            "gun_locked",
            "this gun cannot shoot this turn",
            lambda s, seat: seat not in s.guns_locked,
        ),
    )

    def declare(self, s, seat, cmd):
        return [E.ActionDeclared(seat=seat, action=self.name, target=s.seats[seat].aim)]

    def resolve(self, s, seat, declared):
        if not self.allowed(s, seat):
            return [E.ActionCancelled(seat=seat, reason="impossible")]
        if declared.forced_target is None and declared.reacted:
            return [E.ActionCancelled(seat=seat, reason="reconsider")]
        target = shot_at(s, seat)
        at_zombie = s.seats[target].zombie  # the shooter keeps its gun and re-aims (RULES §8)
        events = get_shot(s, seat, target)
        if not at_zombie and peek(s, events).seat(seat).gun:
            events.append(E.GunDropped(seat=seat))
        events.append(E.ActionResolved(seat=seat))
        return events


SHOOT = Shoot()
