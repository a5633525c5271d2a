"""Zombie Serum (RULES §8.1): you are shot (RULES §4: a non-Leader becomes a zombie, §8; a zombie's
Arms turn on itself). ``choice`` names "agent" or "kingpin": its holder must then turn that card
face up, if it is still face down.

Decisions: the shot is by yourself (``by`` is you: RULES §9, a Bomber so shot does not make the
Bombers win). The Leader is turned face up after the shot. Eliminated in your own turn, your
turn ends; risen as a zombie, you play the rest of it as one (flow)."""

from __future__ import annotations

from gcbc.rules.effects import get_shot, reveal
from gcbc.rules.equipment.base import Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.moves import Param
from gcbc.rules.timing import ANY
from gcbc_contract.cards import AGENT, KINGPIN

CHOICES = (AGENT, KINGPIN)


@register
class ZombieSerum(Card):
    name = "zombie_serum"
    timing = ANY
    params = (
        Param(
            "choice", lambda s, seat, c: CHOICES, ("invalid_choice", "name 'agent' or 'kingpin'")
        ),
    )

    def resolve(self, s, seat, cmd):
        events = get_shot(s, seat, seat)
        cid = s.setup.leader_ids[CHOICES.index(cmd.choice)]
        for i, st in enumerate(s.seats):
            # your own cards are all face up once shot; a zombie's already were
            if i != seat and cid in st.cards and not st.face_up[st.cards.index(cid)]:
                events.append(reveal(s, i, st.cards.index(cid) + 1))
        return events
