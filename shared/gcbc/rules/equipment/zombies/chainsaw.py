"""Chainsaw (RULES §8.1): turn face up a face-down integrity card (``target``, ``position``) of
another living seat; Disguise does not protect it (RULES §7.1 Disguise). If it is a Leader, you
choose another non-wounded living seat: it is shot, by you — a "chainsaw" prompt to you (options:
the seats you may choose; ``about``: the seat whose card was turned), since you choose after
seeing the card. Otherwise you are shot.

Decisions: the seat you choose is never yourself (RULES §5: a gun never aims at its holder); it
may be a zombie (RULES §8: shot, its Arms turn on itself) or the Leader just found. "You are shot"
is a shot by yourself (RULES §9: a Bomber so shot does not make the Bombers win). Should every
other living seat be wounded, the Leader found shoots nobody (no prompt). Eliminated in your own
turn, your turn ends; risen as a zombie, you play the rest of it as one (flow)."""

from __future__ import annotations

from gcbc.rules.effects import get_shot, reveal
from gcbc.rules.equipment.base import Answer, Card
from gcbc.rules.equipment.registry import register
from gcbc.rules.query import card_at, others_alive
from gcbc.rules.targets import face_down_card_of, other_living_seat
from gcbc.rules.teams import is_wounded
from gcbc.rules.timing import ANY
from gcbc_contract.events import PromptAnswered, PromptOpened


@register
class Chainsaw(Card):
    name = "chainsaw"
    timing = ANY
    params = (other_living_seat("target"), face_down_card_of("target"))
    answer = Answer("target", "choose a seat to shoot among {options}")

    def resolve(self, s, seat, cmd):
        events = [reveal(s, cmd.target, cmd.position)]
        if card_at(s, cmd.target, cmd.position) not in s.setup.leader_ids:
            return events + get_shot(s, seat, seat)
        choices = tuple(i for i in others_alive(s, seat) if not is_wounded(s, i))
        if choices:
            events.append(
                PromptOpened(seat=seat, kind=self.name, options=choices, about=cmd.target)
            )
        return events

    def answered(self, s, prompt, cmd):
        return [
            PromptAnswered(seat=prompt.seat, kind=self.name, target=cmd.target),
            *get_shot(s, prompt.seat, cmd.target),
        ]
