"""Defibrillator, classic wording (RULES §7.2): any window. Revive an eliminated seat (``target``,
not yourself): you discard two of its integrity cards; its single remaining card (``position``)
decides its team for the rest of the game. The two others leave the game (``CardsDiscarded``:
they are face up, so public).

With the Zombies expansion a zombie may be chosen too: it is brought back to life, a non-zombie
(§8: ``ZombieCured``; its Arms return to the centre), keeping one card the same way.

Decision: a seat already down to one card (revived before) keeps it: ``position`` 1, nothing is
discarded. Any card still face down (a zombie that used Flashbang) is turned face up first, so the
discarded cards are public. A revived seat no longer holds the classic Wounded card (§4).
Decision: a Leader is never revived (an eliminated Leader ends the game, §2).
"""

from __future__ import annotations

from gcbc.contract.events import CardsDiscarded, SeatRevived, ZombieCured
from gcbc.rules.effects import reveal
from gcbc.rules.equipment import checks
from gcbc.rules.equipment.base import ANY, Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.errors import refuse
from gcbc.rules.query import card_at, face_down, positions
from gcbc.rules.teams import holds_leader


def revivable(s, seat, t):
    st = s.seat(t)
    return t != seat and (st.eliminated or st.zombie) and holds_leader(s, t) is None


@register
class ClassicDefibrillator(Card):
    name = "defibrillator"
    edition = "classic"
    timing = ANY
    params = frozenset({"target", "position"})

    def options(self, s, seat):
        return [
            self.play(seat, target=t, position=p)
            for t in range(len(s.seats))
            if revivable(s, seat, t)
            for p in positions(s, t)
        ]

    def check(self, s, seat, cmd):
        t = checks.seat_exists(s, cmd.target)
        if t == seat:
            raise refuse("target_is_self", "you cannot revive yourself")
        st = s.seat(t)
        if not st.eliminated and not st.zombie:
            raise refuse("invalid_target", f"seat {t} is neither eliminated nor a zombie")
        if holds_leader(s, t) is not None:
            raise refuse("invalid_target", "a Leader cannot be revived")
        if cmd.position not in positions(s, t):
            raise refuse("invalid_position", f"seat {t} has no card at position {cmd.position}")

    def resolve(self, s, seat, cmd):
        t = cmd.target
        events: list = [reveal(s, t, p) for p in face_down(s, t)]
        gone = tuple(p for p in positions(s, t) if p != cmd.position)
        if gone:
            ids = tuple(card_at(s, t, p) for p in gone)
            cards = tuple(s.identities[c] for c in ids)
            events.append(CardsDiscarded(seat=t, positions=gone, card_ids=ids, cards=cards))
        events.append(ZombieCured(seat=t) if s.seat(t).zombie else SeatRevived(seat=t))
        return events
