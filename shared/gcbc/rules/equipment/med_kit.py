"""Med Kit (RULES §7.1): remove the Wounded token from a living seat's Leader card. With
``wounds: "card"`` (RULES §4: Med Kit needs a wound to remove and works on both) it removes the
Wounded card from a wounded seat (which holds a Leader card, else it would be out).

Zombies (RULES §8): unchanged; a zombie holds no Leader card (a Leader is never made a zombie),
so it carries no Wounded token.
"""

from __future__ import annotations

from gcbc.rules.equipment.base import Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.moves import Rule
from gcbc.rules.targets import LIVING, seat
from gcbc.rules.teams import holds_leader
from gcbc.rules.timing import ANY
from gcbc_contract.events import WoundHealed


def wound_of(s, seat):
    """The card id the seat's wound is on (``wounds: "card"``: its Leader card), or None."""
    if s.setup.options.wounds == "card":
        return holds_leader(s, seat) if s.seats[seat].wounded else None
    wounds = s.wounds
    if wounds:  # mostly none: no card to look at (the options ask of every living seat)
        for c in s.seats[seat].cards:
            if c in wounds:
                return c
    return None


def _is_wounded(s, me, seat, chosen):
    """``wound_of(s, seat) is not None``, asked of every living seat in the options."""
    if s.setup.options.wounds == "card":
        return s.seats[seat].wounded and holds_leader(s, seat) is not None
    wounds = s.wounds
    if wounds:
        for c in s.seats[seat].cards:
            if c in wounds:
                return True
    return False


def _wounded(s, me, seats, chosen):
    """The wounded seats among ``seats``: mostly none, found without asking each."""
    if s.setup.options.wounds == "card":
        return [t for t in seats if s.seats[t].wounded and holds_leader(s, t) is not None]
    if not s.wounds:
        return []
    return [t for t in seats if wound_of(s, t) is not None]


@register
class MedKit(Card):
    name = "med_kit"
    timing = ANY
    params = (
        seat(
            "target",
            LIVING,
            Rule("no_effect", "seat {value} is not wounded", _is_wounded, select=_wounded),
        ),
    )

    def resolve(self, s, seat, cmd):
        return [WoundHealed(seat=cmd.target, card_id=wound_of(s, cmd.target))]
