"""Truth Serum, classic wording (RULES §7.2): any window. Choose a seat (``target``): **that seat**
turns one of its face-down cards face up, its choice (§7.3): a prompt "truth_serum" to it, whose
options are its face-down positions; its answer (``Choose(position=...)``) reveals that card. Played
on oneself, the position may come with the play (§7.3: a choice of one's own).

Decision: any living seat with a face-down card, yourself included (as in §7.1); a seat with no
face-down card cannot be chosen ("no_effect"). A seat with a single face-down card is still asked.
"""

from __future__ import annotations

from gcbc.rules.effects import reveal
from gcbc.rules.equipment.base import Answer, Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.moves import Rule
from gcbc.rules.query import face_down
from gcbc.rules.targets import living_seat
from gcbc.rules.timing import ANY
from gcbc_contract.events import PromptAnswered, PromptOpened

# a prompt asking its seat to turn one of its own face-down cards face up (classic Truth Serum,
# Report Audit): a position among the prompt's options
OWN_CARD = Answer("position", "choose a position among {options}")


def own_card_answered(card, s, prompt, cmd):
    """The answer to an ``OWN_CARD`` prompt: that card turned face up (if it still is down)."""
    events = [PromptAnswered(seat=prompt.seat, kind=card.name, position=cmd.position)]
    if not s.seat(prompt.seat).face_up[cmd.position - 1]:
        events.append(reveal(s, prompt.seat, cmd.position))
    return events


@register
class ClassicTruthSerum(Card):
    name = "truth_serum"
    edition = "classic"
    timing = ANY
    params = (
        living_seat(
            "target",
            Rule(
                "no_effect",
                "seat {value} has no face-down card",
                lambda s, me, t, c: bool(face_down(s, t)),
            ),
        ),
    )
    answer = OWN_CARD

    def asks(self, s, seat, cmd):
        return cmd.target, tuple(face_down(s, cmd.target))

    def resolve(self, s, seat, cmd):
        t, options = self.asks(s, seat, cmd)
        return [PromptOpened(seat=t, kind=self.name, options=options, about=seat)]

    def answered(self, s, prompt, cmd):
        return own_card_answered(self, s, prompt, cmd)
