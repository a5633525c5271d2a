"""Evidence Bag (RULES §7.1): move one equipment card, from another seat's hand or in play in
front of it, to a third seat. You are never the giver or the receiver. ``choice`` is "hand" or
the name of the in-play card; the receiver discards down to 1 (the flow's hand limit).

Zombies (RULES §8): a zombie keeps its equipment, so it may be the giver or the receiver (and play
the card).
"""

from __future__ import annotations

from gcbc.rules.equipment.base import Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.moves import Param, Rule
from gcbc.rules.targets import other_living_seat
from gcbc.rules.timing import ANY
from gcbc_contract.events import EquipmentMoved

HAND = "hand"


def sources(s, giver):
    """What the giver may give: "hand" (the card in its hand), or a card in play in front of it."""
    st = s.seats[giver]
    return ([HAND] if st.hand else []) + list(dict.fromkeys(st.in_play))


@register
class EvidenceBag(Card):
    name = "evidence_bag"
    timing = ANY
    params = (
        other_living_seat("targets", index=0, name="giver"),
        Param(
            "choice",
            lambda s, seat, c: sources(s, c["giver"]),
            ("invalid_choice", "seat {giver} has no such equipment to give"),
            depends=("giver",),
        ),
        other_living_seat(
            "targets",
            Rule(
                "invalid_target",
                "the giver and the receiver must differ",
                select=lambda s, me, ts, c: [t for t in ts if t != c["giver"]],
            ),
            index=1,
            name="receiver",
            depends=("giver",),
        ),
    )

    def resolve(self, s, seat, cmd):
        g, r = cmd.targets
        if cmd.choice == HAND:
            return [EquipmentMoved(from_seat=g, to_seat=r, card=s.seats[g].hand[0])]
        return [EquipmentMoved(from_seat=g, to_seat=r, card=cmd.choice, in_play=True)]
