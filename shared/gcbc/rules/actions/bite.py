"""Bite (RULES §8): a zombie's action: bite the seat its Arms aim at, a living seat other than
itself. Declaring it opens the bite window, like a shot; it resolves like a shot by the zombie
(``effects.get_bitten``). The biter keeps its Arms and must re-aim in its Aim phase.

Equipment that affects shooting affects biting the same way (§8): a card that forces the bite
names its target, and equipment played in the window lets the zombie reconsider, as a shooter.
"""

from __future__ import annotations

from gcbc.rules.actions.base import Action
from gcbc.rules.effects import get_bitten
from gcbc.rules.moves import Rule
from gcbc.rules.query import bite_lands
from gcbc.rules.state import State
from gcbc_contract import commands as C
from gcbc_contract import events as E


def bite_at(s: State, seat: int) -> int | None:
    """Where the zombie's bite goes: the target a card forced, else where its Arms aim."""
    d = s.declared
    if d is not None and d.forced_target is not None:
        return d.forced_target
    return s.seat(seat).arms_aim


class Bite(Action):
    name = "bite"
    command = C.Bite
    window = True
    requires = (
        Rule(
            "not_a_zombie",
            "only zombies bite (Zombies expansion)",
            lambda s, seat: s.seats[seat].zombie,
        ),
        Rule(
            "not_aimed_to_bite",
            "your Arms do not aim at a living seat you can bite",
            lambda s, seat: bite_lands(s, seat, bite_at(s, seat)),
        ),
    )

    def declare(self, s, seat, cmd):
        return [E.ActionDeclared(seat=seat, action=self.name, target=s.seat(seat).arms_aim)]

    def resolve(self, s, seat, declared):
        if not self.allowed(s, seat):
            return [E.ActionCancelled(seat=seat, reason="impossible")]
        if declared.forced_target is None and declared.reacted:
            return [E.ActionCancelled(seat=seat, reason="reconsider")]
        return [*get_bitten(s, seat, bite_at(s, seat)), E.ActionResolved(seat=seat)]


BITE = Bite()
