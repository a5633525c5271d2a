"""Zombie Mask (RULES §8.1): ``targets`` = (a zombie, another living seat). The zombie stops being
one (its Arms return to the centre) and exchanges all its integrity cards with all those of the
other seat: one exchange per position, each card keeping its face (the zombie's cards are all face
up), each receiver learning what it got. The exchanges list the two seats in increasing order.

Decisions: either seat may be you (a zombie may cure itself, and its turn goes on as a living
seat's). Both seats must hold the same number of cards (a classic Defibrillator leaves one), and
the other seat must not be a zombie (it would have to stop being one too)."""

from __future__ import annotations

from gcbc.rules.effects import exchange
from gcbc.rules.equipment.base import Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.moves import Rule
from gcbc.rules.query import positions
from gcbc.rules.targets import living_seat
from gcbc_contract.events import ZombieCured


@register
class ZombieMask(Card):
    name = "zombie_mask"
    params = (
        living_seat(
            "targets",
            Rule(
                "not_a_zombie",
                "seat {value} is not a zombie",
                lambda s, me, t, c: s.seats[t].zombie,
            ),
            index=0,
            name="zombie",
        ),
        living_seat(
            "targets",
            Rule(
                "invalid_target",
                "choose another seat than the zombie",
                lambda s, me, t, c: t != c["zombie"],
            ),
            Rule(
                "target_is_zombie",
                "seat {value} is a zombie",
                lambda s, me, t, c: not s.seats[t].zombie,
            ),
            Rule(
                "invalid_target",
                "both seats must hold the same number of cards",
                lambda s, me, t, c: len(s.seats[t].cards) == len(s.seats[c["zombie"]].cards),
            ),
            index=1,
            name="other",
        ),
    )

    def resolve(self, s, seat, cmd):
        z, o = cmd.targets
        a, b = sorted((z, o))
        events: list = [ZombieCured(seat=z)]
        events += [exchange(s, (a, b), (p, p)) for p in positions(s, z)]
        return events
