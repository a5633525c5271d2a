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
    return next((c for c in s.seats[seat].cards if c in s.wounds), None)


def _anyone_wounded(s, me):
    """Whether any seat is wounded: mostly none (asked in every window of the card's holder)."""
    if s.setup.options.wounds == "card":
        return any(st.wounded for st in s.seats)
    return bool(s.wounds)


@register
class MedKit(Card):
    name = "med_kit"
    timing = ANY
    needs = _anyone_wounded
    params = (
        seat(
            "target",
            LIVING,
            Rule(
                "no_effect",
                "seat {value} is not wounded",
                lambda s, me, t, c: wound_of(s, t) is not None,
            ),
        ),
    )

    def resolve(self, s, seat, cmd):
        return [WoundHealed(seat=cmd.target, card_id=wound_of(s, cmd.target))]
