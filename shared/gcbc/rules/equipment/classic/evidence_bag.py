"""Evidence Bag, classic wording (RULES §7.2): any window. Take an equipment card from any seat's
hand (``target``) into yours.

Decision: another living seat holding equipment (a zombie keeps its equipment, so it may be one);
cards in play are not in a hand. The hand limit (§6) holds: a hand holds one card when equipment
is played, so the taken card is that one, and yours is then the only card in your hand.
"""

from __future__ import annotations

from gcbc.contract.events import EquipmentMoved
from gcbc.rules.equipment import checks
from gcbc.rules.equipment.base import ANY, Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.errors import refuse
from gcbc.rules.query import others_alive


@register
class ClassicEvidenceBag(Card):
    name = "evidence_bag"
    edition = "classic"
    timing = ANY
    params = frozenset({"target"})

    def options(self, s, seat):
        return [self.play(seat, target=t) for t in others_alive(s, seat) if s.seat(t).hand]

    def check(self, s, seat, cmd):
        t = checks.other_living(s, seat, cmd.target)
        if not s.seat(t).hand:
            raise refuse("no_effect", f"seat {t} holds no equipment")

    def resolve(self, s, seat, cmd):
        t = cmd.target
        return [EquipmentMoved(from_seat=t, to_seat=seat, card=s.seat(t).hand[0])]
