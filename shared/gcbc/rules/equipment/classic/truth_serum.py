"""Truth Serum, classic wording (RULES §7.2): any window. Choose a seat (``target``): **that seat**
turns one of its face-down cards face up, its choice (§7.3): a prompt "truth_serum" to it, whose
options are its face-down positions; its answer (``Choose(position=...)``) reveals that card.

Decision: any living seat with a face-down card, yourself included (as in §7.1); a seat with no
face-down card cannot be chosen ("no_effect"). A seat with a single face-down card is still asked.
"""

from __future__ import annotations

from gcbc.contract.commands import Choose
from gcbc.contract.events import PromptAnswered, PromptOpened
from gcbc.rules.effects import reveal
from gcbc.rules.equipment import checks
from gcbc.rules.equipment.base import ANY, Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.errors import refuse
from gcbc.rules.query import face_down, living


def choose_own_card(card, s, prompt, cmd):
    """The answer to a prompt asking its seat to turn one of its own face-down cards face up
    (classic Truth Serum, Report Audit): the position chosen among the prompt's options."""
    if cmd.target is not None or cmd.card is not None or cmd.position not in prompt.options:
        raise refuse("invalid_choice", f"choose a position among {list(prompt.options)}")
    events = [PromptAnswered(seat=prompt.seat, kind=card.name, position=cmd.position)]
    if not s.seat(prompt.seat).face_up[cmd.position - 1]:
        events.append(reveal(s, prompt.seat, cmd.position))
    return events


def own_card_options(s, prompt):
    return [Choose(seat=prompt.seat, position=p) for p in prompt.options]


@register
class ClassicTruthSerum(Card):
    name = "truth_serum"
    edition = "classic"
    timing = ANY
    params = frozenset({"target"})

    def options(self, s, seat):
        return [self.play(seat, target=t) for t in living(s) if face_down(s, t)]

    def check(self, s, seat, cmd):
        t = checks.living(s, cmd.target)
        if not face_down(s, t):
            raise refuse("no_effect", f"seat {t} has no face-down card")

    def resolve(self, s, seat, cmd):
        t = cmd.target
        return [PromptOpened(seat=t, kind=self.name, options=tuple(face_down(s, t)), about=seat)]

    def prompt_options(self, s, prompt):
        return own_card_options(s, prompt)

    def answer(self, s, prompt, cmd):
        return choose_own_card(self, s, prompt, cmd)
