"""Evidence Bag (RULES §7.1): move one equipment card, from another seat's hand or in play in
front of it, to a third seat. You are never the giver or the receiver. ``choice`` is "hand" or
the name of the in-play card; the receiver discards down to 1 (the flow's hand limit).

Zombies (RULES §8): a zombie keeps its equipment, so it may be the giver or the receiver (and play
the card).
"""

from __future__ import annotations

from gcbc.contract.events import EquipmentMoved
from gcbc.rules.equipment import checks
from gcbc.rules.equipment.base import ANY, Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.errors import refuse
from gcbc.rules.query import others_alive

HAND = "hand"


@register
class EvidenceBag(Card):
    name = "evidence_bag"
    timing = ANY
    params = frozenset({"targets", "choice"})

    def _sources(self, s, giver):
        st = s.seat(giver)
        return ([HAND] if st.hand else []) + list(dict.fromkeys(st.in_play))

    def options(self, s, seat):
        others = others_alive(s, seat)
        # during options the card is still in the player's hand; givers are other seats
        return [
            self.play(seat, targets=(g, r), choice=src)
            for g in others
            for src in self._sources(s, g)
            for r in others
            if r != g
        ]

    def check(self, s, seat, cmd):
        if len(cmd.targets) != 2:
            raise refuse("bad_parameters", "name the giver and the receiver")
        g, r = cmd.targets
        checks.other_living(s, seat, g)
        checks.other_living(s, seat, r)
        if g == r:
            raise refuse("invalid_target", "the giver and the receiver must differ")
        if cmd.choice not in self._sources(s, g):
            raise refuse("invalid_choice", f"seat {g} has no such equipment to give")

    def resolve(self, s, seat, cmd):
        g, r = cmd.targets
        if cmd.choice == HAND:
            return [EquipmentMoved(from_seat=g, to_seat=r, card=s.seat(g).hand[0])]
        return [EquipmentMoved(from_seat=g, to_seat=r, card=cmd.choice, in_play=True)]
