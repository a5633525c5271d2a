"""Flamethrower (RULES §8.1): every zombie is shot, by you: its Arms turn to aim at itself
(RULES §8). Needs a zombie. Decision: a zombie playing it is shot too ("every zombie")."""

from __future__ import annotations

from gcbc.rules.effects import get_shot
from gcbc.rules.equipment.base import Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.moves import Rule
from gcbc.rules.query import zombies
from gcbc.rules.timing import ANY


@register
class Flamethrower(Card):
    name = "flamethrower"
    timing = ANY
    requires = (Rule("no_effect", "there is no zombie", lambda s, seat: bool(zombies(s))),)

    def resolve(self, s, seat, cmd):
        return [e for z in zombies(s) for e in get_shot(s, seat, z)]
