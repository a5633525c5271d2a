"""Zombie Mask (RULES §8.1): ``targets`` = (a zombie, another living seat). The zombie stops being
one (its Arms return to the centre) and exchanges all its integrity cards with all those of the
other seat: one exchange per position, each card keeping its face (the zombie's cards are all face
up), each receiver learning what it got. The exchanges list the two seats in increasing order.

Decisions: either seat may be you (a zombie may cure itself, and its turn goes on as a living
seat's). Both seats must hold the same number of cards (a classic Defibrillator leaves one), and
the other seat must not be a zombie (it would have to stop being one too)."""

from __future__ import annotations

from gcbc.contract.events import ZombieCured
from gcbc.rules.effects import exchange
from gcbc.rules.equipment import checks
from gcbc.rules.equipment.base import ANY, Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.errors import refuse
from gcbc.rules.query import living, positions, zombies


def partners(s, zombie):
    count = len(s.seat(zombie).cards)
    return [
        o
        for o in living(s)
        if o != zombie and not s.seat(o).zombie and len(s.seat(o).cards) == count
    ]


@register
class ZombieMask(Card):
    name = "zombie_mask"
    timing = ANY
    params = frozenset({"targets"})

    def options(self, s, seat):
        return [self.play(seat, targets=(z, o)) for z in zombies(s) for o in partners(s, z)]

    def check(self, s, seat, cmd):
        if len(cmd.targets) != 2:
            raise refuse("bad_parameters", "name the zombie and the other seat")
        z, o = cmd.targets
        checks.living(s, z)
        if not s.seat(z).zombie:
            raise refuse("not_a_zombie", f"seat {z} is not a zombie")
        checks.living(s, o)
        if o == z:
            raise refuse("invalid_target", "choose another seat than the zombie")
        if s.seat(o).zombie:
            raise refuse("target_is_zombie", f"seat {o} is a zombie")
        if len(s.seat(o).cards) != len(s.seat(z).cards):
            raise refuse("invalid_target", "both seats must hold the same number of cards")

    def resolve(self, s, seat, cmd):
        z, o = cmd.targets
        a, b = sorted((z, o))
        events: list = [ZombieCured(seat=z)]
        events += [exchange(s, (a, b), (p, p)) for p in positions(s, z)]
        return events
