"""Evidence Bag, classic wording (RULES §7.2): any window. Take an equipment card from any seat's
hand (``target``) into yours.

Decision: another living seat holding equipment (a zombie keeps its equipment, so it may be one);
cards in play are not in a hand. The hand limit (§6) holds: a hand holds one card when equipment
is played, so the taken card is that one, and yours is then the only card in your hand.
"""

from __future__ import annotations

from gcbc.rules.equipment.base import Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.moves import Rule
from gcbc.rules.targets import other_living_seat
from gcbc.rules.timing import ANY
from gcbc_contract.events import EquipmentMoved


@register
class ClassicEvidenceBag(Card):
    name = "evidence_bag"
    edition = "classic"
    timing = ANY
    params = (
        other_living_seat(
            "target",
            Rule(
                "no_effect",
                "seat {value} holds no equipment",
                lambda s, me, t, c: bool(s.seats[t].hand),
            ),
        ),
    )

    def resolve(self, s, seat, cmd):
        t = cmd.target
        return [EquipmentMoved(from_seat=t, to_seat=seat, card=s.seat(t).hand[0])]
