"""Taser (RULES §7.1): your own turn only, not your action. You hold no gun: take another living
seat's gun and aim it at once (``aim``); it cannot shoot this turn.

Zombies (RULES §8: 'Taser cannot pick a zombie'; 'Zombies cannot Investigate, Arm or take a gun'): a
zombie cannot play it (``zombie_cannot``), and a zombie is never its target (``target_is_zombie``; a
zombie holds no gun anyway). The new aim may be a zombie.
"""

from __future__ import annotations

from gcbc.rules.equipment.base import Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.moves import Rule
from gcbc.rules.targets import other_living_seat
from gcbc.rules.timing import OWN_TURN
from gcbc_contract.events import GunTaken


@register
class Taser(Card):
    name = "taser"
    timing = OWN_TURN
    requires = (
        Rule(
            "zombie_cannot", "a zombie cannot steal a gun", lambda s, seat: not s.seats[seat].zombie
        ),
        Rule("has_gun", "you already hold a gun", lambda s, seat: not s.seats[seat].gun),
    )
    params = (
        other_living_seat(
            "target",
            Rule(
                "target_is_zombie",
                "the Taser cannot target a zombie",
                lambda s, me, t, c: not s.seats[t].zombie,
            ),
            Rule("no_gun", "seat {value} holds no gun", lambda s, me, t, c: s.seats[t].gun),
        ),
        other_living_seat("aim"),
    )

    def resolve(self, s, seat, cmd):
        return [GunTaken(seat=seat, aim=cmd.aim, from_seat=cmd.target, locked=True)]
