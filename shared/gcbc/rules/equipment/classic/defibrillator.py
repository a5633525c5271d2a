"""Defibrillator, classic wording (RULES §7.2): any window. Revive an eliminated seat (``target``,
not yourself): you discard two of its integrity cards; its single remaining card (``position``)
decides its team for the rest of the game. The two others leave the game (``CardsDiscarded``:
they are face up, so public).

With the Zombies expansion a zombie may be chosen too: it is brought back to life, a non-zombie
(§8: ``ZombieCured``; its Arms return to the centre), keeping one card the same way.

Decision: a seat already down to one card (revived before) keeps it: ``position`` 1, nothing is
discarded. Any card still face down is turned face up first, so the discarded cards are public. A revived seat no longer holds the classic Wounded card (§4).
Decision: a Leader is never revived (an eliminated Leader ends the game, §2).
"""

from __future__ import annotations

from gcbc.rules.effects import reveal
from gcbc.rules.equipment.defibrillator import Defibrillator
from gcbc.rules.equipment.registry import register
from gcbc.rules.query import card_at, face_down, fallen_elsewhere, positions
from gcbc.rules.targets import card_of
from gcbc_contract.events import CardsDiscarded


@register
class ClassicDefibrillator(Defibrillator):
    """The fourth edition's targets and checks; the reviver also names the card kept."""

    edition = "classic"
    params = (*Defibrillator.params, card_of("target"))
    needs = fallen_elsewhere  # mostly no one is

    def resolve(self, s, seat, cmd):
        t = cmd.target
        events: list = [reveal(s, t, p) for p in face_down(s, t)]
        gone = tuple(p for p in positions(s, t) if p != cmd.position)
        if gone:
            ids = tuple(card_at(s, t, p) for p in gone)
            cards = tuple(s.setup.identities[c] for c in ids)
            events.append(CardsDiscarded(seat=t, positions=gone, card_ids=ids, cards=cards))
        return events + super().resolve(s, seat, cmd)
